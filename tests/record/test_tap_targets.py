"""Every game's example match recorded on a touch phone (390x844) by tapping alone, in headless
Chromium: each answer that has a place on the board by a touch on the board, every other answer
and the Record button by a touch on its button. At every question the board asks, each tap
target (a ringed place, or an unringed place that answers why it is not legal) is at least 44x44
CSS px and no two overlap. The taps per move and seconds per move are recorded (written to
test-artifacts/tap-figures.json, and printed with -s), never asserted: they go to
benchmarks/RESULTS.md."""

from __future__ import annotations

import json
import time

import pytest

from tablelog.dashboard import games
from tablelog.dashboard.record import Question, menu

from .conftest import ARTIFACTS, answered
from .entering import picks_for
from .test_browser import example_moves
from .test_tap_board import NAMES, NOT_A_PLACE, ON_THE_BOARD, as_the_menus_say, begin, tap_board

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LEAST = 44  # CSS px, each way (WCAG 2.5.5)

# Every tap target on the board as drawn, with the number of answers it was drawn for:
# [trace, value, count, left, top, width, height].
TARGETS = """() => {
    const plot = document.querySelector('#record-board .js-plotly-plot');
    if (!plot || !plot.data) return [];
    const traces = plot.querySelectorAll('.scatterlayer .trace');
    const found = [];
    plot.data.forEach((trace, i) => {
        if (!['tap', 'tap-not'].includes(trace.name)) return;
        traces[i].querySelectorAll('.point').forEach((point, j) => {
            const [_key, value, count] = JSON.parse(trace.customdata[j]);
            const b = point.getBoundingClientRect();
            found.push([trace.name, JSON.stringify(value), count,
                        b.left, b.top, b.width, b.height]);
        });
    });
    return found;
}"""
# The board is drawn for `count` answers (its targets say so) and plotly is not redrawing it.
DRAWN_FOR = """(count) => {
    const plot = document.querySelector('#record-board .js-plotly-plot');
    if (!plot || !plot.data || plot.classList.contains('dash-graph--pending')) return false;
    const trace = plot.data.find(t => ['tap', 'tap-not'].includes(t.name));
    return !!trace && JSON.parse(trace.customdata[0])[2] === count;
}"""


def crowded(targets: list) -> list[str]:
    """What is wrong with the targets: any smaller than LEAST either way, any two overlapping
    (by more than half a pixel each way: a shared edge is no overlap)."""
    problems = []
    for name, value, _count, _left, _top, width, height in targets:
        if width < LEAST - 0.5 or height < LEAST - 0.5:
            problems.append(f"{name} {value}: {width:.0f}x{height:.0f} px")
    for i, (_n, one, _c, left, top, width, height) in enumerate(targets):
        for _m, other, _d, left2, top2, width2, height2 in targets[i + 1 :]:
            across = min(left + width, left2 + width2) - max(left, left2)
            down = min(top + height, top2 + height2) - max(top, top2)
            if across > 0.5 and down > 0.5:
                problems.append(f"{one} overlaps {other} ({across:.0f}x{down:.0f} px)")
    return problems


def touch_button(page, label: str) -> None:
    page.locator("#record-picker").get_by_role("button", name=label, exact=True).tap()


def enter_by_touch(page, recorder, match_id: str, move: dict, seen: list[str]) -> int:
    """Enter `move` by touch alone; every board asking a question is measured first (its
    problems go to `seen`). Returns the taps made, the Record button's included."""
    match = recorder.get(match_id)
    rules, state, seats = match.rules, match.state, list(match.seats)
    seat = rules.to_move(state)[0]
    picks = picks_for(match.game, rules, state, seat, move, seats)
    answered(page, "#record-picker", 0)
    for number, (key, value) in enumerate(picks):
        step = menu(match.game, rules, state, seat, picks[:number], seats)
        assert isinstance(step, Question), f"the move is complete before {key}"
        places = games.module(match.game).taps(rules.encode(state), step, picks[:number], seats)
        if places:  # the board asks it: measure its targets as drawn for this question
            page.wait_for_function(DRAWN_FOR, arg=number)
            seen += [f"{step.prompt} {p}" for p in crowded(page.evaluate(TARGETS))]
        if key.split(".")[-1] in ON_THE_BOARD[match.game] and value not in NOT_A_PLACE:
            tap_board(page, key, value, number)
        else:
            touch_button(page, next(o.label for o in step.options if o.value == value))
        answered(page, "#record-picker", number + 1)
    page.locator("#record-picker").get_by_role("button", name="Record this move").tap()
    page.wait_for_selector(f"#record-summary:has-text('move {len(match.moves) + 1} ')")
    return len(picks) + 1


@pytest.fixture
def touch_phone(browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.touch, page.size_name = True, "phone"
    yield page
    context.close()


@pytest.mark.parametrize("game", list(NAMES))
def test_a_match_tapped_on_a_phone_has_targets_of_44_px_that_never_overlap(
    game, serve, touch_phone, tmp_path
):
    served = serve()
    record, entries = example_moves(game)
    entries = as_the_menus_say(game, record, entries)
    match_id = begin(touch_phone, served, game, record)
    seen: list[str] = []
    taps, began = 0, time.monotonic()
    for entry in entries:
        taps += enter_by_touch(touch_phone, served.recorder, match_id, entry["move"], seen)
    seconds = time.monotonic() - began
    touch_phone.wait_for_selector("text=The game is over")
    figures = {"moves": len(entries), "taps": taps, "seconds": round(seconds, 1)}
    print(f"\n{game}: {taps / len(entries):.1f} taps a move, {seconds / len(entries):.1f} s a move")
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "tap-figures.json"
    known = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**known, game: figures}, indent=1))
    assert seen == []
    assert not touch_phone.errors
    stored = served.recorder.export(match_id)["events"]
    assert [e["move"] for e in stored if e["type"] == "move"] == [e["move"] for e in entries]
