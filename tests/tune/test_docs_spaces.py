"""The spaces and the tuned board that docs/tune.md publishes: each SPACE.json is one the tuner
takes as it is, and the board the GeoShapes study exported is a board the rules and the
tuner's checks accept, which `simulate` plays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablelog.domain.games.geoshapes import tuning
from tablelog.domain.games.geoshapes.board import parse_board
from tablelog.simulation import make_plan, simulate
from tablelog.store import open_recorder
from tablelog.tune.space import load_space

DOCS = Path(__file__).resolve().parents[2] / "docs" / "tune"


@pytest.mark.parametrize("name", ["geoshapes-from-v2.json", "geoshapes-near-v2.json"])
def test_a_published_space_is_taken_as_it_is(name):
    space = load_space("geoshapes", json.loads((DOCS / name).read_text()))
    assert space.base == "geoshapes-v2" and space.fields


def test_the_tuned_board_is_a_board_the_rules_and_the_tuner_accept(tmp_path):
    manifest = json.loads((DOCS / "geoshapes-tuned-from-v2.json").read_text())
    parse_board(manifest, "the tuned board")  # the rules' own checks of a manifest
    assert tuning.invalid(manifest, {}) is None  # the Wild example, every place completable
    recorder = open_recorder(str(tmp_path / "s.sqlite"))
    board = {"name": "tuned from version 2", "content": manifest}
    plan = make_plan("geoshapes", 2, seed=1, players=4, bots="greedy", components=board)
    assert simulate(recorder, plan, workers=1, progress=False).matches == 2


def test_the_topas_spaces_ask_the_head_start_alone_or_leave_it_out():
    alone = load_space("topas", json.loads((DOCS / "topas-head-start.json").read_text()))
    assert alone.options == {"head_start": [0, 1, 2, 3, 4]} and not alone.fields
    decks = load_space("topas", json.loads((DOCS / "topas-deck.json").read_text()))
    assert "head_start" not in decks.options and "second_head_start" not in decks.options
    assert "expert" in decks.options and decks.fields


def test_the_expert_head_starts_space_and_its_confirmed_variant_are_taken_as_they_are(tmp_path):
    """docs/tune.md's confirmed Topas variant: its space asks both head starts with the expert
    variant fixed, and the options `tune export` named for the winner start and play a match."""
    space = load_space("topas", json.loads((DOCS / "topas-expert-head-starts.json").read_text()))
    assert space.fixed == {"expert": True} and not space.fields
    assert set(space.options) == {"head_start", "second_head_start"}
    winner = {"expert": True, "head_start": 6, "second_head_start": 2}
    assert all(winner[name] in choices for name, choices in space.options.items())
    recorder = open_recorder(str(tmp_path / "s.sqlite"))
    plan = make_plan("topas", 2, seed=1, players=3, bots="greedy", options=winner)
    assert simulate(recorder, plan, workers=1, progress=False).matches == 2
    for match_id in recorder.match_ids():
        match = recorder.get(match_id)
        scores = match.rules.score(match.state)
        assert [entry["categories"]["head start"] for entry in scores] == [6, 2, 0]
