"""Auditing a match from its raw stored rows: is the log intact, and does the result hold?

The audit trusts nothing the store hands back. It reads the match's rows as stored, decodes each
one itself (a row that no longer decodes is a finding, not a crash), checks that the positions
run 1, 2, 3... without a gap and that every event holds the hash of the one before it, then
replays the moves through the rules with its own fold (independent of the aggregate's code) to
recompute the score after every move and set it beside each result the players claimed.

The report is plain values (the command line prints it as text or JSON; the HTTP API serves it).
Positions are event numbers: event 1 is the match's start, as stored (`originator_version`).
A *finding* is something wrong (the audit fails); a *note* is something an organiser should
know that is not wrong in itself (a score that hidden information keeps from being recomputed).
See docs/audit.md for what each check can and cannot prove.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from .errors import MatchNotFound
from .games import GameRules, RulesError, UnknownInformation, get_rules
from .match import ABANDONED, ENDED, RUNNING, Match, event_hash
from .recorder import PAGE, Recorder

AGREED_DRAW = "draw by agreement"


# ---- which matches -----------------------------------------------------------------------------

def match_ids(recorder: Recorder) -> list[UUID]:
    """Every match with at least one stored row, in the order they were first stored. Read from
    the raw notification log, so a match whose start was deleted or mangled is still found."""
    seen: dict[UUID, None] = {}
    position: int | None = None
    while True:
        page = recorder.recorder.select_notifications(start=position, limit=PAGE,
                                                      inclusive_of_start=False)
        seen.update((n.originator_id, None) for n in page)
        if len(page) < PAGE:
            return list(seen)
        position = page[-1].id


def find_match(recorder: Recorder, text: str) -> UUID:
    """Like `Recorder.find`, but still finds a match by prefix when its start row is damaged."""
    try:
        return recorder.find(text)
    except MatchNotFound:
        if len(text.strip()) < 4:
            raise
    except Exception:  # noqa: BLE001 - a tampered start row may fail to decode in any way
        pass
    prefix = text.strip().lower().replace("-", "")
    found = [i for i in match_ids(recorder) if i.hex.startswith(prefix)]
    if len(found) != 1:
        raise MatchNotFound(f"no match whose id starts with {text!r} in this store" if not found
                            else f"{len(found)} matches have ids starting with {text!r}")
    return found[0]


# ---- the audit ---------------------------------------------------------------------------------

def audit_all(recorder: Recorder) -> dict[str, Any]:
    reports = [audit_match(recorder, match_id) for match_id in match_ids(recorder)]
    return {"clean": all(r["clean"] for r in reports), "matches": reports}


def audit_match(recorder: Recorder, match_id: UUID, head: str | None = None) -> dict[str, Any]:
    """The audit report of one match; `head` is a receipt (a head hash, or a prefix of 8 or more
    of its characters) kept from an earlier audit or claim."""
    rows = recorder.recorder.select_events(match_id)
    if not rows:
        raise MatchNotFound(f"no match {match_id} in this store")
    audit = _Audit(match_id)
    events = audit.decode(recorder, rows)
    audit.check_positions(events)
    audit.check_chain(events)
    audit.replay(events)
    audit.compare_claims()
    if head is not None:
        audit.check_receipt(events, head)
    return audit.report(events)


@dataclass
class _Stored:
    """One stored row: its position, the event decoded from it (None if it no longer decodes)."""
    position: int
    event: Any
    hash: str | None


@dataclass
class _Step:
    """The position after an effective move (move 0 is the start) and the score the rules give."""
    move: int
    event: int
    seat: str | None
    entry: dict[str, Any] | None
    described: str | None
    state: Any
    totals: list[float] | None = None
    unknown: str | None = None  # why the score cannot be recomputed here

    def view(self, seats: list[str]) -> dict[str, Any]:
        return {"move": self.move, "event": self.event, "seat": self.seat, "entry": self.entry,
                "described": self.described, "unknown": self.unknown,
                "scores": None if self.totals is None else dict(zip(seats, self.totals))}


@dataclass
class _Claim:
    event: int
    by: str
    at: str
    scores: dict[str, float]
    line: list[_Step]  # the effective moves when the claim was made (later undos don't count)
    over: bool  # the game was over by the rules when the claim was made
    result: dict[str, Any] = field(default_factory=dict)


class _Audit:
    def __init__(self, match_id: UUID) -> None:
        self.match_id = match_id
        self.findings: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self.started: Any = None
        self.rules: GameRules | None = None
        self.seats: list[str] = []
        self.line: list[_Step] = []
        self.status = RUNNING
        self.replay_stopped_at: int | None = None
        self.claims: list[_Claim] = []
        self.undos: list[dict[str, Any]] = []
        self.disputes: list[dict[str, Any]] = []
        self.recorded_outcome: dict[str, Any] | None = None
        self.abandoned: dict[str, Any] | None = None

    def find(self, position: int | None, kind: str, message: str, **details: Any) -> None:
        self.findings.append({"event": position, "kind": kind, "message": message, **details})

    # ---- the log as stored --------------------------------------------------------------------

    def decode(self, recorder: Recorder, rows: Sequence[Any]) -> list[_Stored]:
        events = []
        for row in rows:
            try:
                event = recorder.mapper.to_domain_event(row)
                if not isinstance(event, Match.Event):
                    raise TypeError(f"{row.topic} is not an event of a match")
                stored = _Stored(row.originator_version, event, event_hash(event))
            except Exception as err:  # noqa: BLE001 - a tampered row may fail in any way
                reason = str(err).splitlines()[0] if str(err) else type(err).__name__
                self.find(row.originator_version, "undecodable",
                          f"event {row.originator_version} no longer decodes ({reason}): "
                          "its stored bytes were changed", topic=row.topic)
                stored = _Stored(row.originator_version, None, None)
            events.append(stored)
        return events

    def check_positions(self, events: list[_Stored]) -> None:
        """Positions run 1, 2, 3...: a gap is a deleted row (the store's key forbids duplicates;
        a row moved or inserted elsewhere breaks the hash chain instead)."""
        expected = Match.INITIAL_VERSION
        for stored in events:
            if stored.position > expected:
                missing = (f"event {expected} is" if stored.position == expected + 1 else
                           f"events {expected} to {stored.position - 1} are")
                self.find(expected, "missing", f"{missing} missing: deleted from the store",
                          missing=list(range(expected, stored.position)))
            expected = stored.position + 1

    def check_chain(self, events: list[_Stored]) -> None:
        """Every event holds `prev_hash`, the hash of the event before it; the first holds "".

        A broken link between events j-1 and j means one of the two is not what was recorded.
        Consecutive broken links are read together: an event whose links to BOTH neighbours are
        broken was itself replaced, inserted or moved (or had its seal edited); a lone broken
        link means the earlier event was edited after the later one sealed it (or, when the
        later one is the last, that the last was appended: only a receipt can tell those apart).
        """
        broken: list[tuple[_Stored, _Stored | None]] = []
        for before, stored in zip([None, *events], events):
            if stored.event is None or (before is not None and before.event is None):
                continue  # an undecodable row is a finding of its own
            if before is None:
                if stored.position == Match.INITIAL_VERSION and _seal(stored) != "":
                    broken.append((stored, None))
            elif stored.position == before.position + 1 and _seal(stored) != before.hash:
                broken.append((stored, before))  # (across a gap the deleted row explains it)
        for run in _runs(broken):
            self._report_broken_run(run, last=events[-1].position)

    def _report_broken_run(self, run: list[tuple[_Stored, _Stored | None]], last: int) -> None:
        first, before = run[0]
        if before is None:  # the first event's seal is not "": it is not the match's start
            self.find(first.position, "chain", f"event {first.position} claims a predecessor "
                      "but is stored as the first event: events before it were removed, or it "
                      "was edited", between=[first.position])
            run = run[1:]
            if not run:
                return
            first, before = run[0]
        if len(run) == 1:
            position, later = before.position, first.position
            if later == last:
                message = (f"event {later}, the last, does not follow event {position}: event "
                           f"{later} was appended or replaced, or event {position} was edited")
            else:
                message = (f"event {position} is not the event that event {later} sealed: it "
                           "was edited after it was recorded")
            self.find(position, "chain", message, between=[position, later])
            return
        # Links into and out of `first` are broken: the events from `first` on are not what was
        # stored there, up to the one before `end` (or `end` itself when nothing follows it).
        end = run[-1][0].position
        through = end if end == last else end - 1
        span = (f"event {first.position} is" if through == first.position
                else f"events {first.position} to {through} are")
        where = (f"after event {before.position}" if through == end
                 else f"between event {before.position} and event {end}")
        self.find(first.position, "chain", f"{span} not what was recorded {where}: replaced, "
                  "inserted, moved or edited", between=[before.position, end])

    def check_receipt(self, events: list[_Stored], head: str) -> None:
        receipt = head.strip().lower()
        if len(receipt) < 8:
            self.find(None, "receipt", "a receipt is a head hash (8 or more of its characters)")
            return
        for stored in reversed(events):
            if stored.hash and stored.hash.startswith(receipt):
                later = events[-1].position - stored.position
                if later:
                    self.notes.append(f"the receipt seals event {stored.position}; {later} "
                                      f"event{'s were' if later > 1 else ' was'} recorded after "
                                      "it (listed in the log): check they belong")
                else:
                    self.notes.append(f"the receipt matches the last event ({stored.position})")
                return
        self.find(None, "receipt", f"no event of this match hashes to the receipt {receipt}: the "
                  "event it sealed was deleted or changed")

    # ---- the replay ---------------------------------------------------------------------------

    def replay(self, events: list[_Stored]) -> None:
        decoded = [s for s in events if s.event is not None]
        if not decoded or type(decoded[0].event).__name__ != "Started" or decoded[0].position != 1:
            self.find(1, "replay", "the match's start (event 1) is missing or damaged: nothing "
                      "can be replayed")
            return
        for stored in decoded:
            name = type(stored.event).__name__
            try:
                handler = getattr(self, f"_on_{name}")
                handler(stored.position, stored.event)
            except (AttributeError, IndexError, KeyError, TypeError, ValueError) as err:
                # Fields missing or of the wrong shape: the row decodes but is not an event
                # the recorder could have written.
                self.find(stored.position, "replay", f"event {stored.position} ({name}) cannot "
                          f"be replayed: {type(err).__name__}: {err}")

    def _stop(self, position: int, message: str) -> None:
        self.find(position, "replay", message)
        self.replay_stopped_at = position

    @property
    def _replaying(self) -> bool:
        return self.rules is not None and self.replay_stopped_at is None

    def _on_Started(self, position: int, event: Any) -> None:  # noqa: N802 - event class names
        if self.started is not None:
            self.find(position, "replay", f"event {position} starts the match a second time")
            return
        self.started = event
        self.seats = list(event.seats)
        try:
            rules = get_rules(event.game)
        except RulesError as err:
            self._stop(position, f"the match cannot be replayed: {err}")
            return
        if event.rules_version != rules.version:
            self.find(position, "rules-version", f"event {position}: recorded under {rules.name} rules version "
                      f"{event.rules_version}; this Tablelog implements version {rules.version}, "
                      "so it cannot recompute this match")
            return
        try:
            state = rules.start(len(self.seats), event.options, event.setup)
        except RulesError as err:
            self._stop(position, f"the recorded setup is refused by the rules: {err}")
            return
        self.rules = rules
        self.line = [self._scored(_Step(0, position, None, None, None, state))]

    def _on_MoveRecorded(self, position: int, event: Any) -> None:  # noqa: N802
        number = len(self.line)
        if self.status != RUNNING:
            self.find(position, "replay", f"event {position} records a move in a match already "
                      f"{self.status}")
        if not self._replaying:
            return
        rules, state = self.rules, self.line[-1].state
        seat = event.seat
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            self._stop(position, f"event {position}: move {number} is by seat {seat!r}, "
                       "which this match does not have")
            return
        if seat not in rules.to_move(state):
            waiting = " or ".join(self.seats[s] for s in rules.to_move(state)) or "nobody"
            self._stop(position, f"event {position}: move {number} is by {self.seats[seat]}, "
                       f"but it was not their turn (waiting for {waiting})")
            return
        try:
            after = rules.apply(state, event.move)
        except RulesError as err:
            self._stop(position, f"event {position}: move {number} by {self.seats[seat]} "
                       f"({event.move}) breaks the rules: {err}")
            return
        self.line.append(self._scored(_Step(number, position, self.seats[seat], event.move,
                                            rules.describe(event.move), after)))

    def _on_MoveUndone(self, position: int, event: Any) -> None:  # noqa: N802
        undo = {"event": position, "by": event.by, "at": _when(event), "reason": event.reason,
                "withdrew": None}
        self.undos.append(undo)
        if self.status != RUNNING:
            self.find(position, "replay", f"event {position} undoes a move in a match already "
                      f"{self.status}")
        if not self._replaying:
            return
        if len(self.line) == 1:
            self._stop(position, f"event {position} undoes a move, but no move was left to undo")
            return
        withdrawn = self.line.pop()
        undo["withdrew"] = {"move": withdrawn.move, "event": withdrawn.event,
                            "seat": withdrawn.seat, "described": withdrawn.described}

    def _on_ResultClaimed(self, position: int, event: Any) -> None:  # noqa: N802
        if self.status == ABANDONED:
            self.find(position, "replay", f"event {position} claims a result for an abandoned "
                      "match")
        over = bool(self._replaying and self._outcome_now() is not None)
        self.claims.append(_Claim(position, event.by, _when(event), dict(event.scores),
                                  list(self.line) if self._replaying else [], over))

    def _on_DisputeRaised(self, position: int, event: Any) -> None:  # noqa: N802
        self.disputes.append({"event": position, "by": event.by, "at": _when(event),
                              "about": event.about,
                              "after_move": len(self.line) - 1 if self._replaying else None,
                              "ruling": None, "resolved_by": None, "resolved_at": None,
                              "resolved_event": None})

    def _on_DisputeResolved(self, position: int, event: Any) -> None:  # noqa: N802
        dispute = next((d for d in self.disputes if d["ruling"] is None), None)
        if dispute is None:
            self.find(position, "replay", f"event {position} resolves a dispute, but none was "
                      "open")
            return
        dispute.update(ruling=event.ruling, resolved_by=event.by, resolved_at=_when(event),
                       resolved_event=position)

    def _on_Ended(self, position: int, event: Any) -> None:  # noqa: N802
        if self.status != RUNNING:
            self.find(position, "replay", f"event {position} ends a match already {self.status}")
        self.status = ENDED
        self.recorded_outcome = dict(event.outcome)
        if not self._replaying:
            return
        try:
            outcome = self.rules.outcome(self.line[-1].state)
        except UnknownInformation as err:
            self.notes.append(f"the recorded outcome cannot be checked: {err}")
            return
        by_rules = outcome and outcome.to_json()
        if by_rules is None and event.outcome.get("reason") == AGREED_DRAW:
            return
        if by_rules != event.outcome:
            said = _outcome_text(self.seats, event.outcome)
            rules_say = (_outcome_text(self.seats, by_rules) if by_rules
                         else "the game was not over")
            self.find(position, "outcome", f"event {position} ends the match with {said}; by "
                      f"the rules {rules_say}")

    def _on_Abandoned(self, position: int, event: Any) -> None:  # noqa: N802
        if self.status != RUNNING:
            self.find(position, "replay", f"event {position} abandons a match already "
                      f"{self.status}")
        self.status = ABANDONED
        self.abandoned = {"event": position, "by": event.by, "at": _when(event),
                          "reason": event.reason}

    def _outcome_now(self) -> dict[str, Any] | None:
        """The rules' outcome at this point of the replay (None also when hidden information
        keeps it from being known)."""
        try:
            outcome = self.rules.outcome(self.line[-1].state)
        except UnknownInformation:
            return None
        return outcome and outcome.to_json()

    def _scored(self, step: _Step) -> _Step:
        try:
            step.totals = [entry["total"] for entry in self.rules.score(step.state)]
        except UnknownInformation as err:
            step.unknown = str(err)
        return step

    # ---- claims against the rules -------------------------------------------------------------

    def compare_claims(self) -> None:
        """Each claim is compared with the rules' score at the point it was made. For a seat
        that differs, the last earlier claim that agreed for that seat (else the start) opens
        the stretch in which the table and the rules parted; see `diverging_move`."""
        agreed_at: dict[str, _Step] = {}  # seat -> where its last claim agreed with the rules
        for claim in self.claims:
            self._compare(claim, agreed_at)

    def _compare(self, claim: _Claim, agreed_at: dict[str, _Step]) -> None:
        after = claim.line[-1] if claim.line else None
        claim.result = {"agrees": None, "differences": [], "diverging_move": None,
                        "recomputed": None}
        if after is None:
            self.notes.append(f"the claim at event {claim.event} cannot be checked: the match "
                              "could not be replayed up to it")
            return
        if after.totals is None:
            self.notes.append(f"the claim at event {claim.event} cannot be checked: the score "
                              f"after move {after.move} needs what the table never revealed "
                              f"({after.unknown})")
            return
        claim.result["recomputed"] = dict(zip(self.seats, after.totals))
        for name, claimed in claim.scores.items():
            seat = self.seats.index(name) if name in self.seats else None
            if seat is None:
                self.find(claim.event, "claim", f"the claim at event {claim.event} scores "
                          f"{name!r}, who has no seat in this match")
                continue
            if isinstance(claimed, bool) or not isinstance(claimed, (int, float)):
                self.find(claim.event, "claim", f"the claim at event {claim.event} gives "
                          f"{name} {claimed!r}, which is not a score")
                continue
            recomputed = after.totals[seat]
            if math.isclose(claimed, recomputed, abs_tol=1e-9):
                agreed_at[name] = after
                continue
            claim.result["differences"].append({
                "seat": name, "claimed": claimed, "recomputed": recomputed,
                "difference": claimed - recomputed,
                "diverging_move": diverging_move(claim.line, seat, name, claimed,
                                                 _index(claim.line, agreed_at.get(name)))})
        differences = claim.result["differences"]
        claim.result["agrees"] = not differences
        if not differences:
            return
        placed = [d["diverging_move"] for d in differences if d["diverging_move"]["move"]]
        claim.result["diverging_move"] = min(placed, key=lambda d: d["move"]) if placed else None
        self.find(claim.event, "claim", self._claim_message(claim), after_move=after.move,
                  diverging_move=claim.result["diverging_move"])

    def _claim_message(self, claim: _Claim) -> str:
        after = claim.line[-1]
        parts = [f"{d['seat']} claimed {_num(d['claimed'])}, the rules give "
                 f"{_num(d['recomputed'])} ({_num(abs(d['difference']))} too "
                 f"{'many' if d['difference'] > 0 else 'few'})"
                 for d in claim.result["differences"]]
        text = (f"the claim by {claim.by} at event {claim.event} (after move {after.move}) "
                f"differs: {'; '.join(parts)}")
        first = claim.result["diverging_move"]
        text += (f". They diverge from move {first['move']}: {first['explanation']}" if first
                 else ". " + claim.result["differences"][0]["diverging_move"]["explanation"])
        winner = self._claimed_winner_change(claim)
        return text + (f". {winner}" if winner else "")

    def _claimed_winner_change(self, claim: _Claim) -> str | None:
        """When a final claim is wrong: does the error change who wins?"""
        numbers = all(isinstance(v, (int, float)) for v in claim.scores.values())
        if not claim.over or set(claim.scores) != set(self.seats) or not numbers:
            return None
        best = max(claim.scores.values())
        leaders = [name for name in self.seats if claim.scores[name] == best]
        outcome = self.rules.outcome(claim.line[-1].state).to_json()
        winners = [_seat(self.seats, s) for s in outcome["winners"]]
        if sorted(leaders) == sorted(winners):
            return "The claimed scores still give the winner the rules give"
        return (f"The claimed scores put {' and '.join(leaders)} ahead; by the rules "
                f"{' and '.join(winners) or 'nobody'} {'wins' if len(winners) == 1 else 'win'}")

    # ---- the report ---------------------------------------------------------------------------

    def report(self, events: list[_Stored]) -> dict[str, Any]:
        for dispute in self.disputes:
            if dispute["ruling"] is None:
                self.find(dispute["event"], "dispute", f"the dispute raised by {dispute['by']} "
                          f"at event {dispute['event']} is still open: {dispute['about']}")
        if self._replaying and self.status == RUNNING and self._outcome_now() is not None:
            self.notes.append("the game is over by the rules but the match was never ended")
        self.findings.sort(key=lambda f: (f["event"] is None, f["event"] or 0))
        started, last = self.started, events[-1]
        scores = None
        if self._replaying:
            final = self.line[-1]
            scores = {"after_move": final.move, "totals": final.totals and dict(
                zip(self.seats, final.totals)), "unknown": final.unknown}
        return {
            "match": str(self.match_id),
            "game": getattr(started, "game", None),
            "seats": self.seats,
            "started_at": _when(started) if started else None,
            "status": "disputed" if any(d["ruling"] is None for d in self.disputes)
                      else self.status,
            "clean": not self.findings,
            "events": len(events),
            "head": {"event": last.position, "hash": last.hash},
            "findings": self.findings,
            "notes": self.notes,
            "moves": [step.view(self.seats) for step in self.line[1:]],
            "scores": scores,
            "claims": [{"event": c.event, "by": c.by, "at": c.at, "scores": c.scores,
                        "after_move": c.line[-1].move if c.line else None, "over": c.over,
                        **c.result} for c in self.claims],
            "undos": self.undos,
            "disputes": self.disputes,
            "outcome": {"recorded": _named(self.seats, self.recorded_outcome),
                        "rules": _named(self.seats, self._outcome_now())
                        if self._replaying else None},
            "abandoned": self.abandoned,
        }


def diverging_move(line: Sequence[_Step], seat: int, name: str, claimed: float,
                   start: int = 0) -> dict[str, Any]:
    """The move from which the rules' running total of `seat` can no longer reach `claimed`.

    `line` runs from the start to the claim; the table and the rules are known to agree at move
    `start` (an earlier claim that matched, or the start of the game). Scanning back from the
    claim, the last move count at which the rules' total equalled the claim, or stood on the
    other side of it, is where they parted: every total after it lies on the wrong side. If
    the claimed value was never reached in the stretch, the totals alone cannot place the move:
    the report says so and lists the moves that changed the seat's score there.
    """
    totals = [step.totals[seat] for step in line]
    final = totals[-1]
    for t in range(len(line) - 2, start - 1, -1):
        equal = math.isclose(totals[t], claimed, abs_tol=1e-9)
        if equal or (totals[t] - claimed) * (final - claimed) < 0:
            step, then = line[t + 1], _num(totals[t + 1])
            made = f"move {step.move} ({step.seat} {step.described})"
            explanation = (
                f"the rules gave {name} exactly the claimed {_num(claimed)} until {made} made "
                f"it {then}, and never again" if equal else
                f"{made} took {name}'s score by the rules from {_num(totals[t])} past the "
                f"claimed {_num(claimed)} to {then}, and it never came back")
            return {"move": step.move, "event": step.event, "seat": step.seat,
                    "described": step.described,
                    "how": "left the claimed value" if equal else "passed the claimed value",
                    "explanation": explanation}
    changed = [{"move": line[t].move, "change": totals[t] - totals[t - 1]}
               for t in range(start + 1, len(line)) if totals[t] != totals[t - 1]]
    listed = ", ".join(f"move {c['move']} ({_signed(c['change'])})" for c in changed) or "none"
    return {"move": None, "how": "never reached", "changed": changed,
            "explanation": f"by the rules {name}'s score was never {_num(claimed)} between move "
            f"{start} and move {line[-1].move}, so the totals alone cannot name the move "
            f"(moves that changed it there: {listed}); a claim entered after every round "
            "narrows it down"}


# ---- small helpers -----------------------------------------------------------------------------

def _seal(stored: _Stored) -> Any:
    return getattr(stored.event, "prev_hash", None)


def _runs(broken: list[tuple[_Stored, _Stored | None]]) -> Iterator[list[tuple[_Stored, Any]]]:
    """Group broken links whose positions follow one another."""
    run: list[tuple[_Stored, Any]] = []
    for link in broken:
        if run and link[0].position != run[-1][0].position + 1:
            yield run
            run = []
        run.append(link)
    if run:
        yield run


def _index(line: Sequence[_Step], step: _Step | None) -> int:
    """Where `step` is on `line` (0, the start, if an undo has since taken it off the line)."""
    return next((i for i, on_line in enumerate(line) if on_line is step), 0)


def _when(event: Any) -> str:
    stamp = getattr(event, "timestamp", None)
    return stamp.isoformat(timespec="seconds") if isinstance(stamp, datetime) else repr(stamp)


def _num(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _signed(value: float) -> str:
    return f"+{_num(value)}" if value > 0 else _num(value)


def _named(seats: list[str], outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"winners": [_seat(seats, s) for s in outcome.get("winners", [])],
            "ranking": [[_seat(seats, s) for s in group] for group in outcome.get("ranking", [])],
            "reason": outcome.get("reason")}


def _seat(seats: list[str], index: Any) -> str:
    """A seat's name; a stored index that names no seat (a tampered row) is shown as stored."""
    if type(index) is int and 0 <= index < len(seats):
        return seats[index]
    return f"seat {index!r}"


def _outcome_text(seats: list[str], outcome: dict[str, Any]) -> str:
    winners = [_seat(seats, s) for s in outcome.get("winners", [])]
    who = f"{' and '.join(winners)} winning" if winners else "no winner"
    return f"{who} ({outcome.get('reason')})"
