"""Every example match record shipped in data/examples imports, replays and ends as documented."""

from __future__ import annotations

import json

import pytest

from tablelog.domain.games import GAMES
from tablelog.domain.records import check_all
from tests.packaged import data_path

EXAMPLES = sorted(data_path("examples").glob("*.json"))


def test_every_game_has_an_example():
    assert {path.stem for path in EXAMPLES} >= set(GAMES)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_example_record_imports_and_ends(recorder, path):
    record = json.loads(path.read_text())
    (match,) = check_all([record])
    recorder.save_new([match])
    stored = recorder.get(match.id)
    assert stored.game == path.stem and stored.status == "ended"
    outcome = match.rules.outcome(stored.state)
    assert outcome is not None and stored.outcome == outcome.to_json()
