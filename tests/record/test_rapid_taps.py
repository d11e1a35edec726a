"""Taps as fast as a player at the table makes them, in headless Chromium, on a touch phone
(390x844) and with a mouse (1400x1000): 50 Topitop moves tapped on the board, 100 to 300 ms
apart, each recorded with its button, while the page polls the store five times a second (it
polls every 3 s when served; faster here, to meet the race more often). The page never says
"the match changed on another device" (no other device records), every tap counts, and the
stored moves are the moves tapped. The seconds per move are printed (-s shows them)."""

from __future__ import annotations

import random
import sys
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tablelog.dashboard.games import topitop
from tablelog.dashboard.record import Question, menu
from tablelog.domain.games import get_rules

from . import test_tap_board
from .conftest import answered

screen = test_tap_board.screen  # the fixture: a touch phone's page, then a desktop's

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MOVES = 50
POLL_MS = 200

# The board's scale: [x of 0, px per unit, y of 0, px per unit] in the page, as drawn now
# (null while plotly redraws it: its layout is then ahead of what the screen shows).
SCALE = """() => {
    const plot = document.querySelector('#record-board .js-plotly-plot');
    if (!plot || !plot._fullLayout || plot.classList.contains('dash-graph--pending')) return null;
    const xa = plot._fullLayout.xaxis, ya = plot._fullLayout.yaxis;
    const box = plot.getBoundingClientRect();
    const x0 = box.left + xa._offset + xa.l2p(0), y0 = box.top + ya._offset + ya.l2p(0);
    return [x0, box.left + xa._offset + xa.l2p(1) - x0, y0, box.top + ya._offset + ya.l2p(1) - y0];
}"""
# The picker offers to record this move (its words), and the button that records it.
READY = """(words) => {
    const ready = document.querySelector('#record-picker .record-ready');
    return ready !== null && ready.innerText.trim() === words
        && ready.parentElement.querySelector('button') !== null;
}"""
# Every text the message line shows, as it shows it.
HEAR = """() => {
    const line = document.querySelector('#record-message');
    window.said = [];
    new MutationObserver(() => window.said.push(line.innerText)).observe(
        line, {childList: true, subtree: true, characterData: true});
}"""


def moves_to_tap(count: int, seed: int) -> list[dict]:
    """A Topitop game of `count` legal moves, none passing and none winning (random, seeded)."""
    rules, rng = get_rules("topitop"), random.Random(seed)
    state, moves = rules.start(2, rules.options({}), {}), list[dict]()
    while len(moves) < count:
        legal = [
            m
            for m in rules.legal_moves(state)
            if "pass" not in m and rules.apply(state, m).winner is None
        ]
        move = rng.choice(legal)
        moves.append(move)
        state = rules.apply(state, move)
    return moves


def where(page, state, picks: list, value: str) -> tuple[float, float]:
    """Where the board, as the page shows it now, has the place of `value` for the question
    after `picks` (the page may show the question before)."""
    rules, names = get_rules("topitop"), ["Ann", "Ben"]
    seat = rules.to_move(state)[0]
    question = menu("topitop", rules, state, seat, picks, names)
    assert isinstance(question, Question)
    tap = next(
        t for t in topitop.taps(rules.encode(state), question, picks, names) if t.value == value
    )
    page.locator("#record-board").scroll_into_view_if_needed()  # a finger scrolls up to it
    x0, sx, y0, sy = page.wait_for_function(SCALE).json_value()
    return x0 + sx * tap.x, y0 + sy * tap.y


