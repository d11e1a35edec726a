"""Every game's example match recorded on a touch phone (390x844) by tapping alone, in headless
Chromium: each answer that has a place on the board by a touch on the board, every other answer
and the Record button by a touch on its button; the stored events must equal those of the same
game entered at the command line, and the board fits the width (its third column is not cut
off, the page never scrolls sideways). At every question the board asks, each tap target (a
ringed place, or an unringed place that answers why it is not legal) is at least 44x44 CSS px
and no two overlap; on GeoShapes' board each lies inside its own quadrant's box. The taps
per move and seconds per move are recorded (written to test-artifacts/tap-figures.json, and
printed with -s), never asserted: they go to benchmarks/RESULTS.md. GeoShapes' example is
played on the whole board, where each player's places lie in one quadrant (drawn alone when
asked); a match on the half board (two quadrants each) asks places of two quadrants on the
whole board, so its first moves are tapped too."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

import pytest

from tablelog.dashboard import games
from tablelog.dashboard.record import Question, menu
from tablelog.simulation import make_plan, simulate
from tablelog.store import open_recorder

from .conftest import ARTIFACTS, answered
from .entering import picks_for
from .test_browser import example_moves, logged
from .test_tap_board import (
    NAMES,
    NOT_A_PLACE,
    ON_THE_BOARD,
    as_the_menus_say,
    begin,
    by_the_command_line,
    fits_the_width,
    shot,
    tap_board,
)
from .test_tap_board import touch_phone as phone_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LEAST = 44  # CSS px, each way (WCAG 2.5.5)

# Every tap target on the board as drawn, with the number of answers it was drawn for:
# [trace, value, count, left, top, width, height]; then GeoShapes' quadrant boxes (shapes named
# "quadrant ...") as [name, left, top, width, height], none on another game's board.
TARGETS = """() => {
    const plot = document.querySelector('#record-board .js-plotly-plot');
    if (!plot || !plot.data) return [[], []];
    const traces = plot.querySelectorAll('.scatterlayer .trace');
    const found = [], quadrants = [];
    (plot.layout.shapes || []).forEach((shape, i) => {
        if (!(shape.name || '').startsWith('quadrant ')) return;
        const b = plot.querySelector(`.shapelayer path[data-index="${i}"]`)
            .getBoundingClientRect();
        quadrants.push([shape.name, b.left, b.top, b.width, b.height]);
    });
    plot.data.forEach((trace, i) => {
        if (!['tap', 'tap-not'].includes(trace.name)) return;
        traces[i].querySelectorAll('.point').forEach((point, j) => {
            const [_key, value, count] = JSON.parse(trace.customdata[j]);
            const b = point.getBoundingClientRect();
            found.push([trace.name, JSON.stringify(value), count,
                        b.left, b.top, b.width, b.height]);
        });
    });
    return [found, quadrants];
}"""
# The board is drawn for `count` answers (its targets say so) and plotly is not redrawing it.
DRAWN_FOR = """(count) => {
    const plot = document.querySelector('#record-board .js-plotly-plot');
    if (!plot || !plot.data || plot.classList.contains('dash-graph--pending')) return false;
    const trace = plot.data.find(t => ['tap', 'tap-not'].includes(t.name));
    return !!trace && JSON.parse(trace.customdata[0])[2] === count;
}"""


def inside(box: list, quadrant: list) -> bool:
    """A box [left, top, width, height] within the quadrant's, half a pixel given."""
    (left, top, width, height), (q_left, q_top, q_width, q_height) = box, quadrant
    return (
        left >= q_left - 0.5
        and top >= q_top - 0.5
        and left + width <= q_left + q_width + 0.5
        and top + height <= q_top + q_height + 0.5
    )


def crowded(targets: list, quadrants: Sequence[list] = ()) -> list[str]:
    """What is wrong with the targets: any smaller than LEAST either way, any two overlapping
    (by more than half a pixel each way: a shared edge is no overlap), any not inside one of
    the `quadrants` where the board has them (a target across two quadrants' border)."""
    problems = []
    for name, value, _count, *box in targets if quadrants else ():
        if not any(inside(box, quadrant[1:]) for quadrant in quadrants):
            problems.append(f"{name} {value} lies across two quadrants or outside them")
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


def quadrants_asked(targets: list, quadrants: list) -> int:
    """How many quadrants hold a target (GeoShapes; 0 on a board without quadrants)."""
    return sum(any(inside(t[3:], q[1:]) for t in targets) for q in quadrants)


