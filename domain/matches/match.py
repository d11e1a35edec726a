"""The Match aggregate: one game at one table, as a sequence of immutable events.

Command methods check every invariant (whose turn, the rules, the match still open) BEFORE they
trigger an event, so a refused entry stores nothing; the `@event` bodies only apply the pure
rules. Every event carries `prev_hash`, the SHA-256 of the match's previous event, so an edited,
deleted, reordered or inserted stored event breaks the chain (see `event_hash`).
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from enum import Enum
from types import MappingProxyType
from typing import Any, ClassVar, Final, Literal, NamedTuple, Protocol, TypedDict, TypeVar, cast
from uuid import UUID

import orjson
from eventsourcing.domain import Aggregate, CanMutateAggregate, event

from .. import legacy_topic
from ..errors import MatchClosed, NotYourTurn, Refused
from ..games import GameRules, Outcome, get_rules, manifests
from ..games.base import Move
from ..plain import PlainDict, PlainMapping, PlainValue
from ..quoting import quoted
from ..recording.eventsourcing_internals import LeanAggregate, amend_event, given_to, trigger
from ..wording import PlayerCounts, player_count_refusal
from . import derived, rulings
from .entering import ENTERED_BY, check_person, set_entered_by
from .times import parse_time
from .values import stored_text, stored_value

RUNNING, ENDED, ABANDONED = "running", "ended", "abandoned"


def canonical_json(value: object) -> bytes:
    """The one JSON spelling hashes are taken over: UTF-8, sorted keys, no spaces, tuples as
    lists, UUIDs as text, datetimes in ISO 8601."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


# Fields a later class version added, which an upcast event of an earlier version holds as None:
# they are left out of the hash, so an event hashes as it did when it was stored.
UPCAST_FIELDS = ("components", "played_at", "kind", "signature")


class _Current(Enum):
    """start_match's `entered_by` (and an import's `by`) when not given: whoever is entering now."""

    CURRENT = "current"


CURRENT: Final = _Current.CURRENT
Someone = PlainMapping | None | Literal[_Current.CURRENT]  # a person, no one, or whoever is now

S = TypeVar("S")  # a game's own position type


class ManifestRules(Protocol):
    """What choosing a match's components reads of its rules (class variables, read-only)."""

    @property
    def name(self) -> str: ...
    @property
    def default_manifest(self) -> str | None: ...


class StartRules(ManifestRules, Protocol):
    """What checking a new match's options reads of its rules (`GameRules.options`)."""

    def options(self, options: PlainMapping) -> PlainDict: ...


SHEET = "sheet"  # Started.kind of a match logged from its score sheet (None: moves logged)


def event_hash(event: object) -> str:
    """SHA-256 over everything an event stores: its match, position, time, type and fields;
    but not its derived values (`domain.matches.derived`: the rules recompute them, and `audit`
    does), so an event hashes the same whether or not the recorder that stored it kept them."""
    body = dict(vars(event))
    body["type"] = type(event).__name__
    body.pop(derived.FIELD, None)
    for name in UPCAST_FIELDS:
        if name in body and body[name] is None:
            del body[name]
    return hashlib.sha256(canonical_json(body)).hexdigest()


class MoveEntry(TypedDict):
    """One effective move of a match (`Match.moves`): its seat, the move, its event's version."""

    seat: int
    move: Move
    version: int


class UndoEntry(TypedDict):
    """One withdrawn move (`Match.undos`): who withdrew it, why, the move, the undo's version."""

    by: str
    reason: str
    move: MoveEntry
    version: int


class ClaimEntry(TypedDict):
    """One claimed result (`Match.claims`): who, the scores, after how many moves, its version."""

    by: str
    scores: PlainDict
    moves: int
    version: int


class _Next(NamedTuple):
    """What an import gives a match's next event (`Match.at`, `Match.by`)."""

    at: datetime | None = None  # None: now
    by: Someone = CURRENT  # who entered it, None for no one; CURRENT: whoever is entering now


