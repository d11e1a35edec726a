"""The Lab page in real headless Chromium: an experiment started from the page can be cancelled
from it; the page then says how far it came, and the experiment is listed as cancelled with
the matches it stored. Cancel is offered only while one runs."""

from __future__ import annotations

import pytest

from tablelog.access import WritePolicy
from tablelog.cli.serve import build_app
from tablelog.lab.store import LabStore
from tablelog.store import open_recorder
from tests.conftest import BROWSER_WAIT, open_page, serving

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("lab") / "store.sqlite")
    with serving(build_app(path, WritePolicy.for_bind("127.0.0.1"), refresh=0.5)) as url:
        yield url, path


def progress_says(page, words: str) -> None:
    page.wait_for_function(
        "w => document.querySelector('#lab-progress').innerText.includes(w)",
        arg=words,
        timeout=BROWSER_WAIT,
    )


def test_an_experiment_started_from_the_page_is_cancelled_from_it(served, browser):
    url, path = served
    page = open_page(browser, 1280, 1000)
    page.goto(url + "/lab")
    page.wait_for_selector("#lab-cancel")
    assert page.is_disabled("#lab-cancel")  # nothing runs yet
    page.fill("#lab-budgets", "1,64")  # minutes of work: still running when cancelled
    page.fill("#lab-matches", "400")
    page.click("#lab-start")
    progress_says(page, "Running skill trace (MCTS budgets) of Topitop")
    page.wait_for_function("!document.querySelector('#lab-cancel').disabled", timeout=BROWSER_WAIT)
    page.click("#lab-cancel")
    progress_says(page, "Cancelled after ")
    page.wait_for_function(
        "document.querySelector('#lab-words').innerText.includes('was cancelled after')",
        timeout=BROWSER_WAIT,
    )
    assert page.is_disabled("#lab-cancel")
    (found,) = LabStore(open_recorder(path)).all()
    assert found["status"] == "cancelled"
    assert f"cancelled after {found['stored']} of 400 matches" in page.inner_text("#lab-words")
    assert page.errors == []
    page.close()
