"""The Lab page in real headless Chromium: a stored skill experiment shows its forest plot, its
skill trace and its findings; another game shows that it has none; an experiment started from
the page shows its progress, is stored, and is then shown; a variant experiment's arms are set
with pickers from the game's declaration, never JSON. Screenshots go to test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tablelog import lab
from tablelog.access import WritePolicy
from tablelog.cli.serve import build_app
from tablelog.lab.run import run
from tablelog.store import open_recorder
from tests.conftest import BROWSER_WAIT, open_page, serving

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT = BROWSER_WAIT  # ms (tests/conftest.py)


@contextmanager
def _lab_with_a_skill_experiment(folder: Path) -> Iterator[str]:
    path = str(folder / "store.sqlite")
    recorder = open_recorder(path)
    run(recorder, lab.skill("topitop", [1, 2, 4], matches=4, seed=1))
    recorder.close()
    with serving(build_app(path, WritePolicy.for_bind("127.0.0.1"), refresh=0.5)) as url:
        yield url


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A lab the tests only read: its newest experiment stays the skill experiment."""
    with _lab_with_a_skill_experiment(tmp_path_factory.mktemp("lab")) as url:
        yield url


@pytest.fixture
def own_lab(tmp_path):
    """A lab of the test's own, for a test that starts an experiment (the page shows the
    newest, which the reading tests must not see change under them, in any order)."""
    with _lab_with_a_skill_experiment(tmp_path) as url:
        yield url


@pytest.fixture
def page(browser):
    page = open_page(browser, 1280, 1000)
    yield page
    page.close()


def plot(page, graph_id: str) -> dict | None:
    return page.evaluate(
        """id => {
        const plot = document.querySelector('#' + id + ' .js-plotly-plot');
        if (!plot || !plot._fullLayout) return null;
        return {traces: plot.data.length, title: (plot.layout.title || {}).text || '',
                x: plot.data.map(t => Array.from(t.x || []).map(Number))};
    }""",
        graph_id,
    )


def wait_for_traces(page, graph_id: str, at_least: int) -> None:
    page.wait_for_function(
        """([id, n]) => {
        const plot = document.querySelector('#' + id + ' .js-plotly-plot');
        return plot && plot.data && plot.data.length >= n;
    }""",
        arg=[graph_id, at_least],
        timeout=WAIT,
    )


def test_a_stored_skill_experiment_is_shown(served, page):
    page.goto(served + "/lab")
    wait_for_traces(page, "lab-skill", 2)
    skill = plot(page, "lab-skill")
    assert skill is not None, "the skill plot is drawn"
    assert skill["x"][1] == [2, 4]  # the stronger budget of each doubling
    wait_for_traces(page, "lab-forest", 2)
    forest = plot(page, "lab-forest")
    assert forest is not None, "the forest plot is drawn"
    assert forest["traces"] >= 2 * 10  # two arms, ten metrics or more
    assert "stronger won" in page.inner_text("#lab-words")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard-lab.png"), full_page=True)
    page.click("#lab-game")
    page.locator(".dash-dropdown-option", has_text="topiary").click()
    page.wait_for_function(
        "document.querySelector('#lab-words').innerText.includes('No experiment for this game')",
        timeout=WAIT,
    )
    assert page.errors == []


def test_humans_against_bots_from_the_recorded_matches(served, page):
    page.goto(served + "/lab")
    wait_for_traces(page, "lab-skill", 2)
    page.click("#lab-experiment")
    page.locator(".dash-dropdown-option", has_text="humans against bots").click()
    page.wait_for_function(
        "document.querySelector('#lab-words').innerText.includes('recorded human matches beside')",
        timeout=WAIT,
    )
    assert "0 recorded human matches" in page.inner_text("#lab-words")  # bots only here
    wait_for_traces(page, "lab-forest", 10)  # the bots' arm is drawn
    assert page.errors == []


def opened(page, dropdown: str) -> None:
    """Open a dropdown scrolled to the middle of the window first, so its list of options has
    room below it (once, near the window's foot, the list opened out of view: Playwright
    scrolled and waited a minute for it)."""
    page.locator(dropdown).evaluate("e => e.scrollIntoView({block: 'center'})")
    page.click(dropdown)


def test_an_experiment_started_from_the_page_is_stored_and_shown(own_lab, page):
    page.goto(own_lab + "/lab")
    wait_for_traces(page, "lab-skill", 2)
    opened(page, "#lab-kind")
    page.locator(".dash-dropdown-option", has_text="restricted play").click()
    page.fill("#lab-matches", "4")
    page.click("#lab-start")
    page.wait_for_function(
        "document.querySelector('#lab-progress').innerText.includes('Done')", timeout=WAIT
    )
    wait_for_traces(page, "lab-h2h", 1)
    assert "never places a sand pile" in page.inner_text("#lab-words")
    page.screenshot(path=str(ARTIFACTS / "dashboard-lab-started.png"), full_page=True)
    assert page.errors == []


def test_a_variant_experiment_is_set_with_pickers_from_the_declaration(own_lab, page):
    page.goto(own_lab + "/lab")
    # Topitop declares two counts: one picker each for each arm, at the standard 4, no JSON.
    pickers = page.locator("#lab-arms .control")
    pickers.nth(3).wait_for(timeout=WAIT)
    labels = pickers.locator("label").all_text_contents()
    assert labels == [
        "Variant A: How many small sand piles?",
        "Variant A: How many large sand piles?",
        "Variant B: How many small sand piles?",
        "Variant B: How many large sand piles?",
    ]
    assert page.locator("#lab-arms").inner_text().count("4 (standard)") == 4
    assert "JSON" not in page.inner_text("body")
    opened(page, "#lab-kind")
    # Clicked as the option's own event: twice in a rehearsal the list opened out of view and
    # Playwright's pointer click waited a minute for it (the pick is what is tested here).
    variant = page.locator(".dash-dropdown-option", has_text="variant against variant")
    variant.dispatch_event("click")
    pickers.nth(2).evaluate("e => e.scrollIntoView({block: 'center'})")
    pickers.nth(2).click()  # Variant B: 3 small sand piles (its list opened out of view once)
    page.locator(".dash-dropdown-option", has_text="3").first.dispatch_event("click")
    page.fill("#lab-matches", "4")
    before = page.inner_text("#lab-progress")  # the lab's last run may still be reported
    page.click("#lab-start")
    page.wait_for_function(
        """before => {
        const said = document.querySelector('#lab-progress').innerText;
        return said.includes('Done') && said !== before;
    }""",
        arg=before,
        timeout=WAIT,
    )
    # The stored experiment's arms: A at the standard 4 and 4, B with 3 small piles.
    stored = page.request.get(own_lab + "/api/v1/lab/experiments?game=topitop").json()
    (variant,) = [e for e in stored["experiments"] if e["kind"] == "variants"]
    a, b = (arm["options"] for arm in variant["definition"]["arms"])
    assert (a["small"], a["large"], b["small"], b["large"]) == (4, 4, 3, 4)
    assert page.errors == []
