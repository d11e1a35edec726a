"""A small store with every game in it, built once per test module, and its dashboard."""

from __future__ import annotations

import random

import pytest

from tablelog.domain.games import get_rules
from tablelog.simulation import make_plan, simulate
from tablelog.store import open_recorder

EVE = "<b>Eve</b>"  # a name that would be bold if anything read it as markup


def hand_logged_match(recorder):
    """A Topitop match logged by hand: six moves, one undone and entered again, a wrong claim
    (Ben says 3; nobody has scored) and an open dispute. Returns its id."""
    rules, rng = get_rules("topitop"), random.Random(3)
    match_id = recorder.start("topitop", [EVE, "Ben"], {}, {})

    def play():
        match = recorder.get(match_id)
        recorder.record(
            match_id, rules.to_move(match.state)[0], rules.random_move(match.state, rng)
        )

    for _ in range(6):
        play()
    recorder.undo(match_id, "Ben", "wrong cell")
    play()
    recorder.claim(match_id, "Ben", {EVE: 0, "Ben": 3})
    recorder.dispute(match_id, EVE, "Ben counted a bucket twice")
    return match_id


@pytest.fixture(scope="module")
def filled_store(tmp_path_factory):
    """(path, id of the hand-logged match): 35 Topitop matches (past the small-sample mark),
    12 Topiary, 3 Topas, 2 Total Landscaping, 1 GeoShapes, and the hand-logged one."""
    path = str(tmp_path_factory.mktemp("dashboard") / "store.sqlite")
    recorder = open_recorder(path)
    for game, matches in (
        ("topitop", 35),
        ("topiary", 12),
        ("topas", 3),
        ("total-landscaping", 2),
        ("geoshapes", 1),
    ):
        simulate(recorder, make_plan(game, matches, seed=11), workers=1, progress=False)
    return path, str(hand_logged_match(recorder))
