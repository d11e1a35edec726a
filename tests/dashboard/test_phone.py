"""Every page at a phone's 390x844 and a desktop's 1400x1000 in real headless Chromium: nothing
wider than the screen, figures within their cards, no mode bar over a figure's title, no grid
cell or header cut off ("Clai..."), and a screenshot of each for a person to look at
(test-artifacts/, gitignored). Then what a phone user met on the Match page: a prefix in the
address, an id that names no match, the solitaire score and the event log's words."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import pytest

from tablelog.dashboard.app import create_app
from tablelog.domain.match import start_match
from tablelog.simulate import make_plan, simulate
from tablelog.store import open_recorder
from tests.conftest import BROWSER_WAIT, open_page, serving

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SIZES = {"phone": (390, 844), "desktop": (1400, 1000)}
# Two matches whose ids share their first four digits: "abcd" names neither alone.
TWINS = ("abcd1111-0000-4000-8000-000000000000", "abcd2222-0000-4000-8000-000000000000")


@pytest.fixture(scope="module")
def served(filled_store):
    path, eve_match = filled_store
    recorder = open_recorder(path)
    simulate(recorder, make_plan("topas", 1, seed=5, players=1), workers=1, progress=False)
    solo = next(s.originator_id for s in recorder.started("topas") if len(s.seats) == 1)
    recorder.save_new([start_match(UUID(t), "topitop", ["Ann", "Ben"]) for t in TWINS])
    recorder.close()
    with serving(create_app(path, refresh_every=None)) as url:
        yield {"url": url, "eve": eve_match, "solo": str(solo)}


@pytest.fixture(params=list(SIZES), scope="module")
def size(request):
    return request.param


@pytest.fixture(scope="module")
def screen(browser, size):
    """One browser page of the size, for the module's tests of that size."""
    page = open_page(browser, *SIZES[size])
    yield page
    page.close()


def settle(page) -> None:
    """Wait until every figure on the page is drawn and no callback is running."""
    page.wait_for_function(
        """() => {
        const shown = Array.from(document.querySelectorAll('.dash-graph'))
            .filter(g => g.offsetParent !== null);
        return !document.querySelector('[data-dash-is-loading="true"], .dash-graph--pending')
            && shown.every(g => g.querySelector('.js-plotly-plot')?._fullLayout);
    }""",
        timeout=BROWSER_WAIT,
    )
    page.wait_for_timeout(500)  # a grid sizes its columns after its rows arrive


# What a person would see as broken, measured in the page: one line per problem.
PROBLEMS = """() => {
    const problems = [], box = e => e.getBoundingClientRect();
    const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom
                           && b.top < a.bottom && a.width > 0 && b.width > 0;
    if (document.documentElement.scrollWidth > innerWidth)
        problems.push(`page ${document.documentElement.scrollWidth} px wide in ${innerWidth}`);
    for (const graph of document.querySelectorAll('.dash-graph')) {
        const card = box(graph.parentElement), svg = graph.querySelector('.main-svg');
        if (svg && box(svg).right > card.right + 1)
            problems.push(`${graph.id} wider than its card`);
        const bar = graph.querySelector('.modebar');
        for (const title of graph.querySelectorAll('.gtitle, .gtitle-subtitle')) {
            if (bar && meet(box(bar), box(title)))
                problems.push(`${graph.id}: mode bar over "${title.textContent}"`);
            if (svg && box(title).right > box(svg).right + 1)
                problems.push(`${graph.id}: "${title.textContent}" cut off`);
        }
    }
    for (const grid of document.querySelectorAll('.ag-root-wrapper')) {
        const card = box(grid.closest('.card'));
        if (box(grid).right > card.right + 1) problems.push('a grid wider than its card');
        for (const cell of grid.querySelectorAll('.ag-header-cell-text, .ag-cell-value'))
            if (cell.scrollWidth > cell.clientWidth + 1)
                problems.push(`cut off: "${cell.textContent}"`);
    }
    for (const choice of document.querySelectorAll('.dash-dropdown-value-item'))
        if (choice.scrollWidth > choice.clientWidth + 1 && innerWidth > 1000)
            problems.push(`dropdown cut off: "${choice.textContent}"`);
    return problems;
}"""


def shot(page, name: str, size: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{size}-{name}.png"), full_page=True)


@pytest.mark.parametrize(
    ("name", "path", "ready"),
    [
        ("overview", "/", "#overview-games .gtitle"),
        ("balance", "/balance?game=topiary", "#balance-components .gtitle"),
        ("players", "/players", "#players-ratings .gtitle"),
        ("match", "/match?id={eve}", "#match-score .gtitle"),
        ("match-solo-topas", "/match?id={solo}", "#match-score .gtitle"),
        ("lab", "/lab", "#lab-forest .gtitle"),
        ("record", "/record", "#record-players"),
    ],
)
def test_every_page_fits_the_screen(served, screen, size, name, path, ready):
    screen.errors.clear()
    screen.goto(served["url"] + path.format(**served))
    screen.wait_for_selector(ready, timeout=BROWSER_WAIT)
    settle(screen)
    if screen.locator(".ag-root-wrapper").count():  # a grid is there: wait for its rows
        screen.wait_for_selector(".ag-row .ag-cell-value", timeout=BROWSER_WAIT)
        screen.wait_for_timeout(300)
    shot(screen, name, size)
    assert screen.evaluate(PROBLEMS) == []
    assert screen.errors == []


def test_a_prefix_in_the_address_opens_the_match(served, screen):
    screen.goto(f"{served['url']}/match?id={served['eve'][:6]}")
    screen.wait_for_function(
        "document.querySelector('#match-board .gtitle')?.textContent.includes('Topitop')",
        timeout=BROWSER_WAIT,
    )
    assert screen.locator("#match-notice").is_hidden()
    assert served["eve"][:8] in screen.locator("#match-pick").inner_text()


@pytest.mark.parametrize(
    ("wanted", "words"),
    [("ffff0000", "no match whose id starts with 'ffff0000'"), ("abcd", "2 matches have ids")],
)
def test_an_id_naming_no_single_match_says_so(served, screen, wanted, words):
    screen.goto(f"{served['url']}/match?id={wanted}")
    notice = screen.locator("#match-notice")
    notice.wait_for(state="visible", timeout=BROWSER_WAIT)
    assert words in notice.inner_text()
    # The figures say that nothing is shown, instead of drawing blank axes.
    for graph in ("#match-board", "#match-score"):
        screen.locator(graph, has_text="no match chosen").wait_for(timeout=BROWSER_WAIT)
    assert screen.locator("#match-log .ag-row").count() == 0


def test_the_event_log_speaks_words_and_names_its_columns(served, screen):
    screen.goto(f"{served['url']}/match?id={served['eve']}")
    screen.wait_for_selector("#match-log .ag-row", timeout=BROWSER_WAIT)
    screen.wait_for_timeout(300)
    log = screen.locator("#match-log")
    headers = log.locator(".ag-header-cell-text").all_inner_texts()
    assert all(h.strip() for h in headers)  # the flag column has a name too
    kinds = set(log.locator("[col-id=event] .ag-cell-value").all_inner_texts())
    assert {"start", "move", "undo", "claim", "dispute raised"} <= kinds
    text = screen.locator("body").inner_text()
    assert "MoveRecorded" not in text and "DisputeRaised" not in text
    assert "2 players" in screen.locator("#match-summary").inner_text()
