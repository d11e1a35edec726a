"""The lean transcoder and mapper store exactly what eventsourcing's own store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from uuid import UUID, uuid4

from eventsourcing.application import Application
from eventsourcing.persistence import JSONTranscoder, Mapper
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.matches.match import start_match
from tablelog.domain.matches.transcoding import LeanMapper, LeanTranscoder

LIBRARY = Application(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}).construct_transcoder()
assert isinstance(LIBRARY, JSONTranscoder)
LEAN = LeanTranscoder(fallback=LIBRARY)
BODY = {
    "timestamp": datetime(2026, 11, 30, 1, 2, 3, 456789, tzinfo=UTC),
    "prev_hash": "ab" * 32,
    "seat": 1,
    "move": {"from": "a1", "to": "b2", "n": [1, 2.5]},
    "scores": {"Ann": 43, "Zoë": -3},
}

# What a Match event holds besides its timestamp: plain JSON (Match checks it is).
PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
UTC_TIMES = st.datetimes(min_value=datetime(1, 1, 1), timezones=st.just(UTC))


def test_the_stored_bytes_are_the_librarys():
    assert LEAN.encode(BODY) == LIBRARY.encode(BODY)
    assert LEAN.encode_plain_event(dict(BODY)) == LIBRARY.encode(BODY)


@settings(max_examples=300, deadline=None)
@given(stamp=UTC_TIMES, fields=st.dictionaries(st.text(), PLAIN, max_size=5))
def test_a_plain_event_body_is_stored_as_the_library_stores_it(stamp, fields):
    body = {"timestamp": stamp, **{k: v for k, v in fields.items() if k != "timestamp"}}
    assert LEAN.encode_plain_event(dict(body)) == LIBRARY.encode(body)
    assert LEAN.decode(LIBRARY.encode(body)) == body


@settings(max_examples=100, deadline=None)
@given(stamp=UTC_TIMES, points=st.lists(st.floats(allow_nan=False, allow_infinity=False)))
def test_floats_read_back_equal_whichever_transcoder_wrote_them(stamp, points):
    # orjson spells a few floats differently (1e-7 where json writes 1e-07): same value.
    body = {"timestamp": stamp, "points": points}
    assert LIBRARY.decode(LEAN.encode_plain_event(dict(body))) == body
    assert LEAN.decode(LIBRARY.encode(body)) == body


def test_a_timestamp_not_in_utc_keeps_its_offset():
    stamp = datetime(2026, 11, 30, 9, 30, tzinfo=timezone(timedelta(hours=5, minutes=30)))
    body = {**BODY, "timestamp": stamp}
    assert LEAN.encode_plain_event(dict(body)) == LIBRARY.encode(body)
    assert LEAN.decode(LEAN.encode_plain_event(dict(body)))["timestamp"] == stamp


def test_each_reads_what_the_other_wrote():
    assert LEAN.decode(LIBRARY.encode(BODY)) == BODY
    assert LIBRARY.decode(LEAN.encode(BODY)) == BODY


def test_a_move_that_looks_like_a_tagged_value_comes_back_as_written():
    body = {**BODY, "move": {"_type_": "datetime_iso", "_data_": "2020-01-01T00:00:00"}}
    assert LEAN.decode(LEAN.encode(body)) == body


def test_anything_else_goes_through_the_library():
    body = {**BODY, "big": 2**70}
    assert LEAN.decode(LEAN.encode(body)) == body
    assert LEAN.encode_plain_event(dict(body)) == LIBRARY.encode(body)


def test_the_mapper_stores_every_match_event_as_the_librarys_mapper_does():
    match = start_match(uuid4(), "topitop", ["Ann", "Ben"])
    match.record("Ann", {"place": "small", "to": "b1"})
    match.claim("Ann", {"Ann": 1, "Ben": 0})
    match.abandon("Ben", "rain")
    lean, library = LeanMapper(transcoder=LEAN), Mapper[UUID](transcoder=LIBRARY)
    for event in match.collect_events():
        assert lean.to_stored_event(event) == library.to_stored_event(event)
