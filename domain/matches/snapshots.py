"""Compact snapshots of a Match, so that reading a long match costs the events since its newest
snapshot, not its whole history.

A Match keeps the state after every effective move (`states`) and every effective move
(`moves`), because an undo goes back one state and the Topitop analysis reads them all. A
snapshot of that, as eventsourcing's default `Snapshot.take` would write it, grows with the
match (a 100,000-move match: every state). So a snapshot here holds only what a read at the
latest step needs: the match's own fields, the current state and the last `TAIL` states and
moves (in the game's own JSON, `GameRules.encode`), and how many earlier entries it left out.
A match restored from it holds `Trail`s in place of those lists: they answer `len` and the
recent entries at once and fetch the earlier ones from the events, on demand, when something
needs them (an undo past the tail, the analysis of every move).

A snapshot is a value: `compact` writes the match out as the plain JSON the store keeps and
`restore` reads a fresh copy back, so neither ever shares a list or dict with a live match. (A
read that replays far snapshots the match on the way and stores those snapshots when it is done:
sharing the match's lists, they held the undos, claims and disputes that came after them, which
then showed at earlier steps and twice at the end; issue 42.)

Snapshots are a cache. They live in the store's snapshots table, never in the events the
hash chain, the audit, export and the projections read; each carries the hash of the event it
was taken at, and a reader uses it only when that event still hashes so (see
`Recorder.get`). Any snapshot can be deleted, or all of them: a match then replays from its
events, as it always could.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sized
from datetime import datetime
from typing import Any, TypeVar, cast, overload
from uuid import UUID

import orjson
from eventsourcing.domain import Snapshot

from ..games import get_rules
from ..plain import PlainDict, PlainMapping
from ..recording.eventsourcing_internals import AGGREGATE_FIELDS, bare_aggregate
from .match import STORED_AS, Match, MoveEntry

# Bumped whenever the snapshot's layout, or a state's JSON (`encode`) changes shape without a
# rules version bump: older snapshots are then ignored (and replaced as matches are read).
FORMAT = 1
TAIL = 10  # the recent states and moves a snapshot keeps: undos are usually of the last few
# Aggregate attributes a snapshot rebuilds itself rather than copying.
_OWN = AGGREGATE_FIELDS | {"_head_event", "_head_hash", "states", "moves"}

Fetch = Callable[[], tuple[list[object], list[MoveEntry]]]
"""Every state and every effective move of the match as it was when its snapshot was taken."""


T = TypeVar("T")


class Trail(MutableSequence[T]):
    """A list of which only the last entries are held; the `dropped` earlier ones are fetched
    on first need (by `fetch_all`, which returns the whole list as it was when it was cut)."""

    def __init__(
        self, tail: list[T], dropped: int, fetch_all: Callable[[], list[T]] | None = None
    ) -> None:
        self.tail = tail
        self.dropped = dropped
        self.fetch_all = fetch_all

    @property
    def complete(self) -> bool:
        return self.dropped == 0

    def _fill(self) -> None:
        if self.dropped:
            if self.fetch_all is None:
                raise LookupError("the earlier steps of this match were not loaded")
            head = self.fetch_all()[: self.dropped]
            # The trail owns its entries from now on: nothing left to fetch, nothing shared.
            self.tail, self.dropped, self.fetch_all = list(head) + self.tail, 0, None

    def _index(self, index: int) -> int:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("trail index out of range")
        if index < self.dropped:
            self._fill()
        return index - self.dropped

    def __len__(self) -> int:
        return self.dropped + len(self.tail)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step == 1 and start >= self.dropped:  # within the tail: nothing to fetch
                return self.tail[start - self.dropped : max(start, stop) - self.dropped]
            self._fill()
            return self.tail[index]
        # The position first: finding it may fetch the earlier entries, replacing `tail`.
        position = self._index(index)
        return self.tail[position]

    @overload
    def __setitem__(self, index: int, value: T) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[T]) -> None: ...
    def __setitem__(self, index: int | slice, value: T | Iterable[T]) -> None:
        if isinstance(index, slice):
            self._fill()
            self.tail[index] = cast(Iterable[T], value)  # the slice overload's
        else:
            position = self._index(index)  # (may replace `tail`: see __getitem__)
            self.tail[position] = cast(T, value)  # the index overload's

    def __delitem__(self, index: int | slice) -> None:
        self._fill()
        del self.tail[index]

    def insert(self, index: int, value: T) -> None:
        if index >= len(self):
            self.tail.append(value)
            return
        self._fill()
        self.tail.insert(index, value)

    def append(self, value: T) -> None:
        self.tail.append(value)

    def pop(self, index: int = -1) -> T:
        if not self.tail or index != -1:
            self._fill()
        return self.tail.pop(index)

    def __iter__(self) -> Iterator[T]:
        self._fill()
        return iter(self.tail)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (list, Trail)) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"Trail({self.dropped} earlier + {self.tail!r})"


class MatchSnapshot(Snapshot):
    """A compact snapshot of a Match (see the module's docstring). Its `state` is plain JSON."""

    # Its stored name, from before domain/ had rooms (as Match's: see match.STORED_AS).
    TOPIC = "tablelog.domain.snapshots:MatchSnapshot"
    plain_json_fields = True  # stored the lean way (domain.matches.transcoding)

    @classmethod
    def take(cls, match: Match) -> MatchSnapshot:  # type: ignore[override]  # Matches only
        return cls(
            originator_id=match.id,
            originator_version=match.version,
            timestamp=cls.create_timestamp(),
            topic=STORED_AS,
            state=compact(match),
        )

    def mutate(self, _: None) -> Match:
        return restore(self.originator_id, self.originator_version, self.state)


def compact(match: Match) -> PlainDict:
    """What a snapshot stores of `match`: its fields, and the tails of its states and moves."""
    rules = match.rules
    # The last TAIL moves, or fewer when a restored match holds fewer (after undos): taking a
    # snapshot fetches the history a snapshot left out only when undos took every state it
    # held, the current one too (none kept: the current state is fetched).
    kept = max(0, min(TAIL, len(match.moves), _held(match.moves), _held(match.states) - 1))
    fields = {k: v for k, v in vars(match).items() if k not in _OWN}
    return _value(
        {
            "format": FORMAT,
            "state_rules": rules.version,
            "fields": fields,
            "created_on": match.created_on.isoformat(),
            "modified_on": match.modified_on.isoformat(),
            "head_hash": match.head_hash,
            "dropped": len(match.moves) - kept,
            "states": [rules.encode(s) for s in match.states[len(match.states) - kept - 1 :]],
            "moves": match.moves[len(match.moves) - kept :],
        }
    )


def _value(state: PlainMapping) -> dict[str, Any]:
    """`state` as the store gives it back: plain JSON, sharing nothing with what it was made
    of (a value that is not plain JSON raises: no snapshot is taken then)."""
    return orjson.loads(orjson.dumps(state))


def _held(entries: Sized) -> int:
    return len(entries.tail) if isinstance(entries, Trail) else len(entries)


def usable(snapshot: MatchSnapshot) -> bool:
    """Whether this code can restore a snapshot: same layout, same rules code for the states,
    and nothing in it from after the event it was taken at."""
    state = snapshot.state
    try:
        return (
            state.get("format") == FORMAT
            and get_rules(state["fields"]["game"]).version == state["state_rules"]
            # Two marks of a snapshot written before issue 42's fix: no current state (undos
            # had taken every state it held) and entries from after its event.
            and len(state["states"]) == len(state["moves"]) + 1
            and not _later(state["fields"], snapshot.originator_version)
        )
    except Exception:  # noqa: BLE001 - a snapshot this code cannot read is simply not used
        return False


def _later(fields: dict[str, Any], version: int) -> bool:
    """Whether a snapshot's fields hold an undo, claim or dispute (raised or resolved) after
    event `version`: the mark of one written before issue 42's fix, which shared those lists
    with a match read on past it. Such a snapshot is not the match at its event."""
    marks = [entry["version"] for entry in fields["undos"] + fields["claims"]]
    marks += [
        dispute.get(key) or 0
        for dispute in fields["disputes"]
        for key in ("raised_version", "resolved_version")
    ]
    return any(mark > version for mark in marks)


def restore(match_id: UUID, version: int, state: dict[str, Any]) -> Match:
    """The Match a compact snapshot describes; its earlier history is fetched on demand once
    `attach` has told its trails where from. The match holds copies: the snapshot, which
    may be restored again, never changes as the match does."""
    state = _value(state)
    rules = get_rules(state["fields"]["game"])
    match = bare_aggregate(
        Match,
        match_id,
        version,
        datetime.fromisoformat(state["created_on"]),
        datetime.fromisoformat(state["modified_on"]),
    )
    dropped = state["dropped"]
    match.__dict__.update(state["fields"])
    match.__dict__.update(
        {
            "_head_event": None,
            "_head_hash": state["head_hash"],
            "states": Trail([rules.decode(s) for s in state["states"]], dropped),
            "moves": Trail(state["moves"], dropped),
        }
    )
    return match


def attach(match: Match, fetch: Fetch) -> None:
    """Tell a restored match's trails how to fetch the history its snapshot left out."""
    loaded: list[tuple[list[object], list[MoveEntry]]] = []

    def whole() -> tuple[list[object], list[MoveEntry]]:
        if not loaded:  # one replay serves both trails
            loaded.append(fetch())
        return loaded[0]

    if isinstance(match.states, Trail):
        match.states.fetch_all = lambda: whole()[0]
    if isinstance(match.moves, Trail):
        match.moves.fetch_all = lambda: whole()[1]
