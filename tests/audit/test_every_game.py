"""Every registered game: a random match recorded through the recorder audits clean, and a
changed byte in one of its stored events is found at that event."""

from __future__ import annotations

import random

import pytest

from tablelog.domain.games import GAMES
from tablelog.domain.integrity.audit import audit_match
from tablelog.store import open_recorder
from tests.audit.helpers import rows, update_state

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
CAP = 40  # moves; enough to score, quick to audit


def random_match(recorder, game, seed):
    rules = GAMES[game]
    rng = random.Random(seed)
    seats = NAMES[: rules.min_players]
    options = rules.options({})
    match_id = recorder.start(game, seats, options, rules.deal(len(seats), options, rng))
    match = recorder.get(match_id)
    while rules.outcome(match.state) is None and len(match.moves) < CAP:
        seat = rules.to_move(match.state)[0]
        match = recorder.record(match_id, seat, rules.random_move(match.state, rng))
    totals = {name: entry["total"] for name, entry in zip(seats, rules.score(match.state))}
    recorder.claim(match_id, seats[0], totals)
    recorder.end(match_id, agreed_draw=rules.outcome(match.state) is None)
    return match_id


@pytest.mark.parametrize("game", list(GAMES))
def test_a_random_match_audits_clean_and_a_changed_event_is_found(store, game):
    recorder = open_recorder(store)
    match_id = random_match(recorder, game, seed=7)
    report = audit_match(recorder, match_id)
    assert report["clean"], report["findings"]
    assert report["claims"][0]["agrees"] is True
    middle = report["events"] // 2
    state = rows(store, match_id)[middle]
    update_state(store, match_id, middle, state.replace(b'"_data_":"20', b'"_data_":"19', 1))
    tampered = audit_match(open_recorder(store), match_id)
    assert [(f["event"], f["kind"]) for f in tampered["findings"]] == [(middle, "chain")]
