"""The hostile re-run of issue 42 (tests/rerun/, scripts/hostile_rerun.py) at a reduced size, on
SQLite and PostgreSQL: every category tries its inputs and counts no 5xx, no traceback, no
untidy refusal, no write refused yet stored or said stored yet lost, no wrong replay. And the
harness can fail: a fault planted in a callback is counted."""

from __future__ import annotations

import pytest

from tablelog.dashboard.record import panels
from tests.rerun import dash
from tests.rerun.run import CATEGORIES, rerun
from tests.rerun.tally import COUNTS

SIZE = 24  # inputs per category (scripts/hostile_rerun.py's default is 500)


@pytest.fixture(params=["sqlite", "postgres"])
def kind(request):
    if request.param == "postgres":
        request.getfixturevalue("postgres_server")  # skips (or fails in CI) without a server
    return request.param


@pytest.mark.slow
@pytest.mark.parametrize("category", CATEGORIES)
def test_every_category_counts_nothing_wrong(kind, category):
    (tally,) = rerun(kind, SIZE, [category], quiet=True)
    assert tally.tried >= 3, tally
    counted = {COUNTS[c]: getattr(tally, c) for c in COUNTS if getattr(tally, c) is not None}
    assert counted and set(counted.values()) == {0}, (counted, tally.examples)


def test_a_fault_in_a_callback_is_counted(store, monkeypatch):
    """The Record page's play area broken: its calls answer the page's fault, and are counted
    as tracebacks (so that a zero above means something)."""

    def broken(*_args):
        raise RuntimeError("a bug planted by the test")

    monkeypatch.setattr(panels, "play", broken)
    tally = dash.run(store, 40)
    assert (tally.tracebacks or 0) > 0, tally
