"""The match replayed through the rules, and each claimed result set beside the rules' score.

The replay is the audit's own fold over the decoded events (independent of the aggregate's
code): it recomputes the score after every effective move, follows undos, disputes and the
end, and keeps each claim with the line of moves it was made on. `compare_claims` then sets
every claim beside the rules and, where they differ, names the move they parted at.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Required, TypedDict

from ..games import GameRules, RulesError, UnknownInformation, get_rules
from ..games.base import Move
from ..matches import event_fields as fields
from ..matches.entering import entered_by_name
from ..matches.match import ABANDONED, ENDED, RUNNING, components_of, initial_state
from ..plain import PlainDict, PlainValue
from . import audit_sheet
from .audit_chain import Stored
from .audit_findings import Findings
from .audit_text import (
    claim_sentence,
    num,
    outcome_text,
    seat_name,
    sentence,
    signed,
    step,
    when,
    winner_sentence,
)

AGREED_DRAW = "draw by agreement"


class StepView(TypedDict):
    """A step as the audit's report lists it (`Step.view`)."""

    move: int
    event: int
    seat: str | None
    entry: Move | None
    described: str | None
    unknown: str | None
    scores: dict[str, float] | None


class ScoreChange(TypedDict):
    """A move that changed a seat's score by the rules (`diverging_move`)."""

    move: int
    change: float


class DivergingMove(TypedDict, total=False):
    """Where the table and the rules parted (`diverging_move`): the move, or None with the
    moves that changed the seat's score where the totals alone cannot name it."""

    move: Required[int | None]
    event: int
    seat: str | None
    described: str | None
    how: Required[str]
    changed: list[ScoreChange]
    explanation: Required[str]


@dataclass
class Step:
    """The position after an effective move (move 0 is the start) and the score the rules give."""

    move: int
    event: int
    seat: str | None
    entry: Move | None
    described: str | None
    state: object  # the game's own position, only handed back to its rules
    totals: list[float] | None = None
    unknown: str | None = None  # why the score cannot be recomputed here

    def view(self, seats: list[str]) -> StepView:
        return {
            "move": self.move,
            "event": self.event,
            "seat": self.seat,
            "entry": self.entry,
            "described": self.described,
            "unknown": self.unknown,
            "scores": None if self.totals is None else dict(zip(seats, self.totals)),
        }


@dataclass
class Claim:
    event: int
    by: str
    at: str
    scores: PlainDict  # as stored: a tampered claim may hold anything (audit_sheet says so)
    line: list[Step]  # the effective moves when the claim was made (later undos don't count)
    over: bool  # the game was over by the rules when the claim was made
    result: dict[str, Any] = field(default_factory=dict)


