"""Every page at a phone's 390x844 and a desktop's 1400x1000 in real headless Chromium: nothing
wider than the screen, figures within their cards, no mode bar over a figure's title, no grid
cell or header cut off ("Clai..."), and a screenshot of each for a person to look at
(test-artifacts/, gitignored); axe-core finds no serious or critical fault on any of them.
Then what a phone user met on the Match page: a prefix in the address, an id that names no
match, the solitaire score and the event log's words."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import pytest

from tablelog.dashboard.app import create_app
from tablelog.domain.matches.match import start_match
from tablelog.simulation import make_plan, simulate
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
    # The games whose score charts have a legend (one played match each).
    first = {
        game: str(next(iter(recorder.started(game))).originator_id)
        for game in ("topiary", "total-landscaping", "geoshapes")
    }
    recorder.save_new([start_match(UUID(t), "topitop", ["Ann", "Ben"]) for t in TWINS])
    recorder.close()
    with serving(create_app(path, refresh_every=None)) as url:
        yield {"url": url, "eve": eve_match, "solo": str(solo), **first}


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
        // Every column shown lies inside the grid: none is left to scroll sideways to.
        for (const header of grid.querySelectorAll('.ag-header-cell'))
            if (box(header).width > 0 && box(header).right > box(grid).right + 1)
                problems.push(`column past the grid's edge: "${header.textContent.trim()}"`);
        // A header wraps between words only: each word sits on one line.
        for (const text of grid.querySelectorAll('.ag-header-cell-text')) {
            const node = text.firstChild, words = /[^ ]+/g;
            if (!node || node.nodeType !== Node.TEXT_NODE) continue;
            for (let m; (m = words.exec(node.data)); ) {
                const range = document.createRange();
                range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
                const tops = Array.from(range.getClientRects()).map(r => Math.round(r.top));
                const lines = new Set(tops);
                if (lines.size > 1) problems.push(`header word broken: "${m[0]}"`);
            }
        }
    }
    for (const choice of document.querySelectorAll('.dash-dropdown-value-item'))
        if (choice.scrollWidth > choice.clientWidth + 1 && innerWidth > 1000)
            problems.push(`dropdown cut off: "${choice.textContent}"`);
    return problems;
}"""


# Text in a figure that a person could not read: two labels over each other, a label under an
# error bar, or a label past the figure's edge. A label's box is its glyphs' box turned as the
# label is (a tick label at 45 degrees is a turned rectangle, not its upright bounding box),
# compared by the separating axis test, less half a pixel all round (touching is fine). On a
# board (every game's, on the Match pages) a label whose middle lies on a tile, a cell or a slot
# (the smallest drawn shape there) stays inside that shape's box, and a label on none meets
# none: "Polyhedron" ran over its Topiary tile on a phone.
FIGURE_TEXT = """() => {
    const problems = [];
    const corners = e => {
        const b = e.getBBox(), m = e.getScreenCTM(), s = 0.5;
        return [[b.x + s, b.y + s], [b.x + b.width - s, b.y + s],
                [b.x + b.width - s, b.y + b.height - s], [b.x + s, b.y + b.height - s]]
            .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
    };
    const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
                           && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    const apart = (p, q) => {  // a line separates the two convex quadrilaterals
        for (const poly of [p, q]) for (let i = 0; i < 4; i++) {
            const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % 4], n = [y1 - y2, x2 - x1];
            if (!n[0] && !n[1]) continue;
            const on = r => r.map(([x, y]) => x * n[0] + y * n[1]);
            const a = on(p), b = on(q);
            if (Math.max(...a) <= Math.min(...b) || Math.max(...b) <= Math.min(...a)) return true;
        }
        return false;
    };
    for (const plot of document.querySelectorAll('.js-plotly-plot')) {
        const id = plot.closest('.dash-graph').id;
        if (plot.offsetParent === null) continue;
        const edge = plot.getBoundingClientRect();
        const texts = Array.from(plot.querySelectorAll('svg text'))
            .filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0)
            .map(t => ({name: t.textContent.trim(), at: corners(t),
                        box: t.getBoundingClientRect()}));
        const tiles = Array.from(plot.querySelectorAll('.shapelayer path'))
            .map(e => e.getBoundingClientRect()).filter(b => b.width > 0 && b.height > 0);
        for (const t of texts) {
            const x = (t.box.left + t.box.right) / 2, y = (t.box.top + t.box.bottom) / 2;
            const holds = b => b.left <= x && x <= b.right && b.top <= y && y <= b.bottom;
            const under = tiles.filter(holds)
                .sort((a, b) => a.width * a.height - b.width * b.height)[0];
            if (!under && tiles.some(b => meet(t.box, b)))  // a garden's name over its tiles
                problems.push(`${id}: "${t.name}" runs over a tile`);
            if (under && (t.box.left < under.left - 0.5 || t.box.right > under.right + 0.5
                          || t.box.top < under.top - 0.5 || t.box.bottom > under.bottom + 0.5))
                problems.push(`${id}: "${t.name}" runs outside its tile`
                              + ` (${Math.round(t.box.width)} px in ${Math.round(under.width)})`);
        }
        const bars = Array.from(plot.querySelectorAll('.errorbar path'))
            .filter(e => e.getBoundingClientRect().height > 0).map(e => corners(e));
        texts.forEach((t, i) => {
            if (t.box.left < edge.left - 1 || t.box.right > edge.right + 1
                || t.box.top < edge.top - 1 || t.box.bottom > edge.bottom + 1)
                problems.push(`${id}: "${t.name}" past the figure's edge`);
            for (const u of texts.slice(i + 1))
                if (!apart(t.at, u.at)) problems.push(`${id}: "${t.name}" over "${u.name}"`);
            if (bars.some(b => !apart(t.at, b))) problems.push(`${id}: error bar over "${t.name}"`);
        });
    }
    return problems;
}"""


