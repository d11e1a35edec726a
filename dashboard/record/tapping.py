"""Taps on the Record page's board, read in the browser: every tap, touch or mouse, is taken
from the pointer itself, not from plotly's click, which loses a tap that comes within a few
hundred ms of the board being redrawn (plotly finds a clicked point by its hover, which a redraw
clears) and reports nothing for a tap beside every point.

A tap (pointer down and up within a finger's width) is taken as a place on the board, in the
board's own units as it was drawn when tapped, and matched to the nearest tap target in reach:
a legal one (trace `tap`) first, else a place the question does not offer (`tap-not`), else
nothing; the page's store `record-board-tap` then gets plotly's click shape (`points`, each
with its `customdata`), and the server answers every one (`steps.board_answer`).

Taps are read in order, each against the board that answers the one before, whatever time the
server takes. Two ways a tap was lost on a loaded phone (issue 44): a fixed wait for the answer
ran out, and the tap was read against the board it was meant to follow; and a tap kept in
pixels was read on a board drawn at another scale (Topitop's supply widens the board while a
piece is asked for) and hit nothing. So the server acknowledges every board tap (`ANSWER`:
taken or not) and every write (`WRITTEN`: did the match move?); a tap waits while the tap
before it is unanswered, or taken and its board not yet redrawn, and a tap on a board that
asks nothing waits while a write tapped before it (the Record button) is unanswered or its
next board not yet drawn. Only a page that never hears back (a failed request) reads a
waiting tap after `STUCK_MS`.

A tap on a button of the question or on a chip takes its turn in the same queue and store (a
button carries its pick and the number of answers it was drawn after, as a target does; a chip
its place): the pick callback has the store as its only input. A third way a tap was lost
(issue 44): with the buttons as its inputs, every redraw of the question called it afresh, and
Dash, which keeps only the last call of a callback under way, threw away the answer to a tap
made just before (a tap on the question an undo was about to replace). For the same reason no
tap is sent while the one before is unanswered."""

from __future__ import annotations

from dash import Input, Output

from tablelog.dashboard import kinds

TAP_STORE = "record-board-tap"
HEARD = "record-board-heard"  # the listener's own output: never the tap store (Dash would
# drop a tap set while the callback that outputs to it is running)
ANSWER = "record-board-answer"  # the server's answer to a board tap: {at, taken}
WRITTEN = "record-written"  # the server's answer to a write button: {moved}
BOARD = "record-board"
PICKER = "record-picker"  # the move's question: its buttons and chips
STUCK_MS = 20000
# What the listener puts in the tap store: a tap on the board or a button (plotly's click shape,
# each point's customdata the pick), or on a chip (`back`: its place); `at` tells taps apart.
TAP = kinds.kind(
    "a tap on the board, a button or a chip (or nothing)",
    {
        **kinds.CLICK,
        "properties": {
            **kinds.CLICK["properties"],
            "back": {"type": "integer", "minimum": 0},
            "at": {"type": "string"},
        },
    },
)

