"""The dashboard in real headless Chromium (Playwright on /usr/bin/chromium): every page renders
without console errors, choosing a game changes the balance figures, the replay slider changes
the board, names are shown as typed, and a new match shows up without reloading. Screenshots go
to test-artifacts/ (gitignored) for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablelog.dashboard.app import create_app
from tablelog.simulation import make_plan, simulate
from tablelog.store import open_recorder
from tests.conftest import BROWSER_WAIT, serving

from .conftest import EVE

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT = BROWSER_WAIT  # ms (tests/conftest.py)


@pytest.fixture(scope="module")
def served(filled_store):
    path, eve_match = filled_store
    with serving(create_app(path, refresh_every=0.5)) as url:
        yield {"url": url, "store": path, "eve": eve_match}


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"dashboard-{name}.png"), full_page=True)


def figure(page, graph_id: str) -> dict:
    """The drawn figure of a dcc.Graph: trace count, shapes, title, x values of each trace."""
    return page.evaluate(
        """id => {
        const plot = document.querySelector('#' + id + ' .js-plotly-plot');
        if (!plot || !plot._fullLayout) return null;
        return {traces: plot.data.length, shapes: (plot.layout.shapes || []).length,
                title: (plot.layout.title || {}).text || '',
                x: plot.data.map(t => Array.from(t.x || []).map(String))};
    }""",
        graph_id,
    )


def wait_for_title(page, graph_id: str, words: str) -> None:
    page.wait_for_function(
        """([id, words]) => {
        const plot = document.querySelector('#' + id + ' .js-plotly-plot');
        return plot && plot.layout && plot.layout.title &&
               (plot.layout.title.text || '').includes(words);
    }""",
        arg=[graph_id, words],
        timeout=WAIT,
    )


def test_every_page_renders_without_console_errors(served, page):
    """... and draws its figures with the cartesian part of plotly.js the app serves; the full
    plotly.js (4.8 MB) is never fetched (dashboard/assets/README.md)."""
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url.split("?")[0]))
    checks = {
        "/": ("overview-games", "Matches by game"),
        "/balance": ("balance-seats", "Win rate by seat"),
        "/players": ("players-ratings", "Ratings over time"),
        f"/match?id={served['eve']}": ("match-board", "Topitop"),
    }
    for path, (graph_id, title) in checks.items():
        page.goto(served["url"] + path)
        wait_for_title(page, graph_id, title)
        page.wait_for_timeout(300)  # let the other callbacks of the page land
        shot(page, path.strip("/").split("?")[0] or "overview")
    assert page.errors == []
    scripts = [url.rsplit("/", 1)[-1] for url in fetched if url.endswith(".js")]
    assert "plotly-cartesian.min.js" in scripts
    assert not [name for name in scripts if name.startswith("plotly.min")], scripts


def test_choosing_a_game_changes_the_balance_figures(served, page):
    page.goto(served["url"] + "/balance")
    wait_for_title(page, "balance-seats", "Win rate by seat")
    page.wait_for_function(
        "document.querySelector('#balance-scores .js-plotly-plot')?.data?.length > 0", timeout=WAIT
    )
    before = figure(page, "balance-scores")
    assert "buckets on castles" in before["x"][0]  # Topitop has the most matches
    page.click("#balance-game")
    page.locator(".dash-dropdown-option", has_text="topiary").click()
    page.wait_for_function(
        """() => {
        const plot = document.querySelector('#balance-scores .js-plotly-plot');
        return plot && plot.data.length && Array.from(plot.data[0].x).includes('visitors');
    }""",
        timeout=WAIT,
    )
    after = figure(page, "balance-scores")
    assert after["x"][0] != before["x"][0]
    # Twelve Topiary matches: fewer than 30, so the win-rate bars are grey and say n=12.
    bars = page.evaluate("document.querySelector('#balance-seats .js-plotly-plot').data[0]")
    assert bars["text"] == ["n=12", "n=12"]
    assert set(bars["marker"]["color"]) == {"#c4c4c4"}
    assert page.errors == []
    shot(page, "balance-topiary")


def test_moving_the_replay_slider_changes_the_board(served, page):
    page.goto(f"{served['url']}/match?id={served['eve']}")
    wait_for_title(page, "match-board", "Topitop")
    page.wait_for_function(
        "document.querySelector('.step-caption').innerText.startsWith('Step 10')", timeout=WAIT
    )
    # At the end: nine cells and the pieces of six effective moves (every move places one).
    assert figure(page, "match-board")["shapes"] > 9
    page.locator("#match-step [role=slider]").focus()
    page.keyboard.press("Home")
    page.wait_for_function(
        "document.querySelector('.step-caption').innerText.startsWith('Step 0')", timeout=WAIT
    )
    page.wait_for_function(
        "document.querySelector('#match-board .js-plotly-plot').layout.shapes.length === 9",
        timeout=WAIT,
    )  # the empty board
    shot(page, "match-step-0")
    page.click("#match-forward")
    page.wait_for_function(
        "document.querySelector('#match-board .js-plotly-plot').layout.shapes.length === 10",
        timeout=WAIT,
    )  # one piece placed
    assert page.locator("#match-step [role=slider]").get_attribute("aria-valuenow") == "1"
    assert page.errors == []


def test_player_names_show_as_typed_never_as_markup(served, page):
    page.goto(f"{served['url']}/match?id={served['eve']}")
    wait_for_title(page, "match-board", "Topitop")
    page.wait_for_selector("#match-log .ag-row", timeout=WAIT)
    assert page.get_by_text(EVE, exact=True).count() > 0  # grid cells: the literal text
    title = page.locator("#match-board .gtitle").text_content()
    assert EVE in title  # the figure's title shows the tags as characters
    assert page.locator("#match-log b, #match-claims b").count() == 0
    assert page.errors == []


def test_a_new_match_appears_without_reloading(served, page):
    page.goto(served["url"] + "/")
    wait_for_title(page, "overview-games", "Matches by game")
    count = page.locator(".stat .value").first
    page.wait_for_function("document.querySelector('.stat .value').innerText !== ''")
    before = int(count.inner_text().replace(",", ""))
    simulate(
        open_recorder(served["store"]), make_plan("topitop", 1, seed=99), workers=1, progress=False
    )
    page.wait_for_function(
        f"document.querySelector('.stat .value').innerText.replace(',', '') === '{before + 1}'",
        timeout=WAIT,
    )
    assert page.errors == []
