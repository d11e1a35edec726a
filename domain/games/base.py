"""The interface every rules engine implements, and the errors it raises.

A rules engine is a stateless object whose methods are pure functions of an immutable state and
plain-JSON arguments: no clock, no random numbers, no I/O. Randomness lives only in what is
recorded (the deal in the setup, the identity a move reveals), so a replay on any machine gives
the same state. The seats of a match are numbered 0..n-1 in turn order; names live elsewhere.
"""

from __future__ import annotations

import dataclasses
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar, cast

from cattrs.preconf.json import make_converter

from ..plain import PlainDict, PlainMapping
from ..quoting import quoted
from .spelling import as_offered

Move = dict[str, Any]
"""A move in the game's own vocabulary, as plain JSON (what is stored in MoveRecorded)."""

S = TypeVar("S")

Moves = Sequence[tuple[int, dict[str, Any]]]
"""A match's effective moves in order: (seat index, move)."""

NAN = float("nan")

T = TypeVar("T")
S_contra = TypeVar("S_contra", contravariant=True)
V = TypeVar("V")


class PerState(Protocol[S_contra, T]):
    """A value worked out once per state and kept on that state (`per_state`)."""

    def __call__(self, state: S_contra, /) -> T: ...

    def known(self, state: S_contra, /) -> T | None:
        """The value if this state has it already, else None (nothing is worked out)."""
        ...

    def give(self, state: S_contra, value: T, /) -> None:
        """Hand a new state its value, worked out by the code that built it from another
        (an edit of the other's value): the one way a value reaches a second state."""
        ...


MEMO_PREFIX = "memo:"  # the keys of kept values in a state's instance dict
_UNSET = object()


def per_state(compute: Callable[[S], T]) -> PerState[S, T]:
    """`compute(state)`, worked out on first use and kept on the state: the one cache of the
    engines' frozen states (their answers are asked many times per move by bots, rules and the
    recorder).

    The value lives in the state object's instance dict under its own key (`memo:` and the
    function's name), outside the dataclass fields, so ==, repr, hashing and the JSON encoding
    ignore it. It belongs to that one object: a state built anew (`dataclasses.replace`, a
    decode, an engine's own constructor) starts with nothing kept and works the value out again,
    unless its builder hands it one with `give`. A state never changes, so neither does the
    value. An engine that copies a state's instance dict to build the next leaves the kept
    values out (`without_memos`)."""
    if "<" in compute.__qualname__:  # a lambda or a local function: its name is not its own
        raise TypeError(f"per_state keeps a named function's value, not {compute.__qualname__}")
    key = f"{MEMO_PREFIX}{compute.__module__}.{compute.__qualname__}"

    def kept(state: S) -> T:
        found = state.__dict__.get(key, _UNSET)
        if found is _UNSET:
            found = state.__dict__[key] = compute(state)
        return cast(T, found)

    def known(state: S) -> T | None:
        return cast("T | None", state.__dict__.get(key))

    def give(state: S, value: T) -> None:
        state.__dict__[key] = value

    kept.known = known  # type: ignore[attr-defined]
    kept.give = give  # type: ignore[attr-defined]
    kept.__name__ = compute.__name__
    kept.__qualname__ = compute.__qualname__
    kept.__doc__ = compute.__doc__
    kept.__wrapped__ = compute  # type: ignore[attr-defined]
    return cast(PerState[S, T], kept)


def without_memos(fields: dict[str, V]) -> dict[str, V]:
    """A state's instance dict with the values `per_state` kept on it left out."""
    return {name: value for name, value in fields.items() if not name.startswith(MEMO_PREFIX)}


class Bot(Protocol):
    """A player of any game (`domain/agents`): `(rules, state, seat, rng) -> move`, the rules
    any engine's and the state one of theirs."""

    def __call__(self, rules: GameRules[S], state: S, seat: int, rng: random.Random, /) -> Move: ...


class Component(NamedTuple):
    """One row of component strength: what a seat did with one kind of component in a match
    (`kind` "gem colour", `component` "Red": `number` lines scoring `points` gems). `points` is
    NaN where a component scores nothing by itself. `number` is the `components` table's column
    "count" (a field named count would hide the tuple's own count method)."""

    kind: str
    component: str
    number: int
    points: float


_converter = make_converter()


