"""An empty table in real headless Chromium says so in the page's words, not AG Grid's, and
without an error on the console (dash-ag-grid refuses a markup template there)."""

from __future__ import annotations

import pytest

from tablelog.dashboard.app import create_app
from tablelog.store import open_recorder
from tests.conftest import BROWSER_WAIT, open_page, serving

pytestmark = pytest.mark.browser


def test_a_match_without_a_claim_says_nobody_has_claimed(filled_store, browser, tmp_path):
    path, _hand_logged = filled_store
    recorder = open_recorder(path)
    simulated = str(next(iter(recorder.started("topiary"))).originator_id)  # bots claim nothing
    recorder.close()
    page = open_page(browser, 1400, 1000)
    with serving(create_app(path, refresh_every=None)) as url:
        page.goto(f"{url}/match?id={simulated}")
        page.wait_for_selector("#match-claims .ag-overlay", timeout=BROWSER_WAIT)
        shown = page.inner_text("#match-claims")
    assert "Nobody has claimed a result." in shown
    assert "No Rows" not in shown
    assert page.errors == []
    page.close()
