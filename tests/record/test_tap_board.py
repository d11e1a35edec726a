"""Logging games by tapping the drawn board on the Record page, in headless Chromium, with a
desktop's mouse (1400x1000): each answer that has a place on the board is given by clicking
that place (a pile of the supply, a cell, a visitor's spot, a hex tile, a Topas cell, a
GeoShapes figure), the rest by the buttons; the stored events must equal those of the same moves
entered at the command line. Each game's example is clicked until every kind of place it has
was clicked once: the whole games, to their end, are tapped on a touch phone (390x844) in
test_tap_targets.py, which also measures the targets; a board drawn for the mouse at the desktop
width differs from the phone's in its size and its pointer, not in what it records. This
module's helpers and its `screen` fixture (a phone's page, then a desktop's) serve the other
tap tests. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tablelog.dashboard.record import Question, menu
from tablelog.domain.games import get_rules
from tablelog.store import open_recorder
from tests.conftest import BROWSER_WAIT, open_page

from .conftest import ARTIFACTS, answered, start_match, tap
from .entering import picks_for, setup_picks_for
from .test_browser import cli, cli_game, example_moves, logged

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = {"phone": (390, 844), "desktop": (1400, 1000)}

# Per game, the questions whose answers lie on the board: these must be tapped there (a
# missing tap target fails the test); any other answer is given by its button.
ON_THE_BOARD = {
    "topitop": {"piece", "to"},
    "topiary": {"stand", "visitor", "take"},
    "total-landscaping": {"garden", "tile", "spread", "recolour", "hoe"},
    "topas": {"area", "at", "dir"},
    "geoshapes": {"pick_up", "switch", "on", "from", "to"},
}
NOT_A_PLACE = ("", "pass", "__done__")  # answers that name no place: "visitor only", pass...

# The tap targets of the board as drawn: (trace index, point index) of the target whose pick
# is [key, value], drawn for `count` answers; null while the board shows another question.
FIND_TARGET = """([key, value, count]) => {
    const plot = document.querySelector('#record-board .js-plotly-plot');
    if (!plot || !plot.data) return null;
    const trace = plot.data.findIndex(t => t.name === 'tap');
    if (trace < 0) return null;
    const data = plot.data[trace].customdata.map(c => JSON.parse(c));
    if (data.length === 0 || data[0][2] !== count) return null;
    const want = JSON.stringify([key, value]);
    const point = data.findIndex(d => JSON.stringify([d[0], d[1]]) === want);
    return point < 0 ? [trace, -1] : [trace, point];
}"""


# The board is drawn: plotly is not redrawing it (a tap lands on what the screen shows).
DRAWN = "!document.querySelector('#record-board .dash-graph--pending')"


@pytest.fixture(params=list(SIZES))
def screen(request, browser):
    """A page of each size in turn, collecting console errors; the phone's is a touch screen
    (its taps are touches, as a finger's), the desktop's has a mouse."""
    if request.param == "desktop":
        page = open_page(browser, *SIZES["desktop"])
        page.touch, page.size_name = False, "desktop"
        yield page
        page.close()
        return
    with touch_phone(browser) as page:
        yield page


@contextmanager
def touch_phone(browser) -> Iterator:
    """A page of a touch phone (390x844) in its own browser context, collecting console and
    page errors; it counts the answers tapped on the board (`on_board`)."""
    width, height = SIZES["phone"]
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.set_default_timeout(BROWSER_WAIT)
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.touch, page.size_name, page.on_board = True, "phone", 0
    try:
        yield page
    finally:
        context.close()


def tap_board(page, key: str, value, count: int) -> None:
    """Tap the board's target for [key, value] where it is drawn, as a finger would."""
    page.wait_for_function(FIND_TARGET, arg=[key, value, count])
    page.wait_for_function(DRAWN)
    trace, point = page.evaluate(FIND_TARGET, [key, value, count])
    assert point >= 0, f"the board offers no place to tap for {key} = {value!r}"
    target = page.locator("#record-board .scatterlayer .trace").nth(trace).locator(".point")
    target.nth(point).scroll_into_view_if_needed()
    box = target.nth(point).bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # Tapped as soon as the board is drawn, with no rest between taps: the page reads a tap
    # from the pointer itself, so one made just after a redraw counts (it was lost at plotly's
    # click before: docs/record.md). The human pace is test_rapid_taps.py's.
    if page.touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def enter_by_tapping(page, recorder, match_id: str, move: dict) -> int:
    """Enter `move` on the page: the board for every answer it places, buttons for the rest.
    Returns how many answers were tapped on the board."""
    match = recorder.get(match_id)
    rules, state, seats = match.rules, match.state, list(match.seats)
    seat = rules.to_move(state)[0]
    picks = picks_for(match.game, rules, state, seat, move, seats)
    answered(page, "#record-picker", 0)
    on_board = 0
    for number, (key, value) in enumerate(picks):
        step = menu(match.game, rules, state, seat, picks[:number], seats)
        assert isinstance(step, Question), f"the move is complete before {key}"
        if key.split(".")[-1] in ON_THE_BOARD[match.game] and value not in NOT_A_PLACE:
            tap_board(page, key, value, number)
            on_board += 1
        else:
            label = next(o.label for o in step.options if o.value == value)
            tap(page, "#record-picker", label)
        answered(page, "#record-picker", number + 1)
    page.get_by_role("button", name="Record this move").click()
    page.wait_for_selector(f"#record-summary:has-text('move {len(match.moves) + 1} ')")
    return on_board


# The board is drawn at the screen's width: plotly first draws a graph whose box it has not
# measured yet at its own default (700x450), then again at the box's size.
SIZED = """() => {
    const svg = document.querySelector('#record-board .main-svg');
    return !!svg && svg.getBoundingClientRect().right <= window.innerWidth;
}"""


def fits_the_width(page) -> None:
    """No sideways scrolling, and the whole board (its tap targets too) inside the screen."""
    page.locator("#record-board .main-svg").first.wait_for()  # the board is drawn
    try:
        page.wait_for_function(SIZED, timeout=10_000)
    except PlaywrightTimeout:
        pass  # asserted below, with what it measures
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    board = page.locator("#record-board .main-svg").first.bounding_box()
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= width


def shot(page, name: str) -> None:
    """The screen with the board in view (a full-page shot resizes the window, and the board
    redraws itself to that size half way through)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#record-board").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"record-tap-{name}.png"))


def log_game(page, served, game: str, moves: list[dict], match_id: str) -> int:
    taps = 0
    for number, move in enumerate(moves):
        taps += enter_by_tapping(page, served.recorder, match_id, move)
        if number == min(1, len(moves) - 1):  # the next question asked (mid-game, if long)
            answered(page, "#record-picker", 0)
            fits_the_width(page)
            shot(page, f"{game}-{page.size_name}")
    return taps


NAMES = {
    "topitop": "Topitop",
    "topiary": "Topiary",
    "total-landscaping": "Total Landscaping",
    "topas": "Topas",
    "geoshapes": "GeoShapes",
}


def begin(page, served, game: str, record: dict) -> str:
    """Start the example's match on the page's start form; GeoShapes' example is played on a
    board the form does not offer (its first manifest), so it is started on another device
    (`tablelog new` into the server's store, entered by this person as the page's moves are)
    and opened here by a prefix of its id."""
    players = ", ".join(record["seats"])
    if game == "geoshapes":
        setup = Path(served.store).with_name("geoshapes-setup.json")
        started = cli(served.store, "new", *new_args(game, record, setup))
        page.goto(f"{served.url}/record?match={started[:8]}")
        page.wait_for_selector("#record-summary:has-text('move 0')")
        return started
    target = {"options": record.get("options") or {}, "setup": record.get("setup") or {}}
    picks = setup_picks_for(game, len(record["seats"]), target)
    start_match(page, served.url, game, NAMES[game], players, picks)
    return page.url.split("match=")[1]


def by_the_command_line(tmp_path, game: str, record: dict, entries: list[dict]):
    """The same game logged with `tablelog new` and `tablelog move`: its store and id."""
    cli_store = str(tmp_path / "cli.sqlite")
    new = new_args(game, record, tmp_path / "setup.json")
    seats = record["seats"]
    moves = [
        ["move", "ID", "--seat", e["seat"], json.dumps(typed(game, e["move"], seats))]
        for e in entries
    ]
    return cli_store, cli_game(cli_store, new, moves)


def new_args(game: str, record: dict, setup: Path) -> list[str]:
    """`tablelog new`'s arguments for the example's match (its setup written to `setup`)."""
    setup.write_text(json.dumps(record.get("setup") or {}))
    options = [
        arg
        for key, value in (record.get("options") or {}).items()
        for arg in ("--option", f"{key}={json.dumps(value) if isinstance(value, bool) else value}")
    ]
    return [game, "--players", ",".join(record["seats"]), "--setup", str(setup), *options]


def typed(game: str, move: dict, seats: list[str]) -> dict:
    """A move as a person types it at the command line, as the game shows it (GeoShapes names
    the other player where the record stores a seat number from 0)."""
    return get_rules(game).shown_move(move, seats)


def as_the_menus_say(game: str, record: dict, entries: list[dict]) -> list[dict]:
    """The example's moves as the page enters them: Total Landscaping's menus always name
    Yellow's spread when one exists, even in a round where the other's White negates it
    (docs/record.md, known limits), so such a round is entered with its first spread named;
    the engine accepts it and ignores the spread. Both loggings then enter the same moves."""
    if game != "total-landscaping":
        return entries
    rules = get_rules(game)
    options = rules.options(record.get("options") or {})
    state = rules.start(len(record["seats"]), options, record.get("setup") or {})
    said = []
    for entry in entries:
        move = entry["move"]
        for side, choice in move.items():
            if choice.get("card") == "Yellow" and "spread" not in choice:
                seat = ("east", "west").index(side)
                spreads = [c for c in rules.choices(state, seat) if c.items() >= choice.items()]
                move = {**move, side: spreads[0]}
        state = rules.apply(state, move)
        said.append({**entry, "move": move})
    return said


def every_place_clicked(game: str, record: dict, entries: list[dict]) -> int:
    """How many of the example's moves it takes to answer every kind of place on the board
    that the whole example answers (ON_THE_BOARD), at least once each."""
    rules = get_rules(game)
    options = rules.options(record.get("options") or {})
    state = rules.start(len(record["seats"]), options, record.get("setup") or {})
    wanted, answered, needed = ON_THE_BOARD[game], set[str](), 0
    for number, entry in enumerate(entries):
        seat = rules.to_move(state)[0]
        picks = picks_for(game, rules, state, seat, entry["move"], record["seats"])
        kinds = {key.split(".")[-1] for key, value in picks if value not in NOT_A_PLACE}
        if kinds & wanted - answered:
            answered |= kinds & wanted
            needed = number + 1
        state = rules.apply(state, entry["move"])
    return needed


@pytest.mark.parametrize("screen", ["desktop"], indirect=True)
@pytest.mark.parametrize("game", list(NAMES))
def test_every_kind_of_place_clicked_with_the_mouse_is_stored_as_the_command_line_stores_it(
    game, serve, screen, tmp_path
):
    served = serve()
    record, entries = example_moves(game)
    entries = as_the_menus_say(game, record, entries)
    entries = entries[: every_place_clicked(game, record, entries)]
    cli_store, cli_id = by_the_command_line(tmp_path, game, record, entries)
    match_id = begin(screen, served, game, record)
    fits_the_width(screen)
    taps = log_game(screen, served, game, [entry["move"] for entry in entries], match_id)
    assert taps > 0  # (every answer with a place on the board was clicked there: ON_THE_BOARD)
    assert not screen.errors
    assert logged(served.recorder, match_id) == logged(open_recorder(cli_store), cli_id)
