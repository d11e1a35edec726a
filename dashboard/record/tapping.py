"""Taps on the Record page's board, read in the browser: every tap, touch or mouse, is taken
from the pointer itself, not from plotly's click, which loses a tap that comes within a few
hundred ms of the board being redrawn (plotly finds a clicked point by its hover, which a redraw
clears) and reports nothing for a tap beside every point.

A tap (pointer down and up within a finger's width) is matched to the nearest tap target in
reach: a legal one (trace `tap`) first, else a place the question does not offer (`tap-not`),
else nothing (a tap on a board asking nothing waits a moment for its next question: a move
just recorded is followed by the next one's); the page's store `record-board-tap` then gets
plotly's click shape (`points`, each with its `customdata`), and the server answers every one
(`steps.board_answer`). A tap made while the board is still being redrawn for the answer just
given waits for the new board, so it answers the question the player sees next."""

from __future__ import annotations

from dash import Input, Output

TAP_STORE = "record-board-tap"
HEARD = "record-board-heard"  # the listener's own output: never the tap store (Dash would
# drop a tap set while the callback that outputs to it is running)
BOARD = "record-board"

# Installed once per page load, on the document: the board's element is replaced when plotly's
# component has loaded (a listener on the first one would hear nothing).
LISTEN = """
function (_figure) {
    const keep = window.dash_clientside.no_update;
    if (window.tablelogTapsHeard) return keep;
    window.tablelogTapsHeard = true;
    const FINGER = 12, WAIT_MS = 3000, NEXT_MS = 1500, TRACES = ['tap', 'tap-not'];
    let down = null, queue = [], sent = null;

    function plot() { return document.querySelector('#__BOARD__ .js-plotly-plot'); }
    function onBoard(e) { return e.target.closest && e.target.closest('#__BOARD__'); }
    function answered(gd) {
        for (const trace of (gd && gd.data) || []) {
            if (TRACES.includes(trace.name) && trace.customdata && trace.customdata.length) {
                return JSON.parse(trace.customdata[0])[2];
            }
        }
        return null;
    }
    function nearest(gd, px, py) {
        const layout = gd._fullLayout, xa = layout.xaxis, ya = layout.yaxis;
        const best = {};
        gd.data.forEach(trace => {
            if (!TRACES.includes(trace.name)) return;
            const sizes = trace.marker.size;
            trace.x.forEach((x, j) => {
                const size = Array.isArray(sizes) ? sizes[j] : sizes;
                const reach = Math.max(size / 2, 22) * (trace.name === 'tap' ? 1 : 2);
                const d = Math.hypot(xa._offset + xa.l2p(x) - px,
                                     ya._offset + ya.l2p(trace.y[j]) - py);
                const was = best[trace.name];
                if (d <= reach && (!was || d < was.d)) {
                    best[trace.name] = {d, data: trace.customdata[j]};
                }
            });
        });
        const hit = best['tap'] || best['tap-not'];
        return hit ? {data: hit.data, legal: !!best['tap']} : null;
    }
    function flush() {
        const gd = plot();
        const count = answered(gd);
        if (sent !== null && Date.now() - sent.at < WAIT_MS && count === sent.count) {
            setTimeout(flush, 40);  // the board is not yet redrawn for the answer just given
            return;
        }
        sent = null;
        if (queue.length && count === null && Date.now() - queue[0][2] < NEXT_MS) {
            setTimeout(flush, 40);  // no question on the board yet: the next one may be coming
            return;
        }
        while (queue.length && sent === null) {
            const [px, py] = queue.shift();
            if (!gd || !gd._fullLayout || !gd.data) continue;
            const hit = nearest(gd, px, py);
            const points = hit ? [{customdata: hit.data}] : [];
            if (hit && hit.legal) sent = {count: answered(gd), at: Date.now()};
            window.dash_clientside.set_props('__STORE__', {data: {points, at: Date.now()}});
        }
        if (queue.length) setTimeout(flush, 40);
    }
    document.addEventListener('pointerdown', e => {
        down = onBoard(e) ? {x: e.clientX, y: e.clientY} : null;
    }, true);
    document.addEventListener('pointerup', e => {
        if (!down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > FINGER) return;
        down = null;
        // Where on the board, as it was drawn when tapped (the page may shift before a tap
        // that waits for the next board is read).
        const rect = plot() ? plot().getBoundingClientRect() : {left: 0, top: 0};
        queue.push([e.clientX - rect.left, e.clientY - rect.top, Date.now()]);
        flush();
    }, true);
    document.addEventListener('pointercancel', () => { down = null; }, true);
    return keep;
}
""".replace("__BOARD__", BOARD).replace("__STORE__", TAP_STORE)


def register(app) -> None:
    """Listen to the board's taps once it is drawn."""
    app.clientside_callback(LISTEN, Output(HEARD, "data"), Input(BOARD, "figure"))
