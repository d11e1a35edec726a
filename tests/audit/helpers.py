"""Matches to audit, and the sqlite3 surgery a forger would do on the store file."""

from __future__ import annotations

import sqlite3
from uuid import UUID

from tests.test_recorder import OPENING, WIN, play

__all__ = [
    "OPENING",
    "WIN",
    "delete",
    "insert_copy",
    "play",
    "played_with_everything",
    "rows",
    "swap_states",
    "update_state",
]


def played_with_everything(recorder) -> UUID:
    """Ann wins (WIN), with an undo along the way, a right claim, and a dispute ruled on."""
    match_id = play(recorder, WIN[:5])
    recorder.undo(match_id, "Ben", "Ann meant a3, not a1")  # withdraws move 5
    for seat, move in WIN[4:]:
        recorder.record(match_id, seat, move)
    recorder.claim(match_id, "Ann", {"Ann": 2, "Ben": 0})
    recorder.dispute(match_id, "Ben", "the last bucket was lifted, not slid")
    recorder.resolve(match_id, "Umpire", "the slide stands")
    recorder.end(match_id)
    return match_id


def rows(path: str, match_id: UUID) -> dict[int, bytes]:
    """Position -> stored state bytes of one match."""
    with sqlite3.connect(path) as db:
        return dict(
            db.execute(
                "SELECT originator_version, state FROM stored_events WHERE "
                "originator_id = ? ORDER BY originator_version",
                [match_id.hex],
            )
        )


def update_state(path: str, match_id: UUID, position: int, state: bytes) -> None:
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            [state, match_id.hex, position],
        )


def delete(path: str, match_id: UUID, position: int) -> None:
    with sqlite3.connect(path) as db:
        db.execute(
            "DELETE FROM stored_events WHERE originator_id = ? AND originator_version = ?",
            [match_id.hex, position],
        )


def swap_states(path: str, match_id: UUID, first: int, second: int) -> None:
    states = rows(path, match_id)
    update_state(path, match_id, first, states[second])
    update_state(path, match_id, second, states[first])


def insert_copy(path: str, match_id: UUID, position: int, copy_of: int) -> None:
    """Make room at `position` (moving later rows up one) and put a copy of a row there."""
    with sqlite3.connect(path) as db:
        topic, state = db.execute(
            "SELECT topic, state FROM stored_events WHERE originator_id = ? AND "
            "originator_version = ?",
            [match_id.hex, copy_of],
        ).fetchone()
        later = [
            v
            for (v,) in db.execute(
                "SELECT originator_version FROM stored_events WHERE originator_id = ? AND "
                "originator_version >= ? ORDER BY originator_version DESC",
                [match_id.hex, position],
            )
        ]
        for version in later:
            db.execute(
                "UPDATE stored_events SET originator_version = ? WHERE originator_id = ? "
                "AND originator_version = ?",
                [version + 1, match_id.hex, version],
            )
        db.execute(
            "INSERT INTO stored_events (originator_id, originator_version, topic, state) "
            "VALUES (?, ?, ?, ?)",
            [match_id.hex, position, topic, state],
        )