class Replay(Findings):
    """One audit's replay: its findings and notes, and what the events say happened."""

    def __init__(self) -> None:
        super().__init__()
        self.started: fields.Started | None = None
        self.rules: GameRules[Any] | None = None
        self.seats: list[str] = []
        self.line: list[Step] = []
        self.status = RUNNING
        self.replay_stopped_at: int | None = None
        self.claims: list[Claim] = []
        self.undos: list[PlainDict] = []
        self.disputes: list[dict[str, Any]] = []
        self.recorded_outcome: PlainDict | None = None
        self.abandoned: PlainDict | None = None
        self.sheet: dict[str, Any] | None = None  # a score-sheet match (see audit_sheet)
        self.entered: dict[int, str] = {}  # event -> who entered it (domain.matches.entering)

    # ---- the replay ---------------------------------------------------------------------------

    def replay(self, events: list[Stored]) -> None:
        decoded = [s for s in events if s.event is not None]
        if not decoded or type(decoded[0].event).__name__ != "Started" or decoded[0].position != 1:
            self.find(
                1,
                "replay",
                "the match's start (event 1) is missing or damaged: nothing can be replayed",
            )
            return
        for stored in decoded:
            name = type(stored.event).__name__
            self.entered[stored.position] = entered_by_name(stored.event)
            try:
                handler = getattr(self, f"_on_{name}")
                handler(stored.position, stored.event)
            except (AttributeError, IndexError, KeyError, TypeError, ValueError) as err:
                # Fields missing or of the wrong shape: the row decodes but is not an event
                # the recorder could have written.
                self.find(
                    stored.position,
                    "replay",
                    f"{step(stored.position)} ({name}) cannot "
                    f"be replayed: {type(err).__name__}: {err}",
                )

    def _stop(self, position: int, message: str) -> None:
        self.find(position, "replay", message)
        self.replay_stopped_at = position

    @property
    def replaying(self) -> bool:
        return self.rules is not None and self.replay_stopped_at is None

    @property
    def started_rules(self) -> GameRules[Any]:
        """The rules of the replay, which only ever runs after the match's start."""
        if self.rules is None:
            raise ValueError("the replay has not started: no start event was read")
        return self.rules

    # The handlers are named after the event classes (`replay` finds them by name).
    def _on_Started(self, position: int, event: fields.Started) -> None:
        if self.started is not None:
            self.find(position, "replay", f"{step(position)} starts the match a second time")
            return
        self.started = event
        self.seats = list(event.seats)
        if getattr(event, "kind", None) == "sheet":  # no moves: nothing to replay
            audit_sheet.started(self, position, event)
            return
        try:
            rules = get_rules(event.game)
        except RulesError as err:
            self._stop(position, f"the match cannot be replayed: {err}")
            return
        try:
            components = components_of(event.options, event.components)
            state = initial_state(
                rules, len(self.seats), event.rules_version, event.options, event.setup, components
            )
        except RulesError as err:
            self._stop(position, f"the match cannot be replayed: {err}")
            return
        self.rules = rules
        self.line = [self._scored(Step(0, position, None, None, None, state))]

    def _on_SheetRecorded(self, position: int, event: fields.SheetRecorded) -> None:
        audit_sheet.recorded(self, position, event)

    def _on_MoveRecorded(self, position: int, event: fields.MoveRecorded) -> None:
        if self.sheet is not None:
            self.find(position, "replay", f"{step(position)} records a move in a score-sheet match")
            return
        number = len(self.line)
        if self.status != RUNNING:
            self.find(
                position,
                "replay",
                f"{step(position)} records a move in a match already {self.status}",
            )
        if not self.replaying:
            return
        rules, state = self.started_rules, self.line[-1].state
        seat = event.seat
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            self._stop(
                position,
                f"{step(position)}: move {number} is by seat {seat!r}, "
                "which this match does not have",
            )
            return
        if seat not in rules.to_move(state):
            waiting = " or ".join(self.seats[s] for s in rules.to_move(state)) or "nobody"
            self._stop(
                position,
                f"{step(position)}: move {number} is by {self.seats[seat]}, "
                f"but it was not their turn (waiting for {waiting})",
            )
            return
        try:
            after = rules.apply(state, event.move)
        except RulesError as err:
            self._stop(
                position,
                f"{step(position)}: move {number} by {self.seats[seat]} "
                f"({event.move}) breaks the rules: {err}",
            )
            return
        self.line.append(
            self._scored(
                Step(
                    number,
                    position,
                    self.seats[seat],
                    event.move,
                    rules.describe(event.move, self.seats),
                    after,
                )
            )
        )

    def _on_MoveUndone(self, position: int, event: fields.ByWhomWhy) -> None:
        undo: PlainDict = {
            "event": position,
            "by": event.by,
            "at": when(event),
            "reason": event.reason,
            "withdrew": None,
        }
        self.undos.append(undo)
        if self.status != RUNNING:
            self.find(
                position,
                "replay",
                f"{step(position)} undoes a move in a match already {self.status}",
            )
        if not self.replaying:
            return
        if len(self.line) == 1:
            self._stop(position, f"{step(position)} undoes a move, but no move was left to undo")
            return
        withdrawn = self.line.pop()
        undo["withdrew"] = {
            "move": withdrawn.move,
            "event": withdrawn.event,
            "seat": withdrawn.seat,
            "described": withdrawn.described,
        }

    def _on_ResultClaimed(self, position: int, event: fields.ResultClaimed) -> None:
        if self.status == ABANDONED:
            self.find(
                position, "replay", f"{step(position)} claims a result for an abandoned match"
            )
        over = bool(self.replaying and self.outcome_now() is not None)
        self.claims.append(
            Claim(
                position,
                event.by,
                when(event),
                dict(event.scores),
                list(self.line) if self.replaying else [],
                over,
            )
        )

    def _on_DisputeRaised(self, position: int, event: fields.DisputeRaised) -> None:
        disputed = self.line[-1] if self.replaying and len(self.line) > 1 else None
        self.disputes.append(
            {
                "event": position,
                "by": event.by,
                "at": when(event),
                "about": event.about,
                "after_move": len(self.line) - 1 if self.replaying else None,
                "raised_by": entered_by_name(event),  # who entered the dispute
                # who entered the move it follows (the disputed move; None: no move yet)
                "move_entered_by": None if disputed is None else self.entered[disputed.event],
                "ruling": None,
                "resolved_by": None,
                "resolved_at": None,
                "resolved_event": None,
                "ruling_entered_by": None,
                "signed": None,  # an umpire's signed ruling, in words (audit_rulings)
            }
        )

    def _on_DisputeResolved(self, position: int, event: fields.DisputeResolved) -> None:
        dispute = next((d for d in self.disputes if d["ruling"] is None), None)
        if dispute is None:
            self.find(position, "replay", f"{step(position)} resolves a dispute, but none was open")
            return
        dispute.update(
            ruling=event.ruling,
            resolved_by=event.by,
            ruling_entered_by=entered_by_name(event),
            resolved_at=when(event),
            resolved_event=position,
        )

    def _on_Ended(self, position: int, event: fields.Ended) -> None:
        if self.status != RUNNING:
            self.find(position, "replay", f"{step(position)} ends a match already {self.status}")
        self.status = ENDED
        self.recorded_outcome = dict(event.outcome)
        if not self.replaying:
            return
        try:
            outcome = self.started_rules.outcome(self.line[-1].state)
        except UnknownInformation as err:
            self.notes.append(f"the recorded outcome cannot be checked: {err}")
            return
        by_rules = outcome and outcome.to_json()
        if by_rules is None and event.outcome.get("reason") == AGREED_DRAW:
            return
        if by_rules != event.outcome:
            said = outcome_text(self.seats, event.outcome)
            rules_say = outcome_text(self.seats, by_rules) if by_rules else "the game was not over"
            self.find(
                position,
                "outcome",
                f"{step(position)} ends the match with {said}; by the rules {rules_say}",
            )

    def _on_Abandoned(self, position: int, event: fields.ByWhomWhy) -> None:
        if self.status != RUNNING:
            self.find(
                position, "replay", f"{step(position)} abandons a match already {self.status}"
            )
        self.status = ABANDONED
        self.abandoned = {
            "event": position,
            "by": event.by,
            "at": when(event),
            "reason": event.reason,
        }

    def outcome_now(self) -> PlainDict | None:
        """The rules' outcome at this point of the replay (None also when hidden information
        keeps it from being known)."""
        try:
            outcome = self.started_rules.outcome(self.line[-1].state)
        except UnknownInformation:
            return None
        return outcome.to_json() if outcome else None

    def _scored(self, step: Step) -> Step:
        try:
            step.totals = [entry["total"] for entry in self.started_rules.score(step.state)]
        except UnknownInformation as err:
            step.unknown = str(err)
        return step

    # ---- claims against the rules -------------------------------------------------------------

    def compare_claims(self) -> None:
        """Each claim is compared with the rules' score at the point it was made. For a seat
        that differs, the last earlier claim that agreed for that seat (else the start) opens
        the stretch in which the table and the rules parted; see `diverging_move`."""
        if self.sheet is not None:
            audit_sheet.compare_claims(self)
            return
        agreed_at: dict[str, Step] = {}  # seat -> where its last claim agreed with the rules
        for claim in self.claims:
            self._compare(claim, agreed_at)

    def _compare(self, claim: Claim, agreed_at: dict[str, Step]) -> None:
        after = claim.line[-1] if claim.line else None
        claim.result = {
            "agrees": None,
            "differences": [],
            "diverging_move": None,
            "recomputed": None,
        }
        if after is None:
            self.notes.append(
                f"the claim at {step(claim.event)} cannot be checked: the match "
                "could not be replayed up to it"
            )
            return
        if after.totals is None:
            self.notes.append(
                f"the claim at {step(claim.event)} cannot be checked: the score "
                f"after move {after.move} needs what the table never revealed "
                f"({after.unknown})"
            )
            return
        claim.result["recomputed"] = dict(zip(self.seats, after.totals))
        for name, claimed in claim.scores.items():
            self._compare_seat(claim, after, after.totals, name, claimed, agreed_at)
        differences = claim.result["differences"]
        claim.result["agrees"] = not differences
        if not differences:
            return
        placed = [d["diverging_move"] for d in differences if d["diverging_move"]["move"]]
        claim.result["diverging_move"] = min(placed, key=lambda d: d["move"]) if placed else None
        self.find(
            claim.event,
            "claim",
            self._claim_message(claim),
            after_move=after.move,
            diverging_move=claim.result["diverging_move"],
        )

    def _compare_seat(
        self,
        claim: Claim,
        after: Step,
        totals: list[float],
        name: str,
        claimed: PlainValue,
        agreed_at: dict[str, Step],
    ) -> None:
        """One seat's claimed score against the rules' total after the same move: the step is
        remembered where they agree, a difference is added to the claim's result where not."""
        seat = self.seats.index(name) if name in self.seats else None
        if seat is None:
            self.find(
                claim.event,
                "claim",
                f"the claim at {step(claim.event)} scores {name!r}, who has no seat in this match",
            )
            return
        if isinstance(claimed, bool) or not isinstance(claimed, (int, float)):
            self.find(
                claim.event,
                "claim",
                f"the claim at {step(claim.event)} gives {name} {claimed!r}, which is not a score",
            )
            return
        recomputed = totals[seat]
        if math.isclose(claimed, recomputed, abs_tol=1e-9):
            agreed_at[name] = after
            return
        claim.result["differences"].append(
            {
                "seat": name,
                "claimed": claimed,
                "recomputed": recomputed,
                "difference": claimed - recomputed,
                "diverging_move": diverging_move(
                    claim.line, seat, name, claimed, _index(claim.line, agreed_at.get(name))
                ),
            }
        )

    def _claim_message(self, claim: Claim) -> str:
        """One sentence per seat that differs, where the table and the rules parted, and
        whether it changes who wins."""
        after = claim.line[-1]
        text = " ".join(
            claim_sentence(claim.by, claim.event, after.move, d)
            for d in claim.result["differences"]
        )
        first = claim.result["diverging_move"]
        text += (
            f" The table and the rules part at move {first['move']}: {first['explanation']}."
            if first
            else " "
            + sentence(claim.result["differences"][0]["diverging_move"]["explanation"])
            + "."
        )
        winner = self._claimed_winner_change(claim)
        return text + (f" {winner}" if winner else "")

    def _claimed_winner_change(self, claim: Claim) -> str | None:
        """When a final claim is wrong: does the error change who wins?"""
        numbers = [v for v in claim.scores.values() if isinstance(v, (int, float))]
        if (
            not claim.over
            or set(claim.scores) != set(self.seats)
            or len(numbers) < len(claim.scores)
        ):
            return None
        best = max(numbers)
        leaders = [name for name in self.seats if claim.scores[name] == best]
        outcome = self.started_rules.outcome(claim.line[-1].state)
        winners = [seat_name(self.seats, s) for s in (outcome.winners if outcome else ())]
        return winner_sentence(leaders, winners)