def accessibility_findings(page) -> list[str]:
    """axe-core's serious and critical findings on the page, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def shot(page, name: str, size: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{size}-{name}.png"), full_page=True)


@pytest.mark.parametrize(
    ("name", "path", "ready"),
    [
        ("overview", "/", "#overview-games .gtitle"),
        ("balance", "/balance?game=topiary", "#balance-components .gtitle"),
        ("balance-geoshapes", "/balance?game=geoshapes", "#balance-components .gtitle"),
        ("players", "/players", "#players-ratings .gtitle"),
        ("match", "/match?id={eve}", "#match-score .gtitle"),
        ("match-solo-topas", "/match?id={solo}", "#match-score .gtitle"),
        ("match-topiary", "/match?id={topiary}", "#match-score .gtitle"),
        ("match-total-landscaping", "/match?id={total-landscaping}", "#match-score .gtitle"),
        ("match-geoshapes", "/match?id={geoshapes}", "#match-score .gtitle"),
        ("lab", "/lab", "#lab-forest .gtitle"),
        ("record", "/record", "#record-players"),
    ],
)
def test_every_page_fits_the_screen(served, screen, size, name, path, ready):
    screen.errors.clear()
    screen.warnings.clear()
    screen.goto(served["url"] + path.format(**served))
    screen.wait_for_selector(ready, timeout=BROWSER_WAIT)
    settle(screen)
    if screen.locator(".ag-root-wrapper").count():  # a grid is there: wait for its rows
        screen.wait_for_selector(".ag-row .ag-cell-value", timeout=BROWSER_WAIT)
        screen.wait_for_timeout(300)
    shot(screen, name, size)
    assert screen.evaluate(PROBLEMS) == []
    assert screen.evaluate(FIGURE_TEXT) == []
    assert accessibility_findings(screen) == []
    assert screen.errors == []
    assert [w for w in screen.warnings if "AG Grid" in w] == []


@pytest.mark.parametrize(
    ("path", "grid", "phone_headers"),
    [
        ("/", "#overview-recent", ["Match", "Game", "Status", "Won"]),
        ("/match?id={eve}", "#match-log", ["Step", "Event", "Who", "What"]),
        ("/players", "#players-table", ["Player", "Rating", "mu", "sigma"]),
    ],
)
def test_a_table_on_a_phone_shows_its_main_columns_first(
    served, screen, size, path, grid, phone_headers
):
    screen.goto(served["url"] + path.format(**served))
    screen.wait_for_selector(f"{grid} .ag-row .ag-cell-value", timeout=BROWSER_WAIT)
    screen.wait_for_timeout(300)
    headers = [h.strip() for h in screen.locator(f"{grid} .ag-header-cell-text").all_inner_texts()]
    if size == "phone":
        assert headers == phone_headers
    else:  # the desktop keeps every column, in the page's own order
        assert set(phone_headers) < set(headers) and len(headers) > len(phone_headers)


def test_the_first_link_on_a_phone_opens_its_match(served, screen, size):
    screen.goto(served["url"] + "/")
    link = screen.locator("#overview-recent .ag-row a").first
    link.wait_for(timeout=BROWSER_WAIT)
    target = link.get_attribute("href")
    link.click()
    screen.wait_for_url(f"**{target}", timeout=BROWSER_WAIT)
    screen.wait_for_selector("#match-board .gtitle", timeout=BROWSER_WAIT)
    assert screen.locator("#match-notice").is_hidden()


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
