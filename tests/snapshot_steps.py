"""Random plays for the snapshot properties (tests/test_snapshot_properties.py): what one entry
does to a Topitop match, the whole match as plain values, and a recording process that takes
one entry at a time (run under multiprocessing's spawn)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from multiprocessing.connection import Connection
from typing import Any
from uuid import UUID

from hypothesis import strategies as st

from tablelog.domain.matches import snapshots
from tablelog.domain.matches.match import Match
from tablelog.store import is_postgres, open_recorder

NEVER = 10**9  # an interval no test match reaches: no snapshots taken that way
# How often a random entry is each kind: mostly moves, undos often enough to reach past a
# snapshot's tail, reads of random steps among the writes, and now and then the match's
# snapshots deleted (as in a store written in bulk or before snapshots: the next read replays
# from the start, snapshotting the match on the way). The end comes once at most.
KINDS = ("move",) * 6 + ("undo",) * 3 + ("claim", "dispute", "resolve", "read", "read", "forget")
Entry = tuple[str, int, int]  # kind, a number choosing what exactly, which recorder does it


def plays(most: int) -> st.SearchStrategy[list[Entry]]:
    """From half `most` to `most` entries (long enough to pass several snapshot points),
    perhaps with an agreed end somewhere among them."""
    entry = st.tuples(st.sampled_from(KINDS), st.integers(0, 999), st.integers(0, 1))
    entries = st.lists(entry, min_size=most // 2, max_size=most)
    ending = st.none() | st.tuples(st.integers(0, most), st.integers(0, 1))
    return st.builds(_ended, entries, ending)


def _ended(entries: list[Entry], ending: tuple[int, int] | None) -> list[Entry]:
    if ending is None:
        return entries
    at, who = ending
    return [*entries[:at], ("end", 0, who), *entries[at:]]


def intervals(long_reads: bool = False) -> st.SearchStrategy[tuple[int, int]]:
    """A recorder's (`snapshot_every`, `read_through`): small, so snapshots fall everywhere,
    or never, so that only reads (or only writes) take them; with `long_reads`, a read that
    replays a few events always snapshots the match on the way."""
    through = [2, 3, 7] if long_reads else [2, 3, 7, NEVER]
    return st.tuples(st.sampled_from([2, 5, NEVER]), st.sampled_from(through))


def tails() -> st.SearchStrategy[int]:
    """A snapshot's tail of states and moves: short ones make undos reach past it."""
    return st.sampled_from([1, 2, snapshots.TAIL])


def enter(recorder: Any, store: str, match_id: UUID, entry: Entry) -> int | None:
    """Make the entry on the match now (one the match cannot take is skipped); for a read, the
    step to read at (0 to the newest)."""
    kind, number, _ = entry
    if kind == "forget":
        forget(store, match_id)
        return None
    match = recorder.get(match_id)
    running = match.status == "running"
    if kind == "read":
        return number % match.version
    if kind == "move" and running and match.rules.to_move(match.state):
        recorder.record(match_id, *_move(match, number))
    elif kind == "undo" and running and match.moves:
        recorder.undo(match_id, "Ann", f"undo {number}")
    elif kind == "claim":
        recorder.claim(match_id, "Ben", {"Ann": number % 7})
    elif kind == "dispute":
        recorder.dispute(match_id, "Ann", f"dispute {number}")
    elif kind == "resolve" and match.open_disputes:
        recorder.resolve(match_id, "Ben", f"ruling {number}")
    elif kind == "end" and running:
        recorder.end(match_id, agreed_draw=True)
    return None


def forget(store: str, match_id: UUID) -> None:
    """Delete the match's snapshots, straight from the store's table."""
    if is_postgres(store):
        import psycopg

        with psycopg.connect(store) as postgres:
            postgres.execute("DELETE FROM tablelog_snapshots WHERE originator_id = %s", [match_id])
        return
    with closing(sqlite3.connect(store)) as sqlite, sqlite:
        sqlite.execute("DELETE FROM stored_snapshots WHERE originator_id = ?", [match_id.hex])


def _move(match: Match, number: int) -> tuple[int, Any]:
    """The seat to move and a legal move of it, one that does not win when there is one (so
    that plays go on)."""
    rules, state = match.rules, match.state
    legal = list(rules.legal_moves(state))
    going_on = [m for m in legal if rules.outcome(rules.apply(state, m)) is None]
    choices = going_on or legal
    return rules.to_move(state)[0], choices[number % len(choices)]


def picture(match: Match) -> dict[str, Any]:
    """The whole match as plain values: how many moves and states it has, every field of its
    own (status, outcome, undos, claims, disputes with their rulings...), its version, times
    and head hash, every state and every effective move."""
    rules = match.rules
    # How many, asked first: what the pages show (a restored match answers it without
    # fetching its earlier moves), then the entries themselves (fetched).
    counts = {"effective moves": len(match.moves), "states": len(match.states)}
    own = {
        name: value
        for name, value in vars(match).items()
        if not name.startswith("_") and name not in ("states", "moves")
    }
    return {
        "counts": counts,
        **own,
        "version": match.version,
        "head_hash": match.head_hash,
        "created_on": match.created_on.isoformat(),
        "modified_on": match.modified_on.isoformat(),
        "state": rules.encode(match.state),
        "states": [rules.encode(state) for state in match.states],
        "moves": list(match.moves),
    }


def serve(connection: Connection, store: str) -> None:
    """A recording process on `store`. Each message gets one answer, ("ok", value) or
    ("error", what went wrong); None stops it. Messages: ("intervals", every, through, tail),
    ("enter", match_id, entry) (answers `enter`'s step) and ("read", match_id, step) (answers
    the `picture` of the match after that step)."""
    recorder = open_recorder(store)
    try:
        while (message := connection.recv()) is not None:
            try:
                connection.send(("ok", _answer(recorder, store, message)))
            except Exception as err:  # noqa: BLE001 - the test that sent it reports it
                connection.send(("error", repr(err)))
    finally:
        recorder.close()


def _answer(recorder: Any, store: str, message: tuple[Any, ...]) -> Any:
    kind, *rest = message
    if kind == "intervals":
        recorder.snapshot_every, recorder.read_through, snapshots.TAIL = rest
        return None
    if kind == "enter":
        return enter(recorder, store, *rest)
    match_id, step = rest
    return picture(recorder.get(match_id, step))