def enter_by_touch(
    page, recorder, match_id: str, move: dict, seen: list[str], spread: list | None = None
) -> int:
    """Enter `move` by touch alone; every board asking a question is measured first (its
    problems go to `seen`; the question's key and how many quadrants its targets lie in to
    `spread`). Returns
    the taps made, the Record button's included."""
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
            targets, quadrants = page.evaluate(TARGETS)
            seen += [f"{step.prompt} {p}" for p in crowded(targets, quadrants)]
            if spread is not None and len(targets) > 1:
                spread.append((key, quadrants_asked(targets, quadrants)))
        if key.split(".")[-1] in ON_THE_BOARD[match.game] and value not in NOT_A_PLACE:
            tap_board(page, key, value, number)
            page.on_board += 1
        else:
            touch_button(page, next(o.label for o in step.options if o.value == value))
        answered(page, "#record-picker", number + 1)
    page.locator("#record-picker").get_by_role("button", name="Record this move").tap()
    page.wait_for_selector(f"#record-summary:has-text('move {len(match.moves) + 1} ')")
    return len(picks) + 1


@pytest.fixture
def touch_phone(browser):
    with phone_page(browser) as page:
        yield page


@pytest.mark.parametrize("game", list(NAMES))
def test_a_game_tapped_on_a_phone_equals_the_command_line_and_its_targets_are_44_px_apart(
    game, serve, touch_phone, tmp_path
):
    served = serve()
    record, entries = example_moves(game)
    entries = as_the_menus_say(game, record, entries)
    cli_store, cli_id = by_the_command_line(tmp_path, game, record, entries)
    match_id = begin(touch_phone, served, game, record)
    fits_the_width(touch_phone)
    seen: list[str] = []
    taps, began = 0, time.monotonic()
    for number, entry in enumerate(entries):
        taps += enter_by_touch(touch_phone, served.recorder, match_id, entry["move"], seen)
        if number == 1:  # mid-game, the next question asked
            answered(touch_phone, "#record-picker", 0)
            fits_the_width(touch_phone)
            shot(touch_phone, f"{game}-phone")
    seconds = time.monotonic() - began
    touch_phone.wait_for_selector("text=The game is over")
    figures = {"moves": len(entries), "taps": taps, "seconds": round(seconds, 1)}
    print(f"\n{game}: {taps / len(entries):.1f} taps a move, {seconds / len(entries):.1f} s a move")
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "tap-figures.json"
    known = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**known, game: figures}, indent=1))
    assert seen == []
    assert touch_phone.on_board > 0  # (every answer with a place was tapped there: ON_THE_BOARD)
    assert not touch_phone.errors
    stored = served.recorder.export(match_id)["events"]
    assert [e["move"] for e in stored if e["type"] == "move"] == [e["move"] for e in entries]
    assert logged(served.recorder, match_id) == logged(open_recorder(cli_store), cli_id)


HALF_BOARD_MOVES = 12  # the first moves: places of both quadrants are asked from the second on


def half_board_match(tmp_path) -> tuple[dict, list[dict]]:
    """A GeoShapes match on the half board played by random bots (seeded): its record, as the
    examples are, and its moves."""
    recorder = open_recorder(str(tmp_path / "bots.sqlite"))
    plan = make_plan("geoshapes", 1, seed=3, players=2, options={"half_board": True})
    simulate(recorder, plan, workers=1, progress=False)
    record = recorder.export(str(next(iter(recorder.started("geoshapes"))).originator_id))
    recorder.close()
    return record, [e for e in record["events"] if e["type"] == "move"]


def test_geoshapes_on_the_half_board_has_each_target_in_its_own_quadrant(
    serve, touch_phone, tmp_path
):
    served = serve()
    record, entries = half_board_match(tmp_path)
    match_id = begin(touch_phone, served, "geoshapes", record)
    seen: list[str] = []
    spread: list[tuple[str, int]] = []
    for entry in entries[:HALF_BOARD_MOVES]:
        enter_by_touch(touch_phone, served.recorder, match_id, entry["move"], seen, spread)
    # Places of two quadrants were asked on the whole board (not one quadrant drawn alone).
    assert any(key == "on" and quadrants == 2 for key, quadrants in spread)
    assert seen == []
    assert not touch_phone.errors