# Installed once per page load, on the document: the board's element is replaced when plotly's
# component has loaded (a listener on the first one would hear nothing).
LISTEN = (
    """
function (_figure) {
    const keep = window.dash_clientside.no_update;
    // The board as last drawn on the screen: its axes' place and range, taken whenever plotly
    // is not redrawing it (while it redraws, its layout runs ahead of the screen, and is
    // half made at times).
    function snap(gd) {
        if (gd.classList.contains('dash-graph--pending') || !gd._fullLayout) return;
        const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
        if (!xa || !ya || !(xa._length > 0) || !(ya._length > 0)) return;
        gd.tablelogDrawn = {x: [xa._offset, xa._length, xa.range.slice()],
                            y: [ya._offset, ya._length, ya.range.slice()]};
    }
    window.tablelogShown = gd => {
        if (!gd) return null;
        if (!gd.tablelogShown) {
            gd.tablelogShown = true;
            new MutationObserver(() => snap(gd)).observe(
                gd, {attributes: true, attributeFilter: ['class']});
            if (gd.on) gd.on('plotly_afterplot', () => snap(gd));
        }
        snap(gd);
        return gd.tablelogDrawn || null;
    };
    window.tablelogShown(document.querySelector('#__BOARD__ .js-plotly-plot'));
    if (window.tablelogTapsHeard) return keep;
    window.tablelogTapsHeard = true;
    const FINGER = 12, STUCK_MS = __STUCK__, TRACES = ['tap', 'tap-not'];
    // sent: the tap last sent ({at, time}): every tap waits for the answer to the one before;
    // writing: the write buttons tapped and answered, and the board shown when answered.
    let down = null, queue = [], sent = null;
    const writes = {tapped: 0, answered: 0, moved: false, drawn: null, time: 0};
    window.tablelogBoard = {answer: null, writes};

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
    function nearest(gd, bx, by) {
        const layout = gd._fullLayout, xa = layout.xaxis, ya = layout.yaxis;
        const px = xa._offset + xa.l2p(bx), py = ya._offset + ya.l2p(by);
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
        return hit ? hit.data : null;
    }
    function onScreen(gd) {
        // The board is on the screen as plotly last drew it (a place is read off it).
        return gd && gd._fullLayout && gd.data && !gd.classList.contains('dash-graph--pending');
    }
    function awaited(gd) {
        // The tap sent last is not answered yet, or its answer taken and its board not drawn
        // yet: the next tap waits (sent now, it would throw the answer away: Dash keeps only
        // the last call of a callback under way).
        if (sent === null) return false;
        if (Date.now() - sent.time < STUCK_MS) {
            const answer = window.tablelogBoard.answer;
            if (answer === null || answer.at !== sent.at) return true;
            if (answer.taken && gd && gd.data === answer.drawn) return true;
        }
        sent = null;
        return false;
    }
    function writeAwaited(gd) {
        // A write tapped before is not answered yet, or its new board not drawn yet.
        if (Date.now() - writes.time >= STUCK_MS) return false;
        if (writes.answered < writes.tapped) return true;
        return writes.moved && gd.data === writes.drawn;
    }
    function read(gd, tap) {
        // What the tap gives the server: a chip its place, a button its pick, a place on the
        // board the pick of the target nearest it (none: nothing there); null: not yet.
        if (tap.back !== undefined) return {back: tap.back, at: tap.at};
        if (tap.pick !== undefined) return {points: [{customdata: tap.pick}], at: tap.at};
        if (!onScreen(gd) || (answered(gd) === null && writeAwaited(gd))) return null;
        const hit = nearest(gd, tap.bx, tap.by);
        return {points: hit ? [{customdata: hit}] : [], at: tap.at};
    }
    function flush() {
        const gd = plot();
        while (queue.length && !awaited(gd)) {
            const told = read(gd, queue[0]);
            if (told === null) break;
            sent = {at: queue.shift().at, time: Date.now()};
            window.dash_clientside.set_props('__STORE__', {data: told});
        }
        if (queue.length) setTimeout(flush, 40);
    }
    window.tablelogBoard.heard = answer => {
        // The board shown when the answer came: a taken answer's own board comes after it
        // (one drawn meanwhile for something else, an undo's, is not it).
        window.tablelogBoard.answer = {...answer, drawn: plot() ? plot().data : null};
    };
    window.tablelogBoard.written = moved => {
        writes.answered += 1;
        writes.moved = moved;
        writes.drawn = plot() ? plot().data : null;
    };
    let taps = 0;
    function heard(tap) {
        taps += 1;
        queue.push({...tap, at: `${Date.now()}.${taps}`});
        flush();
    }
    document.addEventListener('click', e => {
        if (!e.target.closest) return;
        if (e.target.closest('[id*="record-write"]')) {
            writes.tapped += 1;
            writes.time = Date.now();
        }
        // A button of the move's question, or a chip: its tap waits its turn as the board's.
        const button = e.target.closest('#__PICKER__ button');
        if (button && button.dataset.tap !== undefined) heard({pick: button.dataset.tap});
        if (button && button.dataset.back !== undefined) heard({back: +button.dataset.back});
    }, true);
    document.addEventListener('pointerdown', e => {
        down = onBoard(e) ? {x: e.clientX, y: e.clientY} : null;
    }, true);
    document.addEventListener('pointerup', e => {
        if (!down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > FINGER) return;
        down = null;
        // The place on the board the finger touched, in the board's own units, read off the
        // board as drawn when tapped: a tap that waits is read on the next board, which may
        // be drawn at another scale (a question whose places reach further) or elsewhere on
        // the page.
        const gd = plot(), drawn = window.tablelogShown(gd);
        if (!drawn) return;
        const rect = gd.getBoundingClientRect();
        const [x0, xl, xr] = drawn.x, [y0, yl, yr] = drawn.y;
        const bx = xr[0] + (e.clientX - rect.left - x0) / xl * (xr[1] - xr[0]);
        const by = yr[1] - (e.clientY - rect.top - y0) / yl * (yr[1] - yr[0]);
        window.tablelogBoard.last = [e.clientX, e.clientY, rect.top, bx, by, y0, yl, yr];
        heard({bx, by});
    }, true);
    document.addEventListener('pointercancel', () => { down = null; }, true);
    return keep;
}
""".replace("__BOARD__", BOARD)
    .replace("__PICKER__", PICKER)
    .replace("__STORE__", TAP_STORE)
    .replace("__STUCK__", str(STUCK_MS))
)

# The server's answers, handed to the listener.
HEAR_ANSWER = """
function (answer) {
    if (window.tablelogBoard && answer) window.tablelogBoard.heard(answer);
    return window.dash_clientside.no_update;
}
"""
HEAR_WRITTEN = """
function (written) {
    if (window.tablelogBoard && written) window.tablelogBoard.written(!!written.moved);
    return window.dash_clientside.no_update;
}
"""


def register(app) -> None:
    """Listen to the board's taps once it is drawn, and to the server's answers."""
    app.clientside_callback(LISTEN, Output(HEARD, "data"), Input(BOARD, "figure"))
    app.clientside_callback(
        HEAR_ANSWER,
        Output(HEARD, "data", allow_duplicate=True),
        Input(ANSWER, "data"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        HEAR_WRITTEN,
        Output(HEARD, "data", allow_duplicate=True),
        Input(WRITTEN, "data"),
        prevent_initial_call=True,
    )
