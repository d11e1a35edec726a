"""Derived values (`domain.matches.derived`): the projection that trusts them gives the same tables
as the projection that runs the rules on events stored without them (as before they existed), on
SQLite and PostgreSQL; and the audit reports a stored derived value the rules do not give."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.domain.integrity.audit import audit_match
from tablelog.projections.runner import TablesProjection
from tablelog.store import open_recorder
from tests.projections.matches import random_match
from tests.projections.test_projection import assert_same_tables, snapshot
from tests.test_recorder import WIN, play

NAMES = ["Ann", "Ben", "Cat", "Dan"]
GAMES = ("topitop", "topiary", "topas", "total-landscaping", "geoshapes")


def played(rng: random.Random, cap: int = 40) -> list[Any]:
    """The events of a few random matches of every game, some with a withdrawn move, some
    abandoned or left running."""
    from tablelog.domain.games import GAMES as RULES

    events: list[Any] = []
    for game in GAMES:
        rules = RULES[game]
        players = rng.randint(rules.min_players, rules.max_players)
        finish = rng.choice(["end", "end", "abandon", "open"])
        match = random_match(game, NAMES[:players], rng, finish="open", cap=rng.randint(1, cap))
        if match.moves and rng.random() < 0.5 and match.status == "running":
            match.undo("Ann", "misplaced")
        if finish == "end":
            match.end(agreed_draw=match.rules_outcome() is None)
        elif finish == "abandon":
            match.abandon("Ann", "the cafe closed")
        events.extend(match.collect_events())
    return events


def without_derived(events: list[Any]) -> list[Any]:
    """The same events as a recorder before derived values stored them (same ids, times and
    hashes: derived values are not hashed)."""
    bare = []
    for event in events:
        clone = object.__new__(type(event))
        clone.__dict__.update({k: v for k, v in vars(event).items() if k != "derived"})
        bare.append(clone)
    return bare


def tables_of(location: str, events: list[Any]) -> dict:
    recorder = open_recorder(location)
    try:
        recorder.events.put(events)
        projection = TablesProjection(recorder, page=50)
        projection.catch_up()
        return snapshot(projection)
    finally:
        recorder.close()


def test_stored_derived_values_give_the_tables_the_rules_give(any_store, tmp_path):
    events = played(random.Random(24))
    assert any(getattr(e, "derived", None) for e in events)  # the fast path is exercised
    plain = tables_of(str(tmp_path / "plain.sqlite"), without_derived(events))
    fast = tables_of(any_store, events)
    assert not plain["moves"].empty and not plain["scores"].empty
    assert_same_tables(fast, plain)


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10**6))
def test_random_matches_project_the_same_with_and_without_derived_values(tmp_path, seed):
    events = played(random.Random(seed), cap=25)
    plain = tables_of(str(tmp_path / f"plain-{seed}.sqlite"), without_derived(events))
    fast = tables_of(str(tmp_path / f"fast-{seed}.sqlite"), events)
    assert_same_tables(fast, plain)


def test_a_store_mixing_old_and_new_events_projects_as_the_rules_say(tmp_path):
    """A match begun before derived values existed and continued after: its old moves are
    replayed, its new ones trusted, and the tables are those of the rules."""
    events = played(random.Random(5), cap=30)
    half = without_derived(events)
    mixed = [old if n % 2 else new for n, (old, new) in enumerate(zip(half, events))]
    plain = tables_of(str(tmp_path / "plain.sqlite"), half)
    assert_same_tables(tables_of(str(tmp_path / "mixed.sqlite"), mixed), plain)


# ---- the audit -----------------------------------------------------------------------------


def _tamper(path: str, match_id: str, version: int, change) -> None:
    """Edit the derived values of one stored event in place, as someone with the file could."""
    db = sqlite3.connect(path)
    with db:
        (state,) = db.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
            (match_id, version),
        ).fetchone()
        data = orjson.loads(state)
        change(data["derived"])
        db.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (orjson.dumps(data), match_id, version),
        )
    db.close()


@pytest.fixture
def won(store):
    """A finished Topitop match (Ann wins) in an SQLite file; its path and id."""
    recorder = open_recorder(store)
    match_id = play(recorder, WIN)
    recorder.end(match_id)
    assert audit_match(recorder, match_id)["clean"]
    recorder.close()
    return store, match_id


def _derived_findings(path: str, match_id) -> tuple[list[dict], dict]:
    recorder = open_recorder(path)
    try:
        report = audit_match(recorder, match_id)
    finally:
        recorder.close()
    return [f for f in report["findings"] if f["kind"] == "derived"], report


def test_the_audit_reports_a_tampered_score_after_a_move(won):
    path, match_id = won

    def more(derived):
        derived["totals"][1] += 1

    _tamper(path, match_id.hex, 5, more)
    found, report = _derived_findings(path, match_id)
    assert [f["event"] for f in found] == [5]
    assert "totals" in found[0]["message"]
    assert not report["clean"]
    # The chain itself is intact: only the recomputation finds it.
    assert not [f for f in report["findings"] if f["kind"] != "derived"]


def test_the_audit_reports_a_tampered_final_score(won):
    path, match_id = won

    def swap(derived):
        derived["scores"][0]["total"], derived["scores"][1]["total"] = 0.0, 2.0

    _tamper(path, match_id.hex, 17, swap)  # event 17: the end (16 = the last move)
    found, _ = _derived_findings(path, match_id)
    assert [f["event"] for f in found] == [17]
    assert "scores" in found[0]["message"]


def test_the_audit_finds_nothing_wrong_with_honest_derived_values(tmp_path):
    recorder = open_recorder(str(tmp_path / "s.sqlite"))
    try:
        events = played(random.Random(11))
        recorder.events.put(events)
        for match_id in {e.originator_id for e in events}:
            report = audit_match(recorder, match_id)
            assert not [f for f in report["findings"] if f["kind"] == "derived"], report
    finally:
        recorder.close()
