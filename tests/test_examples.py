"""Every example match record (data/examples, and the one each game's plugin names) imports,
replays and ends as documented."""

from __future__ import annotations

import json

import pytest

from tablelog.domain.games import GAMES
from tablelog.domain.matches.records import check_all
from tests.packaged import data_path, example_path

EXAMPLES = sorted({*data_path("examples").glob("*.json"), *map(example_path, GAMES)})


def test_every_game_has_an_example():
    assert all(example_path(game).is_file() for game in GAMES)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_example_record_imports_and_ends(recorder, path):
    record = json.loads(path.read_text())
    (match,) = check_all([record])
    recorder.save_new([match])
    stored = recorder.get(match.id)
    assert stored.game == path.stem and stored.status == "ended"
    outcome = match.rules.outcome(stored.state)
    assert outcome is not None and stored.outcome == outcome.to_json()
