"""Taps on the Record page's board, read in the browser: every tap, touch or mouse, is taken
from the pointer itself, not from plotly's click, which loses a tap that comes within a few
hundred ms of the board being redrawn (plotly finds a clicked point by its hover, which a redraw
clears) and reports nothing for a tap beside every point.

A tap (pointer down and up within a finger's width) is matched to the nearest tap target in
reach: a legal one (trace `tap`) first, else a place the question does not offer (`tap-not`),
else nothing; the page's store `record-board-tap` then gets plotly's click shape (`points`, each
with its `customdata`), and the server answers every one (`steps.board_answer`). A tap made
while the board is still being redrawn for the answer just given waits for the new board, so
it answers the question the player sees next."""

from __future__ import annotations

from dash import Input, Output

TAP_STORE = "record-board-tap"
BOARD = "record-board"

# Installed once per page load, on the document: the board's element is replaced when plotly's
# component has loaded (a listener on the first one would hear nothing).
LISTEN = """
function (_figure) {
    const keep = window.dash_clientside.no_update;
    if (window.tablelogTapsHeard) return keep;
    window.tablelogTapsHeard = true;
    const FINGER = 12, WAIT_MS = 3000, TRACES = ['tap', 'tap-not'];
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
    function nearest(gd, cx, cy) {
        const layout = gd._fullLayout, xa = layout.xaxis, ya = layout.yaxis;
        const rect = gd.getBoundingClientRect(), px = cx - rect.left, py = cy - rect.top;
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
        if (sent !== null && Date.now() - sent.at < WAIT_MS && answered(gd) === sent.count) {
            setTimeout(flush, 40);  // the board is not yet redrawn for the answer just given
            return;
        }
        sent = null;
        while (queue.length && sent === null) {
            const [cx, cy] = queue.shift();
            if (!gd || !gd._fullLayout || !gd.data) continue;
            const hit = nearest(gd, cx, cy);
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
        if (!plot() || answered(plot()) === null) return;  // no question asked on the board
        queue.push([e.clientX, e.clientY]);
        flush();
    }, true);
    document.addEventListener('pointercancel', () => { down = null; }, true);
    return keep;
}
""".replace("__BOARD__", BOARD).replace("__STORE__", TAP_STORE)


def register(app) -> None:
    """Listen to the board's taps once it is drawn."""
    app.clientside_callback(LISTEN, Output(TAP_STORE, "data"), Input(BOARD, "figure"))
