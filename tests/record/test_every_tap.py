"""Every tap on the Record page's board is answered, in headless Chromium on a touch phone
(390x844) and with a mouse (1400x1000): a ringed place enters its answer; a place the question
does not offer says why, in the engine's own words, and enters nothing; a tap beside every place
says where to tap. Nothing is stored by any of it."""

from __future__ import annotations

import pytest

from . import test_tap_board
from .conftest import answered

screen = test_tap_board.screen  # the fixture: a touch phone's page, then a desktop's

pytestmark = [pytest.mark.browser]

# The centre, in the page, of the board's place for [key, value] (ringed or not); null until
# the board is drawn for `count` answers.
PLACE = """([key, value, count]) => {
    const plot = document.querySelector('#record-board .js-plotly-plot');
    if (!plot || !plot.data || !plot._fullLayout) return null;
    const xa = plot._fullLayout.xaxis, ya = plot._fullLayout.yaxis;
    const box = plot.getBoundingClientRect();
    for (const trace of plot.data) {
        if (!['tap', 'tap-not'].includes(trace.name)) continue;
        for (let j = 0; j < trace.customdata.length; j++) {
            const [k, v, n] = JSON.parse(trace.customdata[j]);
            if (n !== count) return null;
            if (k === key && JSON.stringify(v) === JSON.stringify(value)) {
                return [box.left + xa._offset + xa.l2p(trace.x[j]),
                        box.top + ya._offset + ya.l2p(trace.y[j]), trace.name];
            }
        }
    }
    return null;
}"""
DRAWN = "!document.querySelector('#record-board .dash-graph--pending')"


def place(page, key: str, value, count: int) -> tuple[float, float, str]:
    page.wait_for_function(PLACE, arg=[key, value, count])
    page.wait_for_function(DRAWN)
    return page.evaluate(PLACE, [key, value, count])


def tap_at(page, x: float, y: float) -> None:
    if page.touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def message(page) -> str:
    return page.locator("#record-message").inner_text()


def test_every_tap_on_the_board_is_answered_and_a_wrong_one_says_why(serve, screen):
    served = serve()
    match_id = str(served.recorder.start("topitop", ["Ann", "Ben"], {}, {}))
    served.recorder.record(match_id, 0, {"place": "large", "to": "a1"})
    stored = served.recorder.version(match_id)
    screen.goto(f"{served.url}/record?match={match_id}")
    answered(screen, "#record-picker", 0)

    x, y, trace = place(screen, "piece", "supply:small", 0)
    assert trace == "tap"  # ringed: a small pile is Ben's to place
    tap_at(screen, x, y)
    answered(screen, "#record-picker", 1)

    x, y, trace = place(screen, "to", "a1", 1)
    assert trace == "tap-not"  # a1 holds Ann's large pile: not ringed
    tap_at(screen, x, y)
    screen.wait_for_function(
        "document.querySelector('#record-message').innerText.includes('a1 holds a large pile')"
    )
    assert "pieces are placed on empty cells only" in message(screen)
    answered(screen, "#record-picker", 1)  # nothing entered

    board = screen.locator("#record-board .main-svg").first.bounding_box()
    assert board is not None
    tap_at(screen, board["x"] + 6, board["y"] + 6)  # the corner of the title: no place
    screen.wait_for_function(
        "document.querySelector('#record-message').innerText.startsWith('Nothing to pick there')"
    )
    answered(screen, "#record-picker", 1)

    x, y, trace = place(screen, "to", "b2", 1)
    assert trace == "tap"
    tap_at(screen, x, y)
    answered(screen, "#record-picker", 2)
    assert message(screen).strip() == ""  # the refusal is gone once a legal place is tapped
    assert served.recorder.version(match_id) == stored  # nothing stored by any tap
    assert not screen.errors
