"""Validate before storing (issue 20, item 2): every value an event carries is checked for what
the store round-trips exactly BEFORE the event is triggered, so a refused entry stores nothing,
and an accepted one reads back equal. On SQLite and PostgreSQL."""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.domain.errors import Refused
from tablelog.domain.games import RulesError
from tablelog.domain.matches.match import canonical_json
from tablelog.domain.matches.values import MAX_BYTES, MAX_DEPTH, MAX_INT, stored_text, stored_value
from tests.conftest import stored_rows
from tests.hostile import JSON, OBJECTS, TEXT, nested
from tests.test_recorder import OPENING, play

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (MAX_INT + 1, "cannot be stored exactly"),
        (-MAX_INT - 1, "cannot be stored exactly"),
        ({"Ann": 99999999999999999999999}, 'x["Ann"]: an integer beyond'),
        (float("nan"), "not plain JSON"),
        ([1, float("inf")], "x[1]: inf is not plain JSON"),
        ("\udc80", "not valid UTF-8"),
        ({"\ud800": 1}, "x key: the text is not valid UTF-8"),
        ("a\x00b", "NUL"),
        ({1: 2}, "keys must be text"),
        (nested(MAX_DEPTH + 1), f"nested more than {MAX_DEPTH} deep"),
        (nested(100_000), f"nested more than {MAX_DEPTH} deep"),
        ("x" * (MAX_BYTES + 1), "too large"),
        (object(), "object is not plain JSON"),
    ],
)
def test_what_the_store_cannot_keep_exactly_is_refused_in_one_line(value, words):
    with pytest.raises(Refused) as refused:
        stored_value(value, "x")
    message = str(refused.value)
    assert words in message
    assert "\n" not in message and message.encode("utf-8")  # one printable line


@pytest.mark.parametrize(
    "value",
    [
        MAX_INT,
        -MAX_INT,
        0.1,
        1e300,
        "Zoë ١ ²",
        {"a": [None, True, {"b": []}]},
        nested(MAX_DEPTH - 1),
        "x" * (MAX_BYTES - 2),
    ],
)
def test_what_it_keeps_exactly_passes_unchanged(value):
    assert stored_value(value, "x") == value


def test_tuples_come_back_as_the_lists_the_store_returns():
    assert stored_value({"at": (0, -1)}, "x") == {"at": [0, -1]}
    with pytest.raises(Refused, match="must be text"):
        stored_text(["Ann"], "who")


@settings(max_examples=400, deadline=None)
@given(JSON)
def test_any_value_is_refused_in_one_line_or_round_trips_exactly(value):
    try:
        plain = stored_value(value, "the value")
    except Refused as refused:
        assert "\n" not in str(refused) and str(refused).encode("utf-8")
        return
    assert orjson.loads(orjson.dumps(plain)) == plain  # the store's codec
    assert json.loads(json.dumps(plain)) == plain  # and every other reader's
    canonical_json(plain)  # the hash chain takes it (orjson refused >64-bit integers)


# ---- through the recorder, on both stores -----------------------------------------------------


def test_the_issue_s_huge_claim_is_refused_and_stores_nothing(any_recorder, any_store):
    match_id = play(any_recorder, OPENING)
    before = stored_rows(any_store)
    for _ in range(2):  # a retry stored it a second time
        with pytest.raises(Refused, match="cannot be stored exactly"):
            any_recorder.claim(match_id, "Ann", {"Ann": 99999999999999999999999})
    assert stored_rows(any_store) == before
    any_recorder.claim(match_id, "Ann", {"Ann": MAX_INT})
    assert any_recorder.get(match_id).claims[-1]["scores"] == {"Ann": MAX_INT}  # not a float


def _refused_or_kept(recorder, store, action, check) -> None:
    """Run `action`: a refusal must leave every row as it was; an acceptance must read back
    equal (`check` gets what was stored)."""
    before = stored_rows(store)
    try:
        result = action()
    except (Refused, RulesError) as refused:
        assert "\n" not in str(refused)
        assert stored_rows(store) == before
        return
    check(result)


@FUZZ
@given(kind=st.sampled_from(["move", "claim", "dispute", "undo"]), value=JSON, name=TEXT)
def test_hostile_entries_are_refused_or_kept_exactly(any_recorder, any_store, kind, value, name):
    match_id = play(any_recorder, OPENING)
    actions = {
        "move": lambda: any_recorder.record(match_id, name or "Ann", value),
        "claim": lambda: any_recorder.claim(match_id, name or "Ann", {"Ann": value}),
        "dispute": lambda: any_recorder.dispute(match_id, name or "Ann", value),
        "undo": lambda: any_recorder.undo(match_id, "Ann", value),
    }

    def kept(done):
        fresh = any_recorder.get(match_id)
        assert fresh.version == done.version
        if kind == "claim":
            assert fresh.claims[-1]["scores"] == {"Ann": value}
        if kind == "dispute":
            assert fresh.disputes[-1]["about"] == value

    _refused_or_kept(any_recorder, any_store, actions[kind], kept)


@FUZZ
@given(players=st.lists(TEXT, max_size=3) | JSON, options=OBJECTS, setup=OBJECTS | JSON)
def test_hostile_starts_are_refused_or_kept_exactly(
    any_recorder, any_store, players, options, setup
):
    def kept(match_id):
        assert any_recorder.get(match_id).seats == [p.strip() for p in players]

    _refused_or_kept(
        any_recorder,
        any_store,
        lambda: any_recorder.start("topitop", players, options or None, setup or None),
        kept,
    )