# The aggregate's stored name (its topic), and its events': what every stored row and every
# Started event (so its hash, and every exported record's) names it by. It was this module's
# name before domain/ had rooms; a name in the store is forever, so it is declared, not taken
# from wherever the file is now (domain/__init__.py resolves the old module name here).
STORED_AS = "tablelog.domain.match:Match"


class Match(LeanAggregate, Aggregate):
    TOPIC = STORED_AS
    _head_event: Match.Event
    _head_hash: str | None
    # Set on the match a signing recorder hands back (domain.integrity.signed), never stored.
    checkpoint: dict[str, Any] | None  # a signed head (domain.integrity.checkpoints)
    checkpoint_error: str | None
    signed_receipt: dict[str, Any] | None

    class Event(Aggregate.Event):
        prev_hash: str
        # Who entered it (domain.matches.entering): set on a new event where someone is entering,
        # and then part of its hash; an event without it (stored before it existed) reads None.
        entered_by: ClassVar[PlainDict | None] = None
        # Every field but the timestamp is plain JSON (see plain_json): stored the lean way.
        plain_json_fields = True

        def mutate(self, aggregate: Any) -> Any:  # the library's generic signature
            match = super().mutate(aggregate)
            assert isinstance(match, Match)
            # Only the newest event's hash is ever needed (to chain the next one), so replay
            # keeps the event and hashes it on demand rather than hashing every event.
            match._head_event = self
            match._head_hash = None
            return match

    class Created(Event, Aggregate.Created):
        TOPIC = f"{STORED_AS}.Created"

    class Started(Created):
        """Version 2 carries the components the match is played with (the manifest whole:
        name, SHA-256, content; None for games without one) and when the game was played, if it
        was logged afterwards. Release 0.1 stored neither: its events read back with both None
        (and its components are found as it found them: `manifests.legacy_components`)."""

        TOPIC = f"{STORED_AS}.Started"

        game: str
        rules_version: str
        options: PlainDict
        seats: list[str]
        setup: PlainDict
        components: PlainDict | None
        played_at: str | None
        # Added to version 2 after the fact: None (a match of moves) is left out of the hash
        # (UPCAST_FIELDS), so every event stored without it hashes as it did; "sheet" marks a
        # match logged from its score sheet (SheetRecorded follows, no moves).
        kind: str | None = None
        class_version = 2

        @staticmethod
        def upcast_v1_v2(state: PlainDict) -> None:
            state["components"] = None
            state["played_at"] = None

    # The first event of a match has no predecessor: its chain starts from "".
    created_fields = MappingProxyType({"prev_hash": ""})

    # What `at` and `by` give the next event only (None: nothing given, the event is now and by
    # whoever is entering); set on the match until that event takes it.
    _next: _Next | None = None

    def trigger_event(
        self, event_class: type[CanMutateAggregate[UUID]], *, given: object = None, **fields: object
    ) -> None:
        """Every new event, made by an `@event` command (the library calls this) or `record`:
        chained to the one before (`prev_hash`), at the time and by the person an import gave
        (`at`, `by`), else now and by whoever is entering (domain.matches.entering). `given` goes to
        the event's body (`eventsourcing_internals.trigger`)."""
        upcoming = self._next or _Next()
        if self._next is not None:
            del self._next  # the class's None again: nothing left on the match
        new = trigger(
            self,
            event_class,
            timestamp=upcoming.at,
            given=given,
            prev_hash=self.head_hash,
            **fields,
        )
        set_entered_by(new, ENTERED_BY.get() if upcoming.by is CURRENT else upcoming.by)

    def by(self, who: PlainMapping | None) -> Match:
        """Give the next event this `entered_by` (None: none) instead of the current person's
        (imports keep who entered each event)."""
        self._next = (self._next or _Next())._replace(by=who)
        return self

    def at(self, when: datetime | None) -> Match:
        """Give the next event this time instead of now (imports keep recorded times)."""
        self._next = (self._next or _Next())._replace(at=when)
        return self

    # ---- events (bodies apply, never check) -------------------------------------------------

    @event(Started)
    def __init__(
        self,
        id: UUID,
        game: str,
        rules_version: str,
        options: PlainDict,
        seats: list[str],
        setup: PlainDict,
        components: PlainDict | None = None,
        played_at: str | None = None,
        kind: str | None = None,
    ) -> None:
        self.game = game
        self.kind = kind
        # The sheet, components and outcome are read past the domain (the interop, the lab) by
        # their keys, as the game's records: their shapes are the games' (sheets, manifests,
        # Outcome.to_json), not typed here, so they stay open dicts.
        self.sheet: dict[str, Any] | None = None
        self.rules_version = rules_version
        self.options = options
        self.seats = list(seats)
        self.setup = setup
        self.played_at = played_at
        self.components: dict[str, Any] | None = components_of(options, components)
        # A score sheet has no moves, so no position: its setup is never dealt. A state is the
        # game's own type (None for a sheet), so Any.
        self.states: list[Any] = [
            None
            if kind == SHEET
            else initial_state(
                self.rules, len(seats), rules_version, options, setup, self.components
            )
        ]
        self.moves: list[MoveEntry] = []  # the effective moves: seat, move, event version
        self.status = RUNNING
        self.outcome: dict[str, Any] | None = None
        self.claims: list[ClaimEntry] = []
        self.disputes: list[PlainDict] = []
        self.undos: list[UndoEntry] = []

    @event("MoveRecorded", topic=f"{STORED_AS}.MoveRecorded")
    def _move_recorded(self, seat: int, move: Move, derived: PlainDict | None = None) -> None:
        checked = given_to(self)  # record()'s (move, position after it); None on replay
        if isinstance(checked, tuple) and checked[0] is move:
            self.states.append(checked[1])
        else:
            self.states.append(self.rules.apply(self.states[-1], move))
        self.moves.append({"seat": seat, "move": move, "version": self.version + 1})

    @event("MoveUndone", topic=f"{STORED_AS}.MoveUndone")
    def _move_undone(self, by: str, reason: str) -> None:
        withdrawn = self.moves.pop()
        self.states.pop()
        self.undos.append(
            {"by": by, "reason": reason, "move": withdrawn, "version": self.version + 1}
        )

    @event("ResultClaimed", topic=f"{STORED_AS}.ResultClaimed")
    def _result_claimed(self, by: str, scores: PlainDict) -> None:
        self.claims.append(
            {"by": by, "scores": scores, "moves": len(self.moves), "version": self.version + 1}
        )

    @event("DisputeRaised", topic=f"{STORED_AS}.DisputeRaised")
    def _dispute_raised(self, by: str, about: str) -> None:
        self.disputes.append(
            {
                "by": by,
                "about": about,
                "raised_version": self.version + 1,
                "ruling": None,
                "resolved_by": None,
            }
        )

    class DisputeResolved(Event):
        """Version 2 may carry the umpire's `signature` over the dispute and its decision
        (domain.matches.rulings); rulings stored before read back with None, which is left out of
        the hash (UPCAST_FIELDS), as is an unsigned ruling's: both hash as they always did."""

        TOPIC = f"{STORED_AS}.DisputeResolved"
        by: str
        ruling: str
        signature: PlainDict | None
        class_version = 2

        @staticmethod
        def upcast_v1_v2(state: PlainDict) -> None:
            state["signature"] = None

    @event(DisputeResolved)
    def _dispute_resolved(self, by: str, ruling: str, signature: PlainDict | None = None) -> None:
        dispute = next(d for d in self.disputes if d["ruling"] is None)
        dispute.update(ruling=ruling, resolved_by=by, resolved_version=self.version + 1)

    @event("SheetRecorded", topic=f"{STORED_AS}.SheetRecorded")
    def _sheet_recorded(self, sheet: PlainDict, outcome: PlainDict) -> None:
        self.sheet = sheet
        self.status = ENDED
        self.outcome = outcome

    @event("Ended", topic=f"{STORED_AS}.Ended")
    def _ended(self, outcome: PlainDict, derived: PlainDict | None = None) -> None:
        self.status = ENDED
        self.outcome = outcome

    @event("Abandoned", topic=f"{STORED_AS}.Abandoned")
    def _abandoned(self, by: str, reason: str) -> None:
        self.status = ABANDONED
        self.abandoned = {"by": by, "reason": reason}

    # ---- reading ----------------------------------------------------------------------------

    @property
    def head_hash(self) -> str:
        """The hash of the match's newest event: what the next event's `prev_hash` must be."""
        if self._head_hash is None:
            self._head_hash = event_hash(self._head_event)
        return self._head_hash

    @property
    def rules(self) -> GameRules[Any]:
        return get_rules(self.game)

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def open_disputes(self) -> list[PlainDict]:
        return [d for d in self.disputes if d["ruling"] is None]

    def rules_outcome(self) -> Outcome | None:
        if self.kind == SHEET:
            return None if self.outcome is None else Outcome.from_json(self.outcome)
        return self.rules.outcome(self.state)

    def seat_index(self, seat: str | int) -> int:
        """A seat given by player name, by its number as text ("1" = first in turn order, as
        typed at the command line) or by its index (an int, 0 = first)."""
        if isinstance(seat, str) and seat in self.seats:
            return self.seats.index(seat)
        # ASCII digits only: str.isdigit() takes "²" (which int() refuses) and int() takes "١"
        # (Arabic-Indic one), neither of which anyone types to mean a seat number.
        if (
            isinstance(seat, str)
            and seat.isascii()
            and seat.isdigit()
            and len(seat) <= 3
            and 1 <= int(seat) <= len(self.seats)
        ):
            return int(seat) - 1
        if type(seat) is int and 0 <= seat < len(self.seats):
            return seat
        shown = quoted(seat)
        raise Refused(f"{shown} is not a seat of this match; seats: {', '.join(self.seats)}")

    # ---- commands (check, then trigger) -----------------------------------------------------

    def _require(self, *statuses: str) -> None:
        if self.status not in statuses:
            raise MatchClosed(f"the match is {self.status}: it takes no more of that")

    def record_sheet(self, sheet: object) -> None:
        """The score sheet of a match started as one (kind "sheet"), checked whole first."""
        from ..sheets import check_sheet  # the sheet rules import nothing of this module

        if self.kind != SHEET:
            raise Refused(
                "this match is logged move by move; a score sheet belongs to a match "
                "started as one (tablelog sheet)"
            )
        self._require(RUNNING)
        # check_sheet rebuilds the sheet from checked plain values only (see there).
        sheet, outcome = check_sheet(self.game, self.seats, self.options, self.components, sheet)
        self._sheet_recorded(sheet=sheet, outcome=outcome)

    def record(self, seat: str | int, move: object) -> None:
        self._require(RUNNING)
        if self.kind == SHEET:
            raise Refused("a score-sheet match has no moves")
        index = self.seat_index(seat)
        # As the store will give it back; the rules refuse one that is not an object in their
        # own words (IllegalMove), so it is handed over as it is rather than narrowed here.
        move = cast(Move, stored_value(move, "a move"))
        awaited = self.rules.to_move(self.state)
        if not awaited:
            raise MatchClosed("the game is over: no more moves (end the match to close it)")
        if index not in awaited:
            names = " or ".join(self.seats[i] for i in awaited)
            raise NotYourTurn(f"it is not {self.seats[index]}'s turn: waiting for {names}")
        after = self.rules.apply(self.state, move)  # IllegalMove before anything is triggered
        scored = self._derived_after(index, after)
        # What calling `self._move_recorded(...)` does, less the decorator's matching of
        # arguments to fields (a tenth of the event machinery's cost per recorded move); the
        # body takes the position after the move rather than apply it twice.
        self.trigger_event(
            MOVE_RECORDED, given=(move, after), seat=index, move=move, derived=scored
        )

    def _derived_after(self, seat: int, after: object) -> derived.MoveDerived:
        """The move's derived values (`domain.matches.derived`): the totals before it are the
        previous move's, when that is the newest event, rather than a second `score`."""
        rules = self.rules
        if not rules.scores_as_it_goes:
            return derived.after_move(None, None, seat)
        head = getattr(self, "_head_event", None)
        prior = (
            getattr(head, derived.FIELD, None) if type(head).__name__ == "MoveRecorded" else None
        )
        before = prior["totals"] if prior else derived.totals(rules, self.state)
        return derived.after_move(before, derived.totals(rules, after), seat)

    def undo(self, by: str, reason: str) -> None:
        self._require(RUNNING)
        _require_text(by, "who undoes the move (--by)")
        _require_text(reason, "the reason for the undo")
        if not self.moves:
            raise Refused("there is no move to undo")
        self._move_undone(by=by, reason=reason)

    def claim(self, by: str, scores: object) -> None:
        self._require(RUNNING, ENDED)
        _require_text(by, "who claims the result (--by)")
        scores = stored_value(scores, "claimed scores")
        if not isinstance(scores, dict) or not scores:
            raise Refused('claimed scores are a JSON object {"player": points, ...}')
        for name, points in scores.items():
            self.seat_index(name)
            if isinstance(points, bool) or not isinstance(points, (int, float)):
                raise Refused(f"claimed score of {name} must be a number, got {quoted(points)}")
        self._result_claimed(by=by, scores=scores)

    def dispute(self, by: str, about: str) -> None:
        _require_text(by, "who raises the dispute (--by)")
        _require_text(about, "what the dispute is about (--about)")
        self._dispute_raised(by=by, about=about)

    def resolve(
        self,
        by: str,
        ruling: str,
        signer: rulings.PersonSigner | None = None,
        signature: object = None,
    ) -> None:
        """Resolve the oldest open dispute; with `signer`, the ruling carries that person's
        signature over the dispute and its decision; an import hands the `signature` its
        record carries, kept as it is (its hash tells whether it is the one stored)."""
        _require_text(by, "who resolves the dispute (--by)")
        _require_text(ruling, "the ruling")
        if not self.open_disputes:
            raise Refused("there is no open dispute to resolve")
        if signer is not None:
            text = rulings.ruling_text(self.id, self.open_disputes[0], by, ruling, self.head_hash)
            signature = rulings.sign(signer, text)
        elif signature is not None:
            try:
                signature = rulings.check_shape(stored_value(signature, "the ruling's signature"))
            except rulings.RulingNotVerified as err:
                raise Refused(str(err)) from None
        self._dispute_resolved(by=by, ruling=ruling, signature=signature)

    def end(self, agreed_draw: bool = False) -> None:
        self._require(RUNNING)
        if self.kind == SHEET:
            raise Refused("a score-sheet match ends with its sheet (tablelog sheet)")
        outcome = self.rules_outcome()
        decided = outcome is not None
        if outcome is None:
            if not agreed_draw:
                raise Refused(
                    "the game is not over by the rules; end it as a draw by agreement or abandon it"
                )
            everyone = tuple(range(len(self.seats)))
            outcome = Outcome((), (everyone,), "draw by agreement")
        moves = [(m["seat"], m["move"]) for m in self.moves]
        final = derived.at_end(self.rules, self.state, decided, moves)
        self._ended(outcome=outcome.to_json(), derived=final)

    def abandon(self, by: str, reason: str) -> None:
        self._require(RUNNING)
        _require_text(by, "who abandons the match (--by)")
        _require_text(reason, "the reason")
        self._abandoned(by=by, reason=reason)


