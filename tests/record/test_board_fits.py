"""The Record page's board on a phone (390x844), in headless Chromium, for every game: the page
never scrolls sideways, the whole board is on the screen and inside its own box (nothing of it,
its drag layer included, lies over the buttons below), a button below the board takes a tap,
and GeoShapes' board is legible: no label overlaps a slot or another label, none leaves the
board.
"""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.conftest import BROWSER_WAIT

from .conftest import answered
from .test_browser import example_moves
from .test_tap_board import NAMES, begin

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.set_default_timeout(BROWSER_WAIT)
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    yield page
    context.close()


# Where the board lies against the screen and its box, and what is under the first button.
MEASURE = """() => {
    const box = e => e.getBoundingClientRect();
    const button = document.querySelector('#record-picker button.record-option');
    button.scrollIntoView({block: 'center'});  // a point off the screen has no element
    const board = document.querySelector('#record-board');
    const svg = box(document.querySelector('#record-board .main-svg'));
    const drag = box(document.querySelector('#record-board .nsewdrag'));
    const b = box(button);
    const under = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    return {
        width: innerWidth, page: document.documentElement.scrollWidth,
        svg: [svg.left, svg.right, svg.bottom], drag: drag.bottom, box: box(board).bottom,
        button: b.top, reached: button.contains(under),
    };
}"""

# GeoShapes: every label against every slot (its box and its shape) and every other label.
CROWDED = """() => {
    const plot = document.querySelector('#record-board .js-plotly-plot');
    const box = e => e.getBoundingClientRect();
    const svg = box(plot.querySelector('.main-svg'));
    const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
                           && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    const slots = [];
    plot.layout.shapes.forEach((shape, i) => {
        if (shape.name.startsWith('glyph') || shape.name.split(':').length === 4)
            slots.push([shape.name, box(plot.querySelector(`.shapelayer [data-index="${i}"]`))]);
    });
    const labels = Array.from(plot.querySelectorAll('.annotation-text'))
        .map(t => [t.textContent, box(t)]);
    const problems = [];
    labels.forEach(([words, at], i) => {
        if (at.left < svg.left || at.right > svg.right)
            problems.push(`"${words}" leaves the board`);
        for (const [name, slot] of slots)
            if (meet(at, slot)) problems.push(`"${words}" over ${name}`);
        for (const [other, there] of labels.slice(i + 1))
            if (meet(at, there)) problems.push(`"${words}" over "${other}"`);
    });
    return problems;
}"""


@pytest.mark.parametrize("game", list(NAMES))
def test_the_board_fits_a_phone_and_leaves_the_buttons_free(game, serve, phone):
    served = serve()
    record, _moves = example_moves(game)
    begin(phone, served, game, record)
    answered(phone, "#record-picker", 0)
    phone.wait_for_selector("#record-board .main-svg")
    phone.wait_for_function(
        "!document.querySelector('#record-board .dash-graph--pending, [data-dash-is-loading]')"
    )
    # A board first drawn while its box was still hidden is laid out at plotly's default width
    # and resized a moment later by the responsive Graph: measure once that has settled (a
    # board that stays too wide still fails below, after the wait's timeout).
    with contextlib.suppress(PlaywrightTimeout):
        phone.wait_for_function(
            "document.querySelector('#record-board .main-svg').getBoundingClientRect().right"
            " <= window.innerWidth",
            timeout=10_000,
        )
    seen = phone.evaluate(MEASURE)
    assert seen["page"] <= seen["width"]  # no sideways scrolling
    left, right, bottom = seen["svg"]
    assert left >= 0 and right <= seen["width"]  # the whole board on the screen
    assert bottom <= seen["box"] + 1 and seen["drag"] <= seen["box"] + 1  # inside its box
    assert seen["box"] <= seen["button"] and seen["reached"]  # the button below is free
    if game == "geoshapes":
        assert phone.evaluate(CROWDED) == []
    phone.locator("#record-picker button.record-option").first.tap()
    answered(phone, "#record-picker", 1)  # the tap reached the button
    assert not phone.errors