class RulesError(ValueError):
    """Base of every refusal by a rules engine; the message is the reason a person reads."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IllegalMove(RulesError):
    """The move breaks a rule (or is malformed); the message names the rule."""


class InvalidSetup(RulesError):
    """Seats, options or the recorded setup do not fit the game."""


class UnknownInformation(RulesError):
    """A computation needs a hidden identity (a face-down tile, a hand) the table never revealed."""


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How a finished game ended. Seats are indices; `ranking` lists groups of tied seats."""

    winners: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    reason: str

    @property
    def is_draw(self) -> bool:
        return not self.winners

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1

    def to_json(self) -> PlainDict:
        return {
            "winners": list(self.winners),
            "ranking": [list(g) for g in self.ranking],
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(tuple(data["winners"]), tuple(tuple(g) for g in data["ranking"]), data["reason"])


def seat_score(
    total: float, categories: Mapping[str, float], **details: object
) -> dict[str, object]:
    """One seat's entry in `GameRules.score`: a total, named categories and free-form details."""
    return {"total": total, "categories": dict(categories), "details": details}


class Declaration(Protocol):
    """What an engine reads from its game's declaration (`declaring.GameInfo`, its
    `declaration.py`'s GAME_INFO): what the game is, said once there."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def simultaneous(self) -> bool: ...


DECLARED = ("id", "name", "min_players", "max_players", "simultaneous")
"""The class attributes of an engine that its declaration gives (`GameRules`, `declared=`)."""


class GameRules(ABC, Generic[S]):
    """Base of the engines. Subclasses set the class attributes and implement the abstract
    methods (a missing one fails at import, when the registry instantiates `RULES`); the defaults
    below fit most games. The game's `declaration.py` declares its options and the shapes of its
    moves as typed classes (`declaring.py`); `docs/adding-a-game.md` lists everything else.

    An engine names its declaration in its class line, `class Topas(GameRules[TopasState],
    declared=GAME_INFO)`, and takes the attributes of `DECLARED` from it; an engine that sets
    them itself instead keeps them (one that does both must say the same, or fails at import).

    Conventions every engine keeps:
    - `apply` validates first and raises `IllegalMove(reason)` before building anything;
    - moves arrive as JSON (lists, not tuples) and are parsed into typed values at the boundary;
    - `legal_moves` returns moves exactly as `apply` accepts them (JSON-ready dicts);
    - states are frozen dataclasses, so `==` compares whole positions.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    version: ClassVar[str]  # bumped whenever a rule changes what a recorded match means
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_type: ClassVar[type]
    simultaneous: ClassVar[bool] = False  # one recorded move holds every seat's choice
    # Games that can loop forever (Topitop) set a cap for simulations; None means they always end.
    playout_cap: ClassVar[int | None] = None
    # The longest a real match of the game plausibly runs, in effective moves. Past it the table
    # is offered a draw by agreement (`tablelog end --draw`): a game that loops (Topitop's
    # buckets shuffled back and forth) ends when the players say so, never by itself. Every
    # game declares its own, documented in docs/games/<game>.md.
    move_cap: ClassVar[int] = 1000
    # False where a score exists only once the game is over (GeoShapes settles hands when somebody
    # wins): projections then record no per-move score change.
    scores_as_it_goes: ClassVar[bool] = True
    # The packaged manifest (components) a new match plays with unless it names another; None
    # for games without one. A match embeds its manifest's content (see games/manifests.py).
    default_manifest: ClassVar[str | None] = None

    def __init_subclass__(cls, declared: Declaration | None = None, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if declared is None:
            return
        for name in DECLARED:
            value = getattr(declared, name)
            if name in vars(cls) and vars(cls)[name] != value:
                raise TypeError(
                    f"{cls.__name__}.{name} is {vars(cls)[name]!r}, its declaration says {value!r}"
                )
            setattr(cls, name, value)

    # ---- setting up -------------------------------------------------------------------------

    def options(self, options: PlainMapping) -> dict[str, Any]:
        """Validate and complete match options (defaults filled in); raise InvalidSetup."""
        if options:
            raise InvalidSetup(f"{self.name} takes no options, got {quoted(sorted(options))}")
        return {}

    def replay_options(self, rules_version: str, options: PlainMapping) -> dict[str, Any]:
        """The options under which a match recorded under `rules_version` plays exactly as it was
        recorded. A stored event is forever: a game that changes a reading bumps `version` and
        maps each earlier version here to options that keep the old reading (for example
        `placing_optional=True`), so old matches replay, and can be finished, unchanged.
        Default: only the current version is known."""
        if rules_version == self.version:
            return dict(options)
        raise InvalidSetup(
            f"{self.name} rules version {rules_version} is not known to this "
            f"Tablelog (it implements version {self.version})"
        )

    def deal(self, seats: int, options: PlainMapping, rng: random.Random) -> dict[str, Any]:
        """A complete random setup (for simulations and tests). Default: nothing to deal."""
        return {}

    @abstractmethod
    def start(self, seats: int, options: PlainMapping, setup: PlainMapping) -> S:
        """The state before the first move. Must."""

    # ---- playing ----------------------------------------------------------------------------

    @abstractmethod
    def apply(self, state: S, move: PlainMapping) -> S:
        """The state after `move`, or IllegalMove. Must."""

    @abstractmethod
    def legal_moves(self, state: S) -> list[Move]:
        """The moves `apply` accepts now (empty once the game is over); each one offered must be
        accepted. Must. Where the full list is too large to offer (GeoShapes' trades of up to
        three shapes each way), the engine offers a documented subset and `apply` still takes
        every legal move."""

    def choices(self, state: S, seat: int) -> list[Move]:
        """The legal choices of one seat. Simultaneous games must override this (their
        `legal_moves` would be the product of every seat's choices, far too many to list)."""
        return self.legal_moves(state) if seat in self.to_move(state) else []

    def combine(self, state: S, choices: Mapping[int, Move]) -> Move:
        """Simultaneous games: the one recorded move made of each awaited seat's choice."""
        ((_seat, choice),) = choices.items()
        return dict(choice)

    def random_choice(self, state: S, seat: int, rng: random.Random) -> Move:
        """One seat's random legal choice. Default: uniform over `choices`; a game whose choices
        multiply by their parameters overrides it to pick the way a player would."""
        return rng.choice(self.choices(state, seat))

    def random_move(self, state: S, rng: random.Random) -> Move:
        """A random legal move (each seat's `random_choice`, combined); for bots and tests."""
        if self.simultaneous:
            return self.combine(
                state, {seat: self.random_choice(state, seat, rng) for seat in self.to_move(state)}
            )
        return self.random_choice(state, self.to_move(state)[0], rng)

    @abstractmethod
    def to_move(self, state: S) -> tuple[int, ...]:
        """The seats whose input is awaited (all of them when play is simultaneous). Must."""

    @abstractmethod
    def score(self, state: S) -> list[dict[str, Any]]:
        """Per seat (in seat order) a `seat_score(...)`: total, categories, details. Must."""

    def totals(self, state: S) -> list[float]:
        """Each seat's total, as `score` gives it: what the recorder stores after every move
        (`domain.matches.derived`). Games whose `score` builds costly details override it with a
        lean count (tests/games/test_engine_answers.py checks it against `score`)."""
        return [float(entry["total"]) for entry in self.score(state)]

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game runs. Must."""

    def evaluate(self, state: S, seat: int) -> float:
        """How good the position looks for `seat` (higher is better), for the greedy bot.
        Default: its score total minus the best other total. Override where the score is only
        known at the end, with a heuristic a player would recognise."""
        totals = [entry["total"] for entry in self.score(state)]
        others = [t for i, t in enumerate(totals) if i != seat]
        return totals[seat] - (max(others) if others else 0)

    # ---- describing -------------------------------------------------------------------------

    def move_kind(self, move: PlainMapping) -> str:
        """A short label for tables and charts ("place", "slide", "pass"...)."""
        return next(iter(move), "move")

    def describe(self, move: PlainMapping, seats: Sequence[str] = ()) -> str:
        """A one-line human reading of a move; a seat it names is the player's name when
        `seats` (the match's names in turn order) are given, else its number counted from 1."""
        return json.dumps(move, sort_keys=True)

    def typed_move(self, state: S, move: object, seats: Sequence[str]) -> Any:
        """A move as a person types it (CLI, API) in the form it is stored in: names in their
        canonical spelling, and a seat named by its player or its number counted from 1 as the
        stored index (counted from 0). Records and the stored events are already in that form
        and never pass through here. A move this cannot read is returned unchanged, so that
        `apply` refuses it in its own words. Default: the legal move it spells in any case."""
        try:
            return as_offered(move, self.legal_moves(state))
        except RulesError:  # nothing offered here (a hidden hand...): the rules decide
            return move

    def shown_move(self, move: PlainMapping, seats: Sequence[str]) -> dict[str, object]:
        """A stored move as a person types it (the inverse of `typed_move`), for front ends that
        offer moves to be sent back (the API's legal moves). Default: as stored."""
        return dict(move)

    def words(self, state: S) -> Mapping[str, Sequence[str]]:
        """The names the moves of the match in `state` may use where the declaration leaves
        them to its components: per vocabulary a move field declares (`key(words=...)`), the
        names its manifest gives, spelled as the game spells them. The API lists them in the
        match's move schema. Default: none (every name is fixed by the declaration)."""
        return {}

    def named_reason(self, reason: str, seats: Sequence[str]) -> str:
        """A stored outcome reason with the seats it names as the players' names. The reason a
        match ended with is stored (and `audit` compares it with the rules'), so its words are
        fixed; names are put in where it is shown. Default: as stored."""
        return reason

    @abstractmethod
    def render(self, state: S, seats: Sequence[str]) -> str:
        """The position drawn as text for `tablelog show`. Must."""

    # ---- measuring --------------------------------------------------------------------------

    # True where `components` reads the effective moves (the final position has forgotten what
    # it needs), so the projector keeps a match's moves until it ends.
    components_read_moves: ClassVar[bool] = False

    @abstractmethod
    def components(
        self, state: S, scores: list[dict[str, Any]], moves: Moves
    ) -> list[list[Component]]:
        """Per seat, the component-strength rows of a scored final position (`docs/metrics.md`);
        a game with nothing to measure returns an empty list per seat. Must."""

    # ---- serialising ------------------------------------------------------------------------

    def encode(self, state: S) -> dict[str, Any]:
        """The state as plain JSON (for `show --json`, the API and the dashboard)."""
        return _converter.unstructure(state)

    def decode(self, data: PlainMapping) -> S:
        """The inverse of `encode`; `decode(json.loads(json.dumps(encode(s)))) == s`."""
        return _converter.structure(data, self.state_type)
