"""Total Landscaping's last round told to a person: the facts a state keeps of it
(`state.Happening`: kinds, seats, tiles, cards) in the game's words, one line per happening, the
two choices on one line and each garden's withered flowers on one: "East plays Red on B3 in the
Western garden removing Yellow and Purple; West hoes B4 and B5", "withered in the Western
garden: the Blue flower on D14". A state holds facts, not sentences (issue 43): the words live
here, and may change without touching a stored state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .state import GARDEN, ROLE, SEATS, Happening


def round_lines(happenings: Iterable[Happening]) -> list[str]:
    lines: list[str] = []
    previous = ""  # the kind of the fact before
    for fact in happenings:
        kind, rest = str(fact[0]), [str(part) for part in fact[1:]]
        if kind in PARAMETERS and lines:  # said after the card it was played with
            lines[-1] += " " + PARAMETERS[kind](rest)
        elif kind in CHOICES and previous in CHOSEN and lines:  # the other seat's choice
            lines[-1] += "; " + CHOICES[kind](rest)
        elif kind == previous == "withered" and lines[-1].startswith(_garden_words(rest)):
            lines[-1] += ", " + _flower(rest)
        else:
            told = CHOICES.get(kind) or HAPPENINGS.get(kind)
            # A kind this release does not tell is named, never shown as a tuple.
            lines.append(told(rest) if told else kind.replace("-", " "))
        previous = kind
    return lines


def tiles_words(tiles: Sequence[str]) -> str:
    """'A', 'A and B1', 'A, B1 and B2'."""
    return " and ".join(filter(None, [", ".join(tiles[:-1]), tiles[-1] if tiles else ""]))


def _garden(name: str) -> str:
    return GARDEN[SEATS.index(name)] if name in SEATS else name


def _in(garden: str, tile: str) -> str:
    return f"{tile} in the {_garden(garden)}"


def _cards(cards: Sequence[str]) -> str:
    return " and ".join(cards) or "nothing"


def _garden_words(rest: Sequence[str]) -> str:
    return f"withered in the {_garden(rest[0])}:"


def _flower(rest: Sequence[str]) -> str:
    return f"the {rest[2]} flower on {rest[1]}"


def _role(seat: str) -> str:
    return ROLE[SEATS.index(seat)] if seat in SEATS else seat


Told = Callable[[list[str]], str]

# A seat's choice: its card and where, or its hoe (both seats' on one line).
CHOICES: dict[str, Told] = {
    "plays": lambda r: f"{r[0].title()} plays {r[1]} on {_in(r[2], r[3])}",
    "hoes": lambda r: f"{r[0].title()} hoes {tiles_words(r[1:])}",
}

# The parameters a card was played with, said after it.
PARAMETERS: dict[str, Told] = {
    "removing": lambda r: f"removing {_cards(r[1:])}",
    "spreading": lambda r: f"spreading to {r[1]}",
    "recolouring": lambda r: f"turning {r[1]} purple",
}
CHOSEN = {*CHOICES, *PARAMETERS}

HAPPENINGS: dict[str, Told] = {
    "negated": lambda r: f"{r[0].title()}'s {r[1]} effect is negated",
    "hoed-off": lambda r: (
        f"{r[0].title()}'s {r[1]} effect does not trigger: it involves "
        f"{tiles_words(r[3:])} in the {_garden(r[2])}, hoed this round"
    ),
    "clash-taken": lambda r: f"clash on {_in(r[0], r[1])}: {r[2]} takes it",
    "clash-blocked": lambda r: (
        f"clash on {_in(r[0], r[1])}: nobody plants; it cannot be chosen next round"
    ),
    "removes": lambda r: f"{r[0].title()} removes {_cards(r[1:])}",
    "spreads": lambda r: f"Yellow spreads to {_in(r[0], r[1])}",
    "spread-stopped": lambda r: (
        f"Yellow does not spread to {_in(r[0], r[1])}: the opponent planted there"
    ),
    "recolours": lambda r: f"Purple turns the flower on {_in(r[0], r[1])} purple",
    "withered": lambda r: f"{_garden_words(r)} {_flower(r)}",
    "bout": lambda r: f"bout {r[1]} to the {_role(r[0])} ({r[0]}) in round {r[2]}: {r[3]}",
    "fresh-hand": lambda r: f"{r[0].title()}'s hand is empty: a fresh seven",
    "exchange": lambda r: "Orange: the hands are exchanged",
}
