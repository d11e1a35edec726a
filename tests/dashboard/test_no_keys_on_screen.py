"""Every dashboard page, at a phone's 390 px and a desktop's 1400 px in real headless Chromium,
reads in the games' own words: no declared key (a game's id such as `total-landscaping`, an
option's or a move's name such as `last_player_chooses` or `pick_up`, an event's class name),
no Python value (`False`, `None`) and no JSON brace anywhere in its text, the figures' text
included. The pages are those of a store holding matches of every game (a solitaire Topas
among them): the overview, the balance of each game, the players, a match of each game, the lab
and the Record page through each game's setup questions."""

from __future__ import annotations

import dataclasses
import re

import pytest

from tablelog.dashboard.app import create_app
from tablelog.dashboard.record import Question
from tablelog.dashboard.record import setup as setups
from tablelog.domain.games import GAMES, declarations
from tablelog.domain.games.declaring import json_key
from tablelog.simulation import make_plan, simulate
from tablelog.store import open_recorder
from tests.conftest import BROWSER_WAIT, open_page, serving

from .test_phone import settle

pytestmark = pytest.mark.browser

WIDTHS = (390, 1400)
EVENTS = ("MoveRecorded", "MoveUndone", "ResultClaimed", "DisputeRaised", "SheetRecorded")


def declared_keys() -> list[str]:
    """The names a person must not read: every game's id, every option's and move field's key
    that is not a plain word (it has an underscore or a hyphen), and the events' class names."""
    keys = set(GAMES) | set(EVENTS)
    for info in declarations().values():
        for cls in (info.options, *info.moves, *info.parts):
            keys |= {
                json_key(f) for f in dataclasses.fields(cls) if re.search(r"[_-]", json_key(f))
            }
    return sorted(keys)


KEYS = declared_keys()
PYTHON = re.compile(r"(?<![\w-])(True|False|None)(?![\w-])")
JSON = re.compile(r"[{}]|\"\w+\"\s*:")


def raw(text: str) -> list[str]:
    """What in `text` is not in a game's words: declared keys (whole, as written), Python's
    True/False/None, JSON braces and quoted keys."""
    found = [key for key in KEYS if re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", text)]
    return found + PYTHON.findall(text) + JSON.findall(text)


def test_the_scan_finds_what_the_issue_saw():
    """The scan itself: each text a person met on the screen in issue 44 is caught."""
    for seen in (
        "✕ last_player_chooses: False",
        "✕ expert: False",
        'record a {"reveal": [...]} move',
        "geoshapes · greedy-1, greedy-2 · ended",
        "total-landscaping for Ann, Ben",
    ):
        assert raw(seen), seen
    assert not raw("Topiary: standard rules, last player chooses; a1, looking south")


# Everything a person can read on the page: its text and the figures' (SVG) text.
SCREEN_TEXT = """() => [document.body.innerText,
    ...Array.from(document.querySelectorAll('svg text'), t => t.textContent)].join('\\n')"""


@pytest.fixture(scope="module")
def served(filled_store):
    path, eve = filled_store
    recorder = open_recorder(path)
    simulate(recorder, make_plan("topas", 1, seed=5, players=1), workers=1, progress=False)
    simulate(
        recorder,
        make_plan("geoshapes", 2, seed=7, players=2, bots="greedy", options={"half_board": True}),
        workers=1,
        progress=False,
    )
    matches: dict[str, str] = {}  # the first match of each game
    for started in recorder.started():
        matches.setdefault(started.game, str(started.originator_id))
    solo = next(s.originator_id for s in recorder.started("topas") if len(s.seats) == 1)
    recorder.close()
    with serving(create_app(path, refresh_every=None)) as url:
        yield {"url": url, "matches": {**matches, "topas-solo": str(solo), "eve": eve}}


@pytest.fixture(scope="module", params=WIDTHS)
def screen(browser, request):
    page = open_page(browser, request.param, 900)
    yield page
    page.close()


def pages(served) -> list[tuple[str, str]]:
    """(address, what shows once the page is drawn) of every page the scan reads."""
    found = [("/", "#overview-games .gtitle"), ("/players", "#players-ratings .gtitle")]
    found += [(f"/balance?game={game}", "#balance-components .gtitle") for game in sorted(GAMES)]
    found += [(f"/match?id={match}", "#match-log .ag-row") for match in served["matches"].values()]
    return [*found, ("/lab", "#lab-forest .gtitle"), ("/record", "#record-players")]


def read(screen, url: str, ready: str) -> str:
    screen.goto(url)
    screen.wait_for_selector(ready, timeout=BROWSER_WAIT, state="attached")
    settle(screen)
    return screen.evaluate(SCREEN_TEXT)


def test_no_page_shows_a_key_a_python_value_or_json(served, screen):
    seen = {}
    for path, ready in pages(served):
        text = read(screen, served["url"] + path, ready)
        if raw(text):
            seen[path] = sorted(set(raw(text)))
    assert seen == {}


@pytest.mark.parametrize("game", sorted(set(GAMES) - {"topiary"}))  # Topiary: tests/record
def test_the_record_pages_setup_says_each_answer_in_words(served, screen, game):
    """Each setup question answered with its first button: the chips repeat the question and
    the button's words, never the option's key or a Python value."""
    players = GAMES[game].min_players if GAMES[game].min_players > 1 else 2
    screen.goto(f"{served['url']}/record")
    screen.fill("#record-players", ", ".join(["Ann", "Ben", "Cy", "Di"][:players]))
    screen.locator("#record-start button", has_text=GAMES[game].name).first.click()
    answered(screen, 1)
    picks: list = []
    while isinstance(step := setups.menu(game, players, picks), Question):
        option = step.options[0]
        exactly = re.compile(rf"^\s*{re.escape(option.label)}\s*$")  # not a chip holding it
        screen.locator("#record-setup button.record-option").filter(has_text=exactly).click()
        picks.append([step.key, option.value])
        answered(screen, len(picks) + 1)
        text = screen.evaluate(SCREEN_TEXT)
        assert not raw(text), (raw(text), text)


def answered(screen, count: int) -> None:
    screen.wait_for_selector(
        f"#record-setup .record-answers[data-picks='{count}']", state="attached"
    )
