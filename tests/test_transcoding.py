"""The lean transcoder stores exactly what eventsourcing's JSONTranscoder stores."""

from __future__ import annotations

from datetime import datetime, timezone

from eventsourcing.application import Application

from domain.transcoding import LeanTranscoder

LIBRARY = Application(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}).construct_transcoder()
LEAN = LeanTranscoder(fallback=LIBRARY)
BODY = {"timestamp": datetime(2026, 11, 30, 1, 2, 3, 456789, tzinfo=timezone.utc),
        "prev_hash": "ab" * 32, "seat": 1, "move": {"from": "a1", "to": "b2", "n": [1, 2.5]},
        "scores": {"Ann": 43, "Zoë": -3}}


def test_the_stored_bytes_are_the_librarys():
    assert LEAN.encode(BODY) == LIBRARY.encode(BODY)


def test_each_reads_what_the_other_wrote():
    assert LEAN.decode(LIBRARY.encode(BODY)) == BODY
    assert LIBRARY.decode(LEAN.encode(BODY)) == BODY


def test_a_move_that_looks_like_a_tagged_value_comes_back_as_written():
    body = {**BODY, "move": {"_type_": "datetime_iso", "_data_": "2020-01-01T00:00:00"}}
    assert LEAN.decode(LEAN.encode(body)) == body


def test_anything_else_goes_through_the_library():
    body = {**BODY, "big": 2**70}
    assert LEAN.decode(LEAN.encode(body)) == body