def _require_text(value: object, what: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise Refused(f"{what} must be given")
    stored_text(value, what)  # a lone surrogate or NUL is refused here, before the event


MOVE_RECORDED: type[Match.Event] = Match.MoveRecorded  # type: ignore[attr-defined]  # made by @event


# The Match aggregate's topic now, and as release 0.1 stored it (package `domain`, see
# domain/__init__.py): part of every Started event, so of its hash.
AGGREGATE_TOPICS = (STORED_AS, legacy_topic(STORED_AS))


def components_of(options: object, components: PlainDict | None) -> PlainDict | None:
    """The components a Started event stands for: its own (version 2), or for an event stored
    by release 0.1 the manifest its options name (None for games played without one)."""
    if components is not None:
        return components
    name = options.get("manifest") if isinstance(options, dict) else None
    return None if name is None else manifests.legacy_components(name)


def initial_state(
    rules: GameRules[S],
    seats: int,
    rules_version: str,
    options: PlainMapping,
    setup: PlainMapping,
    components: PlainDict | None,
) -> S:
    """The position before the first move, as the match's own record says: its rules version's
    readings, and the components embedded in it (never a file)."""
    played = rules.replay_options(rules_version, options)
    if components is not None:
        played["manifest"] = manifests.register(components)
    return rules.start(seats, played, setup)


def start_match(
    id: UUID,
    game: str,
    seats: list[str],
    options: object = None,
    setup: object = None,
    *,
    rules_version: str | None = None,
    components: object = None,
    played_at: datetime | str | None = None,
    at: datetime | None = None,
    as_recorded: bool = False,
    originator_topic: str | None = None,
    kind: str | None = None,
    entered_by: object = CURRENT,
) -> Match:
    """A new Match, after checking the seats, options and setup against the game's rules.

    `components` is a manifest handed over whole ({"name", "content"}); without it a game with
    components plays the one its `manifest` option names (found by name, then embedded).
    `played_at` is when a game logged afterwards was played. For imports: `rules_version` (the
    match plays by that version's readings), `at` (the Started event's time) and `as_recorded`
    (options and components exactly as the record has them, so the event hashes as the
    original did: `components` None means a match stored by release 0.1, and
    `originator_topic` the aggregate's name as that release spelled it), and `entered_by` (who
    entered the start, None for no one; default: whoever is entering now)."""
    rules = get_rules(game)
    rules_version = rules.version if rules_version is None else str(rules_version)
    seats = _checked_seats(rules, seats)
    if not as_recorded:  # a record keeps the names its store took (release 0.1 took any)
        _check_names(seats)
    options, embedded = _options_and_components(rules, options, components, as_recorded)
    setup = stored_value(setup or {}, "the setup")
    if kind not in (None, SHEET):
        raise Refused(
            f"a match's kind is {SHEET!r} (a score sheet) or none (moves), not {quoted(kind)}"
        )
    if kind == SHEET and setup:
        raise Refused("a score-sheet match has no setup")
    # A bad setup or an unknown rules version raises InvalidSetup from the Started event's
    # body (`Match.__init__` deals the position), before anything exists to be stored.
    when = None if played_at is None else parse_time(played_at, "played_at").isoformat()
    match = Match.created_by(
        Match.Started,
        id=id,
        timestamp=at,
        game=game,
        rules_version=rules_version,
        options=options,
        seats=seats,
        setup=setup,
        components=embedded,
        played_at=when,
        **({} if kind is None else {"kind": kind}),
    )
    return _as_recorded(match, entered_by, originator_topic)


def _as_recorded(match: Match, entered_by: object, originator_topic: str | None) -> Match:
    """The new match's Started event, with who entered it (`CURRENT`: whoever is entering
    now) and, for a record, the aggregate's topic as the original stored it."""
    started = match.pending_events[0]
    set_entered_by(started, ENTERED_BY.get() if entered_by is CURRENT else check_person(entered_by))
    if originator_topic not in (None, *AGGREGATE_TOPICS):
        raise Refused(f"originator_topic is one of {', '.join(AGGREGATE_TOPICS)}")
    if originator_topic is not None:
        # The Started event is hashed with the aggregate's topic as the original stored it.
        amend_event(started, originator_topic=originator_topic)
    return match


def _options_and_components(
    rules: StartRules, options: object, components: object, as_recorded: bool
) -> tuple[PlainDict, PlainDict | None]:
    """The options a match stores, checked against the rules, and the manifest it embeds (None
    when the game has no components, or for a release 0.1 record)."""
    options = stored_value(options or {}, "options")
    if not isinstance(options, dict):
        raise Refused('options are a JSON object {"name": value, ...}')
    given = stored_value(components, "the manifest")
    embedded = (
        _recorded_components(rules, options, given)
        if as_recorded
        else _components_for(rules, options, given)
    )
    if as_recorded and embedded is None and rules.default_manifest and "manifest" not in options:
        # A record written by hand, naming no manifest: it embeds today's default, so that a
        # later default never changes it.
        embedded = _components_for(rules, options, None)
        assert embedded is not None  # the game has a default manifest
        options = {**options, "manifest": embedded["name"]}
    checked = rules.options(
        options if embedded is None else {**options, "manifest": manifests.register(embedded)}
    )
    if not as_recorded:
        options = checked if embedded is None else {**checked, "manifest": embedded["name"]}
    return options, embedded


def _checked_seats(rules: PlayerCounts, seats: object) -> list[str]:
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise Refused("seats are the players' names in turn order, none empty")
    stored_value(seats, "the players' names")  # refuses a name the store could not keep
    seats = [s.strip() for s in seats]
    if not seats or any(not s for s in seats):
        raise Refused("seats are the players' names in turn order, none empty")
    if len(set(seats)) != len(seats):
        raise Refused("two seats have the same name; give each player a distinct name")
    wrong_count = player_count_refusal(rules, len(seats))
    if wrong_count:
        raise Refused(wrong_count)
    return seats


# A name is said in every refusal about its player's turn: one short line, so they stay one.
NAME_LENGTH = 60


def _check_names(seats: list[str]) -> None:
    for name in seats:
        if len(name) > NAME_LENGTH or not name.isprintable():
            raise Refused(
                f"a player's name is one line of at most {NAME_LENGTH} printable characters, "
                f"got {quoted(name)}"
            )


def _recorded_components(
    rules: ManifestRules, options: PlainMapping, given: PlainValue
) -> PlainDict | None:
    """A record's components: checked against their hash; None (release 0.1's matches) only
    where the options name a packaged manifest, never a file."""
    if given is None:
        name = options.get("manifest")
        if name is not None and not manifests.NAME.fullmatch(str(name)):
            raise Refused(
                f"the record names its manifest by the path {name!r}, not its content "
                "(a match Tablelog 0.1 stored with a club's file): a record must carry "
                "its components, and a path is never opened"
            )
        return None
    if not isinstance(given, dict) or "sha256" not in given:
        raise Refused("a record's components are {name, sha256, content}")
    return _components_for(rules, options, given)


def _components_for(
    rules: ManifestRules, options: PlainMapping, given: PlainValue
) -> PlainDict | None:
    """The components a new match embeds: the manifest handed over, else the one its options
    name (or the game's default), found by name; None for a game without components."""
    if given is None:
        if rules.default_manifest is None:
            return None
        name = options.get("manifest", rules.default_manifest)
        return manifests.embed(manifests.check_name(name), manifests.find(name))
    if rules.default_manifest is None:
        raise Refused(f"{rules.name} is played without a manifest")
    if not isinstance(given, dict) or not {"name", "content"} <= set(given) <= {
        "name",
        "content",
        "sha256",
    }:
        raise Refused('a manifest handed over is {"name": NAME, "content": {...}}')
    name = given["name"]
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise Refused("a manifest handed over needs a name (up to 200 characters)")
    embedded = manifests.embed(name.strip(), given["content"])
    if "sha256" in given and given["sha256"] != embedded["sha256"]:
        raise Refused(
            f"the manifest {name!r} does not match its recorded hash: recorded "
            f"{given['sha256']}, content {embedded['sha256']}"
        )
    return embedded
