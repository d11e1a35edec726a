"""The Lab page's Tune section in real headless Chromium: a tiny study of Topiary started from the
pickers shows its progress, ends, and is drawn with Optuna's figures and its balance table, in
the game's words; a larger one is cancelled from the page and ends cancelled. Screenshots go to
test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tablelog.access import WritePolicy
from tablelog.cli.serve import build_app
from tests.conftest import BROWSER_WAIT, open_page, serving

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT = BROWSER_WAIT  # ms (tests/conftest.py)
RAW = re.compile(r"/values|last_player|True|False|[{}]|Distribution|Trial|Objective")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("tune") / "store.sqlite")
    with serving(build_app(path, WritePolicy.for_bind("127.0.0.1"), refresh=0.5)) as url:
        yield url


@pytest.fixture
def page(browser):
    page = open_page(browser, 1280, 1400)
    yield page
    page.close()


def pick(page, dropdown: str, text: str) -> None:
    page.click(f"#{dropdown}")
    page.locator(".dash-dropdown-option", has_text=text).first.click()


def wait_for_progress(page, words: str) -> None:
    page.wait_for_function(
        "w => document.querySelector('#tune-progress').innerText.includes(w)",
        arg=words,
        timeout=WAIT,
    )


def start_a_study(page) -> str:
    """Press Start; the study's short name, from the line that answers."""
    before = page.inner_text("#tune-progress")
    page.click("#tune-start")
    # The answer ("Started study …") may already be followed by the timer's line ("Study …").
    page.wait_for_function(
        "b => { const t = document.querySelector('#tune-progress').innerText;"
        " return t !== b && /^(Started study|Study) /.test(t); }",
        arg=before,
        timeout=WAIT,
    )
    started = re.match(r"(?:Started study|Study) (\w+)", page.inner_text("#tune-progress"))
    assert started, page.inner_text("#tune-progress")
    return started.group(1)


def traces(page, graph_id: str) -> int:
    return int(
        page.evaluate(
            """id => {
            const plot = document.querySelector('#' + id + ' .js-plotly-plot');
            return plot && plot.data ? plot.data.length : 0;
        }""",
            graph_id,
        )
    )


def a_small_topiary_study(page, candidates: str, matches: str) -> None:
    """Topiary between random bots at 2 players, from the section's pickers."""
    pick(page, "tune-game", "Topiary")
    page.wait_for_selector("#tune-players label:has-text('3 players')")
    for count in ("3 players", "4 players"):
        page.locator("#tune-players label", has_text=count).click()
    pick(page, "tune-bots", "random bots")
    pick(page, "tune-top", matches)
    pick(page, "tune-confirm", "50 matches")
    page.fill("#tune-trials", candidates)


def test_a_tiny_study_started_from_the_page_is_followed_and_drawn(served, page):
    page.goto(served + "/lab")
    a_small_topiary_study(page, "3", "16 matches")
    assert "tile value 5 (1 to 9)" in page.inner_text("#tune-vary")
    study = start_a_study(page)
    # The section opens on the last study here (the cancelled one, when that test ran first).
    wait_for_progress(page, f"Study {study} ended")
    assert re.search(r"ended: (confirmed|not confirmed)", page.inner_text("#tune-progress"))
    page.wait_for_function(
        "document.querySelector('#tune-words').innerText.includes('candidates played')",
        timeout=WAIT,
    )
    page.wait_for_function(
        "() => { const p = document.querySelector('#tune-history .js-plotly-plot');"
        " return p && p.data && p.data.length >= 2; }",
        timeout=WAIT,
    )
    assert traces(page, "tune-parallel") >= 1
    page.click("#tune-balance summary")
    table = page.inner_text("#tune-table")
    assert "seat 1" in table and "seat 2" in table and "pooled" in table
    shown = page.inner_text("#tune-words") + page.inner_text("#tune-table")
    assert not RAW.search(shown), RAW.search(shown)
    for graph_id in ("tune-history", "tune-importances", "tune-parallel", "tune-pareto"):
        drawn = page.evaluate("id => document.querySelector('#' + id).textContent", graph_id)
        assert not RAW.search(drawn), (graph_id, RAW.search(drawn))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard-lab-tune.png"), full_page=True)
    assert page.errors == []


def test_a_study_is_cancelled_from_the_page(served, page):
    page.goto(served + "/lab")
    a_small_topiary_study(page, "60", "400 matches")
    study = start_a_study(page)
    wait_for_progress(page, f"Study {study} running")
    page.wait_for_selector("#tune-cancel:not([disabled])", timeout=WAIT)
    page.click("#tune-cancel")
    wait_for_progress(page, f"Study {study} ended: cancelled")
    assert page.is_disabled("#tune-cancel")
    assert page.errors == []
