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
tap is sent while the one before is unanswered.

The start form's buttons (a game, a setup question's button, a chip) and the write buttons
(Start, Record this move, Undo, Claim, End) take their turn in the same queue, each into its own
store, the only input of its callback (`SETUP_TAP`, `WRITE_TAP`): as pattern inputs, a redraw of
the setup questions threw away a setup tap's answer, and a redraw of the move's question (Record
is one of its buttons) a write's, stored but never said. A setup tap is answered in `ANSWER`, a
write in `WRITTEN`, each naming its tap (`at`); a write tapped after a pick is sent once the
pick is answered, so it writes the move with that pick."""

from __future__ import annotations

from dash import Input, Output

from tablelog.dashboard import kinds

TAP_STORE = "record-board-tap"
HEARD = "record-board-heard"  # the listener's own output: never the tap store (Dash would
# drop a tap set while the callback that outputs to it is running)
ANSWER = "record-board-answer"  # the server's answer to a board tap: {at, taken}
WRITTEN = "record-written"  # the server's answer to a write button: {moved, at}
SETUP_TAP = "record-setup-tap"  # a tap on the start form's buttons
WRITE_TAP = "record-write-tap"  # a tap on a write button: {action, at}
START = "record-start"  # the start form: its game buttons and setup questions
PAGE = "record-page"  # this page load's own id, there from the start
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
# A tap on the start form: a game, or as a move's tap (a setup question's button, a chip).
SETUP = kinds.kind(
    "a tap on the start form (or nothing)",
    {**TAP, "properties": {**TAP["properties"], "game": {"type": "string"}}},
)
WRITING = kinds.kind(
    "a tap on a write button (or nothing)",
    {
        "type": ["object", "null"],
        "required": ["action", "at"],
        "properties": {"action": {"type": "string"}, "at": {"type": "string"}},
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
        // What the tap gives the server: a write its action, a game its name, a chip its
        // place, a button its pick, a place on the board the pick of the target nearest it
        // (none: nothing there); null: not yet.
        if (tap.action !== undefined) return {action: tap.action, at: tap.at};
        if (tap.game !== undefined) return {game: tap.game, at: tap.at};
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
            const tap = queue.shift();
            sent = {at: tap.at, time: Date.now()};
            window.dash_clientside.set_props(tap.store, {data: told});
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
    function heard(tap, store) {
        taps += 1;
        queue.push({...tap, store: store || '__STORE__', at: `${Date.now()}.${taps}`});
        flush();
    }
    document.addEventListener('click', e => {
        if (!e.target.closest) return;
        const write = e.target.closest('button[id*="record-write"]');
        if (write) {
            writes.tapped += 1;
            writes.time = Date.now();
            heard({action: JSON.parse(write.id).action}, '__WRITE__');
        }
        // A button of the move's question, or a chip: its tap waits its turn as the board's;
        // the start form's likewise, into its own store.
        const button = e.target.closest('#__PICKER__ button');
        if (button && button.dataset.tap !== undefined) heard({pick: button.dataset.tap});
        if (button && button.dataset.back !== undefined) heard({back: +button.dataset.back});
        const start = e.target.closest('#__START__ button');
        if (!start) return;
        const data = start.dataset;
        if (data.game !== undefined) heard({game: data.game}, '__SETUP__');
        if (data.tap !== undefined) heard({pick: data.tap}, '__SETUP__');
        if (data.back !== undefined) heard({back: +data.back}, '__SETUP__');
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
    .replace("__WRITE__", WRITE_TAP)
    .replace("__SETUP__", SETUP_TAP)
    .replace("__START__", START)
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
    if (!window.tablelogBoard || !written) return window.dash_clientside.no_update;
    window.tablelogBoard.written(!!written.moved);
    // The write's tap is answered (a board tap after it waits for its board, as above).
    window.tablelogBoard.heard({at: written.at, taken: false});
    return window.dash_clientside.no_update;
}
"""


def register(app) -> None:
    """Listen to the page's taps, and to the server's answers."""
    app.clientside_callback(LISTEN, Output(HEARD, "data"), Input(BOARD, "figure"))
    # Installed at the page's load too, not after the first board: the start form's taps go
    # through the listener, and a board drawn late (a slow server) would lose the first ones.
    app.clientside_callback(
        LISTEN,
        Output(HEARD, "data", allow_duplicate=True),
        Input(PAGE, "data"),
        prevent_initial_call="initial_duplicate",
    )
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
