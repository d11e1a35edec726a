"""The Record page says every answer in the game's words, at a phone's width (390 px) and a
desktop's (1400 px): while a match is set up and a move entered, no declared key (an option's
name, a game's id) and no JSON brace is on the screen; each chip repeats its question and its
button's words."""

from __future__ import annotations

import re

import pytest

from tablelog.dashboard.record import Question
from tablelog.dashboard.record import setup as setups
from tablelog.domain.games import GAMES
from tests.conftest import open_page

from .conftest import answered, tap

pytestmark = [pytest.mark.browser]

# Every declared name a person must not read: the games' ids (as written: "Topiary" is the
# game's name, "topiary" its id) and their options' names that are not words ("small" is).
KEYS = sorted(
    set(GAMES) | {name for rules in GAMES.values() for name in rules.options({}) if "_" in name}
)


def raw(text: str) -> list[str]:
    """The declared keys and JSON braces in `text` (a key as a whole word, as written)."""
    found = [key for key in KEYS if re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", text)]
    return found + [brace for brace in "{}" if brace in text]


@pytest.mark.parametrize("width", [390, 1400])
def test_the_record_page_shows_no_key_and_no_json_while_a_match_is_set_up_and_entered(
    serve, browser, width
):
    served = serve()
    page = open_page(browser, width, 900)
    page.goto(f"{served.url}/record")
    page.fill("#record-players", "Ann, Ben")
    tap(page, "#record-start", "Topiary")
    answered(page, "#record-setup", 1)
    picks: list = []
    while isinstance(step := setups.menu("topiary", 2, picks), Question):
        option = step.options[0]
        tap(page, "#record-setup", option.label)
        picks.append([step.key, option.value])
        answered(page, "#record-setup", len(picks) + 1)
        text = page.locator("main").inner_text()
        assert not raw(text), (raw(text), text)
        assert f"{step.prompt} {option.label}" in text  # the chip, in the question's words
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_selector("#record-summary:has-text('move 0')")
    answered(page, "#record-picker", 0)
    page.locator("#record-picker button").nth(0).click()  # the first spot offered
    answered(page, "#record-picker", 1)
    text = page.locator("main").inner_text()
    assert not raw(text), (raw(text), text)
    assert "Where does the visitor stand?" in text
    assert not page.errors
    page.close()
