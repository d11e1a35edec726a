"""Total Landscaping's last round (issue 43): the state keeps what happened as facts, `telling`
words them for a person, and a state stored before, with the round told in sentences, is not
read as facts: a snapshot holding one is passed over and its match replays from its events."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.games.total_landscaping.rules import RULES
from tablelog.domain.games.total_landscaping.telling import CHOICES, HAPPENINGS, PARAMETERS
from tablelog.domain.matches.snapshots import MatchSnapshot
from tests.test_snapshots import assert_same, full_replay

from .test_total_landscaping import card, garden, play, position

KINDS = {*CHOICES, *PARAMETERS, *HAPPENINGS}


def seeded_match(seed: int, rounds: int):
    """The states of a seeded random match, at most `rounds` rounds long."""
    rng = random.Random(seed)
    options = RULES.options({})
    states = [RULES.start(2, options, RULES.deal(2, options, rng))]
    moves: list[dict] = []
    while RULES.outcome(states[-1]) is None and len(moves) < rounds:
        moves.append(RULES.random_move(states[-1], rng))
        states.append(RULES.apply(states[-1], moves[-1]))
    return states, moves


def test_the_state_keeps_the_facts_of_the_round_and_the_view_words_them():
    state = position(east=garden(B1="Y"))
    after = play(state, card("Orange", "E:A"), card("Red", "E:B3", remove=["Blue", "White"]))
    assert after.last_round == (
        ("plays", "east", "Orange", "east", "A"),
        ("plays", "west", "Red", "east", "B3"),
        ("removing", "west", "Blue", "White"),
        ("negated", "east", "Orange"),  # Red withers Orange: the exchange fails
        ("removes", "west", "Blue", "White"),
        ("withered", "east", "A", "Orange"),
        ("withered", "east", "B1", "Yellow"),
    )
    told = RULES.render(after, ["Ann", "Ben"]).split("last round: ")[1].split("\n")[0]
    assert told == (
        "East plays Orange on A in the Eastern garden; West plays Red on B3 in the Eastern "
        "garden removing Blue and White; East's Orange effect is negated; West removes Blue and "
        "White; withered in the Eastern "
        "garden: the Orange flower on A, the Yellow flower on B1"
    )


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_fact_is_of_a_kind_told_in_words_and_survives_json(seed):
    states, _ = seeded_match(seed, 80)
    for state in states:
        assert {str(fact[0]) for fact in state.last_round} <= KINDS, state.last_round
        assert RULES.decode(json.loads(json.dumps(RULES.encode(state)))) == state
        told = RULES.render(state, ["Ann", "Ben"])
        # No tuple, list or quoted key reaches the words.
        assert not re.search(r"[()\[\]]'|'[,)\]]|\(\"|\b[EW]:[A-D]", told), told


def _told_in_sentences(state_json: dict) -> dict:
    """A state as a release before issue 43 stored it: its last round in sentences."""
    lines = ["East plays Green on W:C8; West plays Blue on E:D2", "withered: W:D14 (Blue)"]
    return {**state_json, "last_round": lines if state_json["last_round"] else []}


def test_a_state_telling_its_round_in_sentences_is_not_read_as_facts():
    states, _ = seeded_match(7, 3)
    with pytest.raises(ValueError, match="issue 43"):
        RULES.decode(_told_in_sentences(RULES.encode(states[-1])))
    assert RULES.decode(RULES.encode(states[0])) == states[0]  # no round yet: nothing told


def test_a_snapshot_from_before_issue_43_is_passed_over_and_the_match_replays(recorder):
    recorder.snapshot_every = recorder.read_through = 10**9  # only the snapshot planted below
    match_id = recorder.start("total-landscaping", ["Ann", "Ben"])
    _, moves = seeded_match(11, 12)
    for move in moves:
        recorder.record(match_id, 0, move)
    at = recorder.get(match_id)
    old = MatchSnapshot.take(at)
    old.state["states"] = [_told_in_sentences(s) for s in old.state["states"]]
    assert recorder.snapshots is not None
    recorder.snapshots.put([old])
    read = recorder.get(match_id)
    assert_same(read, full_replay(recorder, match_id))
    assert all(isinstance(fact, tuple) for fact in read.state.last_round)
