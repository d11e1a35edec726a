"""The Match aggregate: one game at one table, as a sequence of immutable events.

Command methods check every invariant (whose turn, the rules, the match still open) BEFORE they
trigger an event, so a refused entry stores nothing; the `@event` bodies only apply the pure
rules. Every event carries `prev_hash`, the SHA-256 of the match's previous event, so an edited,
deleted, reordered or inserted stored event breaks the chain (see `event_hash`).
"""

from __future__ import annotations

import hashlib
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.domain import Aggregate, event

from .errors import MatchClosed, NotYourTurn, Refused
from .games import GameRules, Outcome, get_rules
from .values import stored_text, stored_value

RUNNING, ENDED, ABANDONED = "running", "ended", "abandoned"


def canonical_json(value: Any) -> bytes:
    """The one JSON spelling hashes are taken over: UTF-8, sorted keys, no spaces, tuples as
    lists, UUIDs as text, datetimes in ISO 8601."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def event_hash(event: Any) -> str:
    """SHA-256 over everything an event stores: its match, position, time, type and fields."""
    body = dict(vars(event))
    body["type"] = type(event).__name__
    return hashlib.sha256(canonical_json(body)).hexdigest()


def plain_json(value: Any, what: str) -> Any:
    """`value` as it will come back from the store: plain JSON the store round-trips exactly
    (see `values`), or a Refused naming `what`; checked before any event is triggered."""
    return stored_value(value, what)


class Match(Aggregate):
    class Event(Aggregate.Event):
        prev_hash: str
        # Every field but the timestamp is plain JSON (see plain_json): stored the lean way.
        plain_json_fields = True

        def mutate(self, aggregate: Match | None) -> Match | None:
            aggregate = super().mutate(aggregate)
            # Only the newest event's hash is ever needed (to chain the next one), so replay
            # keeps the event and hashes it on demand rather than hashing every event.
            aggregate._head_event = self
            aggregate._head_hash = None
            return aggregate

    class Created(Event, Aggregate.Created):
        pass

    @classmethod
    def _create(cls, event_class, *, id=None, **kwargs):  # noqa: A002 - the library's name
        # The first event of a match has no predecessor: its chain starts from "".
        return super()._create(event_class, id=id, prev_hash="", **kwargs)

    def trigger_event(self, event_class, **kwargs):
        super().trigger_event(event_class, prev_hash=self.head_hash, **kwargs)

    # ---- events (bodies apply, never check) -------------------------------------------------

    @event("Started")
    def __init__(self, id: UUID, game: str, rules_version: str, options: dict,
                 seats: list, setup: dict) -> None:
        self.game = game
        self.rules_version = rules_version
        self.options = options
        self.seats = list(seats)
        self.setup = setup
        # A match recorded under an earlier rules version replays with that version's readings.
        played = self.rules.replay_options(rules_version, options)
        self.states = [self.rules.start(len(seats), played, setup)]
        self.moves: list[dict[str, Any]] = []  # the effective moves: seat, move, event version
        self.status = RUNNING
        self.outcome: dict[str, Any] | None = None
        self.claims: list[dict[str, Any]] = []
        self.disputes: list[dict[str, Any]] = []
        self.undos: list[dict[str, Any]] = []

    @event("MoveRecorded")
    def _move_recorded(self, seat: int, move: dict) -> None:
        checked = self.__dict__.pop("_checked", None)  # set by record(); absent on replay
        if checked is not None and checked[0] is move:
            self.states.append(checked[1])
        else:
            self.states.append(self.rules.apply(self.states[-1], move))
        self.moves.append({"seat": seat, "move": move, "version": self.version + 1})

    @event("MoveUndone")
    def _move_undone(self, by: str, reason: str) -> None:
        withdrawn = self.moves.pop()
        self.states.pop()
        self.undos.append({"by": by, "reason": reason, "move": withdrawn,
                           "version": self.version + 1})

    @event("ResultClaimed")
    def _result_claimed(self, by: str, scores: dict) -> None:
        self.claims.append({"by": by, "scores": scores, "moves": len(self.moves),
                            "version": self.version + 1})

    @event("DisputeRaised")
    def _dispute_raised(self, by: str, about: str) -> None:
        self.disputes.append({"by": by, "about": about, "raised_version": self.version + 1,
                              "ruling": None, "resolved_by": None})

    @event("DisputeResolved")
    def _dispute_resolved(self, by: str, ruling: str) -> None:
        dispute = next(d for d in self.disputes if d["ruling"] is None)
        dispute.update(ruling=ruling, resolved_by=by, resolved_version=self.version + 1)

    @event("Ended")
    def _ended(self, outcome: dict) -> None:
        self.status = ENDED
        self.outcome = outcome

    @event("Abandoned")
    def _abandoned(self, by: str, reason: str) -> None:
        self.status = ABANDONED
        self.abandoned = {"by": by, "reason": reason}

    def collect_events(self) -> list[Event]:
        # The library pops pending events one at a time from the front of the list.
        collected, self._pending_events = self._pending_events, []
        return collected

    # ---- reading ----------------------------------------------------------------------------

    @property
    def head_hash(self) -> str:
        """The hash of the match's newest event: what the next event's `prev_hash` must be."""
        if self._head_hash is None:
            self._head_hash = event_hash(self._head_event)
        return self._head_hash

    @property
    def rules(self) -> GameRules:
        return get_rules(self.game)

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def open_disputes(self) -> list[dict[str, Any]]:
        return [d for d in self.disputes if d["ruling"] is None]

    def rules_outcome(self) -> Outcome | None:
        return self.rules.outcome(self.state)

    def seat_index(self, seat: str | int) -> int:
        """A seat given by player name, by its number as text ("1" = first in turn order, as
        typed at the command line) or by its index (an int, 0 = first)."""
        if isinstance(seat, str) and seat in self.seats:
            return self.seats.index(seat)
        # ASCII digits only: str.isdigit() takes "²" (which int() refuses) and int() takes "١"
        # (Arabic-Indic one), neither of which anyone types to mean a seat number.
        if (isinstance(seat, str) and seat.isascii() and seat.isdigit() and len(seat) <= 3
                and 1 <= int(seat) <= len(self.seats)):
            return int(seat) - 1
        if type(seat) is int and 0 <= seat < len(self.seats):
            return seat
        shown = _short_repr(seat)
        raise Refused(f"{shown} is not a seat of this match; seats: {', '.join(self.seats)}")

    # ---- commands (check, then trigger) -----------------------------------------------------

    def _require(self, *statuses: str) -> None:
        if self.status not in statuses:
            raise MatchClosed(f"the match is {self.status}: it takes no more of that")

    def record(self, seat: str | int, move: Any) -> None:
        self._require(RUNNING)
        index = self.seat_index(seat)
        move = plain_json(move, "a move")
        awaited = self.rules.to_move(self.state)
        if not awaited:
            raise MatchClosed("the game is over: no more moves (end the match to close it)")
        if index not in awaited:
            names = " or ".join(self.seats[i] for i in awaited)
            raise NotYourTurn(f"it is not {self.seats[index]}'s turn: waiting for {names}")
        after = self.rules.apply(self.state, move)  # IllegalMove before anything is triggered
        self._checked = (move, after)  # the event body takes this rather than apply twice
        self._move_recorded(seat=index, move=move)

    def undo(self, by: str, reason: str) -> None:
        self._require(RUNNING)
        _require_text(by, "who undoes the move (--by)")
        _require_text(reason, "the reason for the undo")
        if not self.moves:
            raise Refused("there is no move to undo")
        self._move_undone(by=by, reason=reason)

    def claim(self, by: str, scores: Any) -> None:
        self._require(RUNNING, ENDED)
        _require_text(by, "who claims the result (--by)")
        scores = plain_json(scores, "claimed scores")
        if not isinstance(scores, dict) or not scores:
            raise Refused('claimed scores are a JSON object {"player": points, ...}')
        for name, points in scores.items():
            self.seat_index(name)
            if isinstance(points, bool) or not isinstance(points, (int, float)):
                raise Refused(f"claimed score of {name} must be a number, got {points!r}")
        self._result_claimed(by=by, scores=scores)

    def dispute(self, by: str, about: str) -> None:
        _require_text(by, "who raises the dispute (--by)")
        _require_text(about, "what the dispute is about (--about)")
        self._dispute_raised(by=by, about=about)

    def resolve(self, by: str, ruling: str) -> None:
        _require_text(by, "who resolves the dispute (--by)")
        _require_text(ruling, "the ruling")
        if not self.open_disputes:
            raise Refused("there is no open dispute to resolve")
        self._dispute_resolved(by=by, ruling=ruling)

    def end(self, agreed_draw: bool = False) -> None:
        self._require(RUNNING)
        outcome = self.rules_outcome()
        if outcome is None:
            if not agreed_draw:
                raise Refused("the game is not over by the rules; end it as a draw by agreement "
                              "or abandon it")
            everyone = tuple(range(len(self.seats)))
            outcome = Outcome((), (everyone,), "draw by agreement")
        self._ended(outcome=outcome.to_json())

    def abandon(self, by: str, reason: str) -> None:
        self._require(RUNNING)
        _require_text(by, "who abandons the match (--by)")
        _require_text(reason, "the reason")
        self._abandoned(by=by, reason=reason)


def _require_text(value: Any, what: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise Refused(f"{what} must be given")
    stored_text(value, what)  # a lone surrogate or NUL is refused here, before the event


def _short_repr(value: Any) -> str:
    """A seat as a message quotes it: short, since it may be a whole object sent where a name
    belongs (repr escapes what no output can print, such as a lone surrogate)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def start_match(id: UUID, game: str, seats: list[str], options: Any = None,  # noqa: A002
                setup: Any = None, rules_version: str | None = None) -> Match:
    """A new Match, after checking the seats, options and setup against the game's rules.

    `rules_version` is for records made under an earlier version (imports): the match then
    plays by that version's readings (`GameRules.replay_options`)."""
    rules = get_rules(game)
    rules_version = rules.version if rules_version is None else str(rules_version)
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise Refused("seats are the players' names in turn order, none empty")
    seats = [s.strip() for s in stored_value(seats, "the players' names")]
    if not seats or any(not s for s in seats):
        raise Refused("seats are the players' names in turn order, none empty")
    if len(set(seats)) != len(seats):
        raise Refused("two seats have the same name; give each player a distinct name")
    if not rules.min_players <= len(seats) <= rules.max_players:
        players = (f"{rules.min_players}" if rules.min_players == rules.max_players
                   else f"{rules.min_players}-{rules.max_players}")
        raise Refused(f"{rules.name} is for {players} players, not {len(seats)}")
    options = rules.options(plain_json(options or {}, "options"))
    setup = plain_json(setup or {}, "the setup")
    # Raises InvalidSetup (an unknown version, a bad setup) before anything is stored.
    rules.start(len(seats), rules.replay_options(rules_version, options), setup)
    return Match(id=id, game=game, rules_version=rules_version, options=options, seats=seats,
                 setup=setup)
