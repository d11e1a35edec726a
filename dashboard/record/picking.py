"""How a move is entered by tapping: a short series of questions, each answered from a list.

A game's picker turns the engine's legal moves into questions a player would ask ("which piece?",
"to where?"): every question's options are read off the moves still possible after the answers
so far, so a finished series of answers always names a legal move, and a wrong entry cannot be
made at all. The answers ("picks") are a list of `[key, value]` pairs in the order given; a
question answered by several picks (the two cards Red removes, the tiles of a revealed hand) uses
its key once per element.

Everything here is pure: the page holds the picks and draws whatever `Question` comes back.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from tablelog.domain.games import GameRules

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

S = TypeVar("S")  # the engine's state
V = TypeVar("V")  # an answer as a move gives it
H = TypeVar("H", bound=Hashable)  # a facet's answer as a move gives it

DONE = "__done__"  # the answer that closes a question of several elements ("that's all")

Move = dict[str, Any]
Picks = Sequence[Sequence[object]]


@dataclasses.dataclass(frozen=True)
class Option:
    value: Any  # what the pick stores (plain JSON)
    label: str  # what the button says
    group: str = ""  # options of one group are drawn together under this heading


@dataclasses.dataclass(frozen=True)
class Question:
    key: str
    prompt: str
    options: tuple[Option, ...]
    several: bool = False  # answered by one pick per element, then DONE (or automatically)


@dataclasses.dataclass(frozen=True)
class Ready:
    """Every question is answered: this is the move to record."""

    move: Move


Step = Question | Ready


class StalePicks(ValueError):
    """An answer names something the position no longer offers (the match moved on)."""


@dataclasses.dataclass(frozen=True)
class Facet(Generic[H]):
    """One question asked of a list of moves. `value` reads the answer off a move (None: this
    move does not raise the question); `label` and `group` say it in the game's words."""

    key: str
    prompt: str
    value: Callable[[Move], H | None]
    label: Callable[[H], str] = str
    group: Callable[[H], str] = lambda value: ""
    sort: Callable[[H], SupportsRichComparison] | None = None  # option order; default: as seen


@dataclasses.dataclass(frozen=True)
class Several(Generic[H]):
    """A question whose answer is a set of elements (a tuple read off a move, order free),
    picked one at a time; the move's own list is what gets recorded."""

    key: str
    prompt: str
    value: Callable[[Move], tuple[H, ...] | None]
    label: Callable[[H], str] = str
    group: Callable[[H], str] = lambda value: ""
    sort: Callable[[H], SupportsRichComparison] | None = None


def legal_moves(rules: GameRules[S], state: S) -> list[Move]:
    """The engine's legal moves, remembered for the last few positions: a move is entered in
    several taps, each asking again (Topas lists a thousand placements at every tap)."""
    try:
        return _remembered(rules, state)
    except TypeError:  # a state holding a dict is not hashable: ask every time
        return rules.legal_moves(state)


@lru_cache(maxsize=8)
def _remembered(rules: GameRules[S], state: S) -> list[Move]:
    return rules.legal_moves(state)


def answers(picks: Picks, key: str) -> list[Any]:
    return [value for k, value in picks if k == key]


def answer(picks: Picks, key: str, default: object = None) -> Any:
    found = answers(picks, key)
    return found[-1] if found else default


def _distinct(values: Iterable[V], sort: Callable[[V], SupportsRichComparison] | None) -> list[V]:
    seen = list(dict.fromkeys(values))
    return sorted(seen, key=sort) if sort else seen


def walk(moves: Sequence[Move], facets: Sequence[Facet | Several], picks: Picks) -> Step:
    """Narrow `moves` by the picks, facet by facet; the first unanswered facet is the question,
    and when every facet that applies is answered the one move left is Ready."""
    step = narrow(moves, facets, picks)
    return step if isinstance(step, Question) else Ready(step[0])


def narrow(
    moves: Sequence[Move], facets: Sequence[Facet | Several], picks: Picks
) -> Question | list[Move]:
    """The first unanswered question, or the moves that fit every answer (never none)."""
    moves = list(moves)
    for facet in facets:
        if not any(facet.value(m) is not None for m in moves):
            continue  # no move left asks this (a visitor placed without a take has no tile)
        if isinstance(facet, Several):
            step = _several(moves, facet, answers(picks, facet.key))
            if isinstance(step, Question):
                return step
            moves = step
            continue
        chosen = answers(picks, facet.key)
        if not chosen:
            values = _distinct((facet.value(m) for m in moves), facet.sort)
            return Question(
                facet.key,
                facet.prompt,
                tuple(Option(_plain(v), facet.label(v), facet.group(v)) for v in values),
            )
        moves = [m for m in moves if _plain(facet.value(m)) == chosen[-1]]
        if not moves:
            raise StalePicks(f"{chosen[-1]!r} is not possible here any more")
    if not moves:
        raise StalePicks("no move is possible")
    return moves


def _several(moves: list[Move], facet: Several, chosen: list[object]) -> Question | list[Move]:
    """The question of a set: options are the elements still possible beside those chosen;
    DONE is offered once the chosen elements make a whole answer and more could be added."""
    done = DONE in chosen
    chosen = [c for c in chosen if c != DONE]
    want = Counter(chosen)
    fits = [m for m in moves if not want - Counter(facet.value(m) or ())]
    if not fits:
        raise StalePicks(f"{', '.join(map(str, chosen))} is not possible here any more")
    exact = [m for m in fits if Counter(facet.value(m) or ()) == want]
    more = _distinct(
        (e for m in fits for e in (Counter(facet.value(m) or ()) - want).elements()), facet.sort
    )
    if exact and (done or not more):
        return exact
    options = tuple(Option(_plain(e), facet.label(e), facet.group(e)) for e in more)
    if exact:
        options += (Option(DONE, "that's all", ""),)
    return Question(facet.key, facet.prompt, options, several=True)


def _plain(value: object) -> object:
    """Answers travel as JSON: tuples become lists."""
    return list(value) if isinstance(value, tuple) else value


def by_seat(picks: Picks, prefix: str) -> list[list[object]]:
    """The picks under `prefix.` (one seat's part of a simultaneous move), prefix removed."""
    return [
        [key[len(prefix) + 1 :], value]
        for key, value in picks
        if isinstance(key, str) and key.startswith(prefix + ".")
    ]


def prefixed(step: Question, prefix: str, who: str) -> Question:
    return dataclasses.replace(step, key=f"{prefix}.{step.key}", prompt=f"{who}: {step.prompt}")


def lookup(mapping: Mapping[str, str], default: str = "") -> Callable[[str], str]:
    return lambda value: mapping.get(value, default)
