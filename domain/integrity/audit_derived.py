"""The audit's check of derived values: what a match stores beside its moves
(`domain.matches.derived`: the totals after a move, the mover's change, the final scores and
components) must be what the rules give. Readers such as the projection tables trust them instead of
running the rules again, and they are left out of the hash chain, so this is where a stored derived
value that disagrees with the rules (edited, or written by a faulty recorder) is found.

`DerivedReplay` is the audit's replay that also keeps, for each move and for the end, what the
rules gave there (the replay computes it anyway); `check_derived` then compares each event's
stored values with them. Events stored before derived values existed have none to check.
"""

from __future__ import annotations

from ..games import RulesError
from ..matches import derived
from ..matches import event_fields as fields
from .audit_chain import Stored
from .audit_claims import Replay, Step
from .audit_text import step


class DerivedReplay(Replay):
    """The replay, keeping what the rules give at each move event and at the end."""

    def __init__(self) -> None:
        super().__init__()
        self.expected: dict[int, object] = {}  # event position -> the derived values it should hold

    def _on_MoveRecorded(self, position: int, event: fields.MoveRecorded) -> None:
        before = self.line[-1] if self.line else None
        super()._on_MoveRecorded(position, event)
        after = self.line[-1] if self.line else None
        if before is None or after is None or after.event != position:
            return  # the move was not replayed (a finding says why)
        if before.unknown is None and after.unknown is None:  # else a note says why not
            self.expected[position] = self._after_move(before, after, event.seat)

    def _after_move(self, before: Step, after: Step, seat: int) -> derived.MoveDerived:
        if not self.started_rules.scores_as_it_goes:
            return derived.after_move(None, None, seat)
        return derived.after_move(_floats(before.totals), _floats(after.totals), seat)

    def _on_Ended(self, position: int, event: fields.Ended) -> None:
        super()._on_Ended(position, event)
        if not self.replaying or getattr(event, derived.FIELD, None) is None:
            return
        if self.line[-1].unknown is not None:
            return  # the final score cannot be recomputed (a note says so)
        rules, final = self.started_rules, self.line[-1].state
        try:
            decided = rules.outcome(final) is not None
        except RulesError:
            return  # the outcome itself cannot be checked (a note says so already)
        moves = [(self.seats.index(step.seat), step.entry) for step in self.line[1:] if step.seat]
        self.expected[position] = derived.at_end(rules, final, decided, moves)


WHAT = {"MoveRecorded": "a move", "Ended": "the end"}  # the events that store derived values


def _floats(totals: list[float] | None) -> list[float] | None:
    return None if totals is None else [float(t) for t in totals]


def check_derived(audit: DerivedReplay, events: list[Stored]) -> None:
    """A finding for every event whose stored derived values differ from the rules'."""
    for stored in events:
        held = getattr(stored.event, derived.FIELD, None)
        if held is None or stored.position not in audit.expected:
            continue
        expected = audit.expected[stored.position]
        if held != expected:
            kind = WHAT.get(type(stored.event).__name__, "event")
            audit.find(
                stored.position,
                "derived",
                f"{step(stored.position)} ({kind}) stores derived values that the rules do "
                f"not give: stored {_differing(held, expected)}",
            )


def _differing(held: object, expected: object) -> str:
    """The fields that differ, stored against recomputed (briefly: a match may be long)."""
    if isinstance(held, dict) and isinstance(expected, dict):
        names = sorted(set(held) | set(expected), key=str)
        return "; ".join(
            f"{name} {held.get(name)!r}, the rules give {expected.get(name)!r}"
            for name in names
            if held.get(name) != expected.get(name)
        )
    return f"{held!r}, the rules give {expected!r}"
