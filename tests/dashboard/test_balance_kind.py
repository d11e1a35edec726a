"""The Balance page's kind filter in headless Chromium: every match, only those logged move by
move, or only score sheets; the figures and the counts under the filters follow the choice.
And the match page of a score sheet: its scores, no board."""

from __future__ import annotations

import pytest

from tablelog.dashboard.app import create_app
from tablelog.simulation import make_plan, simulate
from tablelog.store import open_recorder
from tests.conftest import serving

from .test_browser import WAIT, shot, wait_for_title

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """Five Topitop matches played move by move, three logged from their sheets."""
    path = str(tmp_path_factory.mktemp("kinds") / "store.sqlite")
    recorder = open_recorder(path)
    simulate(recorder, make_plan("topitop", 5, seed=5), workers=1, progress=False)
    for winner in ("Ann", "Ben", "Ann"):
        recorder.start_sheet("topitop", ["Ann", "Ben"], {"winners": [winner]})
    recorder.close()
    with serving(create_app(path, refresh_every=None)) as url:
        yield {"url": url, "store": path}


def seat_counts(page) -> list[str]:
    return page.evaluate(
        "Array.from(document.querySelector('#balance-seats .js-plotly-plot').data[0].text)"
    )


def test_the_kind_filter_changes_the_figures_and_says_how_many_of_each(served, page):
    page.goto(served["url"] + "/balance")
    wait_for_title(page, "balance-seats", "Win rate by seat")
    page.wait_for_selector(
        "#balance-summary:has-text('5 logged move by move, 3 score sheets')", timeout=WAIT
    )
    assert seat_counts(page) == ["n=8", "n=8"]
    page.locator("#balance-kind").get_by_text("sheets only", exact=True).click()
    page.wait_for_selector(
        "#balance-summary:has-text('0 logged move by move, 3 score sheets')", timeout=WAIT
    )
    page.wait_for_function(
        "document.querySelector('#balance-seats .js-plotly-plot').data[0].text[0] === 'n=3'",
        timeout=WAIT,
    )
    shot(page, "balance-sheets-only")
    page.locator("#balance-kind").get_by_text("moves logged", exact=True).click()
    page.wait_for_function(
        "document.querySelector('#balance-seats .js-plotly-plot').data[0].text[0] === 'n=5'",
        timeout=WAIT,
    )
    assert "5 logged move by move, 0 score sheets" in page.inner_text("#balance-summary")
    assert page.errors == []


def test_the_match_page_shows_a_score_sheet_without_a_board(served, page):
    recorder = open_recorder(served["store"])
    sheet_id = next(
        s.originator_id for s in recorder.started() if getattr(s, "kind", None) == "sheet"
    )
    recorder.close()
    page.goto(f"{served['url']}/match?id={sheet_id}")
    wait_for_title(page, "match-score", "score sheet")
    page.wait_for_function(
        "document.querySelector('.step-caption')?.innerText.startsWith('Step 1')", timeout=WAIT
    )
    assert "no board" in page.inner_text("#match-board")
    assert page.errors == []
    shot(page, "match-sheet")