def diverging_move(
    line: Sequence[Step], seat: int, name: str, claimed: float, start: int = 0
) -> DivergingMove:
    """The move from which the rules' running total of `seat` can no longer reach `claimed`.

    `line` runs from the start to the claim; the table and the rules are known to agree at move
    `start` (an earlier claim that matched, or the start of the game). Scanning back from the
    claim, the last move count at which the rules' total equalled the claim, or stood on the
    other side of it, is where they parted: every total after it lies on the wrong side. If
    the claimed value was never reached in the stretch, the totals alone cannot place the move:
    the report says so and lists the moves that changed the seat's score there.
    """
    totals = [_total(step, seat) for step in line]
    final = totals[-1]
    for t in range(len(line) - 2, start - 1, -1):
        equal = math.isclose(totals[t], claimed, abs_tol=1e-9)
        if equal or (totals[t] - claimed) * (final - claimed) < 0:
            step, then = line[t + 1], num(totals[t + 1])
            made = f"move {step.move} ({step.seat} {step.described})"
            explanation = (
                f"the rules gave {name} exactly the claimed {num(claimed)} until {made} made "
                f"it {then}, and never again"
                if equal
                else f"{made} took {name}'s score by the rules from {num(totals[t])} past the "
                f"claimed {num(claimed)} to {then}, and it never came back"
            )
            return {
                "move": step.move,
                "event": step.event,
                "seat": step.seat,
                "described": step.described,
                "how": "left the claimed value" if equal else "passed the claimed value",
                "explanation": explanation,
            }
    changed: list[ScoreChange] = [
        {"move": line[t].move, "change": totals[t] - totals[t - 1]}
        for t in range(start + 1, len(line))
        if totals[t] != totals[t - 1]
    ]
    listed = ", ".join(f"move {c['move']} ({signed(c['change'])})" for c in changed) or "none"
    return {
        "move": None,
        "how": "never reached",
        "changed": changed,
        "explanation": f"by the rules {name}'s score was never {num(claimed)} between move "
        f"{start} and move {line[-1].move}, so the totals alone cannot name the move "
        f"(moves that changed it there: {listed}); a claim entered after every round "
        "narrows it down",
    }


def _total(step: Step, seat: int) -> float:
    """The rules' total of `seat` at `step`; a step hidden information left unscored (a
    Topiary hand not yet revealed) cannot place a divergence."""
    if step.totals is None:
        raise UnknownInformation(step.unknown or f"move {step.move} has no score by the rules")
    return step.totals[seat]


def _index(line: Sequence[Step], step: Step | None) -> int:
    """Where `step` is on `line` (0, the start, if an undo has since taken it off the line)."""
    return next((i for i, on_line in enumerate(line) if on_line is step), 0)
