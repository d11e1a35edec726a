"""Dash's own controls, mended for screen readers and keyboards (dashboard/accessible.py), in
real headless Chromium: a dropdown is one tab stop that opens from the keyboard, a group of
radio buttons is named by its label and moves with the arrow keys, and the replay slider's
handle has a name. (The page-wide axe-core check is tests/dashboard/test_phone.py's.)"""

from __future__ import annotations

import pytest

from tablelog.dashboard.app import create_app
from tests.conftest import BROWSER_WAIT, open_page, serving

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(filled_store):
    path, match = filled_store
    with serving(create_app(path, refresh_every=None)) as url:
        yield {"url": url, "match": match}


@pytest.fixture
def page(browser):
    page = open_page(browser, 1400, 1000)
    yield page
    page.close()


def focused(page) -> str:
    """What has the keyboard's focus: the element's tag, class and accessible-name source."""
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return [e.tagName, e.className, e.getAttribute('aria-labelledby') || ''].join('|'); }"
    )


def test_a_dropdown_is_one_tab_stop_and_opens_from_the_keyboard(served, page):
    page.goto(served["url"] + "/balance?game=topiary")
    page.wait_for_selector("#balance-components .gtitle", timeout=BROWSER_WAIT)
    stops = []
    for _ in range(12):
        page.keyboard.press("Tab")
        stops.append(focused(page))
        if stops[-1].startswith("BUTTON|dash-dropdown"):
            break
    assert stops[-1].startswith("BUTTON|dash-dropdown"), stops
    # The hidden stand-in that held the stop (and handed it on) is out of the tab order.
    stand_ins = page.locator(".dash-dropdown-focus-target")
    assert stand_ins.count() >= 2
    assert {stand_ins.nth(i).get_attribute("tabindex") for i in range(stand_ins.count())} == {"-1"}
    page.keyboard.press("ArrowDown")
    page.wait_for_selector(".dash-dropdown-content [role=option]", timeout=BROWSER_WAIT)
    page.keyboard.press("Escape")


def test_radio_buttons_are_a_named_group_that_the_arrow_keys_move(served, page):
    page.goto(served["url"] + "/balance?game=topiary")
    page.wait_for_selector("#balance-components .gtitle", timeout=BROWSER_WAIT)
    group = page.locator("#balance-kind")
    page.wait_for_function(
        "document.querySelector('#balance-kind').getAttribute('role') === 'radiogroup'"
    )
    named_by = group.get_attribute("aria-labelledby")
    assert named_by and page.text_content(f"#{named_by}") == "Matches"
    assert page.locator("#balance-kind [role=option]").count() == 0  # no control inside a control
    radios = page.locator("#balance-kind input[type=radio]")
    radios.first.focus()
    assert radios.first.is_checked()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "!document.querySelectorAll('#balance-kind input[type=radio]')[0].checked"
    )
    assert radios.nth(1).is_checked()


def test_the_replay_slider_has_a_name(served, page):
    page.goto(f"{served['url']}/match?id={served['match']}")
    thumb = page.locator("#match-step [role=slider]")
    thumb.wait_for(timeout=BROWSER_WAIT)
    page.wait_for_function(
        "document.querySelector('#match-step [role=slider]').hasAttribute('aria-label')"
    )
    assert thumb.get_attribute("aria-label") == "step of the replay"
