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

from tablelog.dashboard.games import topitop
from tablelog.dashboard.record import Question, menu
from tablelog.domain.games import get_rules

from . import test_tap_board
from .conftest import answered

screen = test_tap_board.screen  # the fixture: a touch phone's page, then a desktop's

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MOVES = 50
POLL_MS = 200

# The board's scale: [x of 0, px per unit, y of 0, px per unit] in the page, as it is now.
SCALE = """() => {
    const plot = document.querySelector('#record-board .js-plotly-plot');
    if (!plot || !plot._fullLayout) return null;
    const xa = plot._fullLayout.xaxis, ya = plot._fullLayout.yaxis;
    const box = plot.getBoundingClientRect();
    const x0 = box.left + xa._offset + xa.l2p(0), y0 = box.top + ya._offset + ya.l2p(0);
    return [x0, box.left + xa._offset + xa.l2p(1) - x0, y0, box.top + ya._offset + ya.l2p(1) - y0];
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
    x0, sx, y0, sy = page.evaluate(SCALE)
    return x0 + sx * tap.x, y0 + sy * tap.y


def touch(page, x: float, y: float) -> None:
    if page.touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


@pytest.mark.xfail(
    strict=False,
    reason="in CI (random order, loaded cores) a phone tap was once lost: the Record button "
    "never came (issue 44, open: to be found)",
)
def test_fifty_moves_tapped_fast_are_stored_as_tapped_and_nothing_is_said_falsely(
    serve, screen, monkeypatch
):
    served, rules, rng = serve(), get_rules("topitop"), random.Random(44)
    # The page's module, as the app has loaded it: its layout reads the poll's interval.
    monkeypatch.setattr(sys.modules["tablelog.dashboard.pages.record"], "POLL_MS", POLL_MS)
    match_id = str(served.recorder.start("topitop", ["Ann", "Ben"], {}, {}))
    screen.goto(f"{served.url}/record?match={match_id}")
    answered(screen, "#record-picker", 0)
    screen.wait_for_function(SCALE)
    screen.evaluate(HEAR)
    moves = moves_to_tap(MOVES, seed=44)
    state, began = rules.start(2, rules.options({}), {}), time.monotonic()
    for move in moves:
        piece = topitop.piece(move)
        touch(screen, *where(screen, state, [], piece))
        screen.wait_for_timeout(rng.uniform(100, 300))
        touch(screen, *where(screen, state, [["piece", piece]], move["to"]))
        screen.wait_for_timeout(rng.uniform(100, 300))
        record = screen.get_by_role("button", name="Record this move")
        record.tap() if screen.touch else record.click()
        screen.wait_for_timeout(rng.uniform(100, 300))
        state = rules.apply(state, move)
    screen.wait_for_selector(f"#record-summary:has-text('move {MOVES} ')")
    seconds = (time.monotonic() - began) / MOVES
    print(f"\n{screen.size_name}: 3 taps a move (2 on the board), {seconds:.2f} s a move")
    said = screen.evaluate("window.said")
    assert not any("another device" in line for line in said), said
    assert all(line == "" or line.startswith("recorded:") for line in said), said
    stored = served.recorder.export(match_id)["events"]
    assert [e["move"] for e in stored if e["type"] == "move"] == moves
    assert not screen.errors
