"""What the balance tuner (`tablelog tune topas`, docs/tune.md) may vary in Topas: the expert
variant (a line scores the product of its gems), the head start (the points the first player
begins with, a designer's variant, not in the rulebook: 0 to 4 points; with greedy bots at 3
players the later seats win more, and a head start of about 2 points evens the seats out), the
second player's head start (the same for the second seat, 0 to 4 points: in the expert variant
at 3 players seats 1 and 2 both trail seat 3), and the deck.

A designer sees the deck as which pairs of gem counts its cards show: the published deck is
every colour pair with halves of 1 and 2, 1 and 3, and 2 and 3 gems (each both ways round, 36
cards). A candidate keeps or drops each pair, and may add halves of 4 gems (1 and 4, 2 and 4,
3 and 4): 12 cards a pair. The rules refuse a deck too small for the seats before any match is
played ("3 player(s) need 22 cards")."""

from __future__ import annotations

import itertools
from typing import Any

from ...plain import PlainMapping, PlainValue
from .rules import CARD_NAME

BASE = "topas"
OPTIONS: dict[str, list[PlainValue]] = {
    "expert": [False, True],
    "head_start": [0, 1, 2, 3, 4],
    "second_head_start": [0, 1, 2, 3, 4],
}
GEMS = (1, 2, 3, 4)  # a half's gems; the published deck's halves show 1 to 3


def _pair(low: int, high: int) -> str:
    return f"halves of {low} and {high} gems"


def view(content: dict[str, Any]) -> dict[str, Any]:
    """The manifest as a designer tunes it: `deck` says which pairs of gem counts it holds."""
    held = set()
    for name in content["cards"]:
        match = CARD_NAME.fullmatch(name)
        if match:
            held.add(tuple(sorted((int(match[2]), int(match[4])))))
    pairs = itertools.combinations(GEMS, 2)
    return {**content, "deck": {_pair(*p): int(p in held) for p in pairs}}


def fields(base: dict[str, Any]) -> dict[str, list[int]]:
    return {f"/deck/{name}": [0, 1] for name in base["deck"]}


def tidy(content: dict[str, Any]) -> dict[str, Any]:
    """A candidate as a manifest: every colour pair's cards for each pair of gem counts kept,
    in the published deck's order (so the base candidate is the published deck itself)."""
    kept = {p for p in itertools.combinations(GEMS, 2) if content["deck"].get(_pair(*p))}
    cards = [
        f"{first}{x}-{second}{y}"
        for first, second in itertools.combinations(content["colours"], 2)
        for x, y in itertools.permutations(GEMS, 2)
        if tuple(sorted((x, y))) in kept
    ]
    return {k: v for k, v in content.items() if k != "deck"} | {"cards": cards}


def invalid(content: PlainMapping, options: PlainMapping) -> str | None:
    if not content["cards"]:
        return "the deck keeps no pair of gem counts: it has no card"
    return None