def touch(page, x: float, y: float) -> None:
    page.tapped = [x, y, page.evaluate(SCALE)]
    if page.touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def tap_moves(screen, served, moves: list[dict], seed: int) -> str:
    """Start a Topitop match and tap `moves` on the page as fast as a finger does (100-300 ms
    apart); the Record button is tapped once the page offers that move. Returns the match's
    id once the page shows the last move recorded."""
    rules, rng = get_rules("topitop"), random.Random(seed)
    match_id = str(served.recorder.start("topitop", ["Ann", "Ben"], {}, {}))
    screen.goto(f"{served.url}/record?match={match_id}")
    answered(screen, "#record-picker", 0)
    screen.wait_for_function(SCALE)
    screen.evaluate(HEAR)
    state = rules.start(2, rules.options({}), {})
    for move in moves:
        piece = topitop.piece(move)
        touch(screen, *where(screen, state, [], piece))
        screen.wait_for_timeout(rng.uniform(100, 300))
        touch(screen, *where(screen, state, [["piece", piece]], move["to"]))
        screen.wait_for_timeout(rng.uniform(100, 300))
        # The finger taps Record once the page offers this move (not the last one's button,
        # still shown while that move's answer is on its way).
        ready = f"{['Ann', 'Ben'][rules.to_move(state)[0]]} {rules.describe(move)}"
        try:
            screen.wait_for_function(READY, arg=ready)
        except PlaywrightTimeout:
            said = screen.evaluate("window.said")
            shown = screen.inner_text("#record-picker")
            read = screen.evaluate("window.tablelogBoard.last")
            shown += f"; tapped {screen.tapped}; read {read}"
            raise AssertionError(f"not offered: {ready}; shown: {shown!r}; said: {said}") from None
        record = screen.locator("#record-picker").get_by_role("button", name="Record this move")
        record.tap() if screen.touch else record.click()
        screen.wait_for_timeout(rng.uniform(100, 300))
        state = rules.apply(state, move)
    screen.wait_for_selector(f"#record-summary:has-text('move {len(moves)} ')")
    return match_id


def heard_only_the_moves(screen, served, match_id: str, moves: list[dict]) -> None:
    said = screen.evaluate("window.said")
    assert not any("another device" in line for line in said), said
    assert all(line == "" or line.startswith("recorded:") for line in said), said
    stored = served.recorder.export(match_id)["events"]
    assert [e["move"] for e in stored if e["type"] == "move"] == moves
    assert not screen.errors


def test_fifty_moves_tapped_fast_are_stored_as_tapped_and_nothing_is_said_falsely(
    serve, screen, monkeypatch
):
    served = serve()
    # The page's module, as the app has loaded it: its layout reads the poll's interval.
    monkeypatch.setattr(sys.modules["tablelog.dashboard.pages.record"], "POLL_MS", POLL_MS)
    moves = moves_to_tap(MOVES, seed=44)
    began = time.monotonic()
    match_id = tap_moves(screen, served, moves, seed=44)
    seconds = (time.monotonic() - began) / MOVES
    print(f"\n{screen.size_name}: 3 taps a move (2 on the board), {seconds:.2f} s a move")
    heard_only_the_moves(screen, served, match_id, moves)


SLOW_S = 3.2  # longer than the page's fixed waits for an answer were (1.5 s and 3 s)


def test_taps_on_a_slow_server_are_read_in_order_against_the_board_that_answers_them(
    serve, screen, monkeypatch
):
    """The lost tap of a loaded CI run, made certain: the server answers each board tap and
    each write more slowly than the page used to wait for it (taps were then read against the
    board they were meant to follow, and lost). Every tap counts, in its order."""
    served = serve()
    page_steps = sys.modules["tablelog.dashboard.record.steps"]
    page_actions = sys.modules["tablelog.dashboard.record.actions"]
    board_answer, write = page_steps.board_answer, page_actions.write

    def slow_board_answer(*args, **kwargs):
        time.sleep(SLOW_S)
        return board_answer(*args, **kwargs)

    def slow_write(*args, **kwargs):
        time.sleep(SLOW_S)
        return write(*args, **kwargs)

    monkeypatch.setattr(page_steps, "board_answer", slow_board_answer)
    monkeypatch.setattr(page_actions, "write", slow_write)
    moves = moves_to_tap(2, seed=7)
    match_id = tap_moves(screen, served, moves, seed=7)
    heard_only_the_moves(screen, served, match_id, moves)
