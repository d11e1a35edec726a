"""Total Landscaping's moves: a seat's choice read from the JSON of a round into a typed Play or
Hoe, or an IllegalMove naming what is wrong; and, the other way round, the parameters a card
played on a tile can take. Whether an effect triggers, and so must have its parameters, is the
round's business (`total_landscaping.py` and `total_landscaping_rounds.py`).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence

from ...plain import PlainMapping
from ...quoting import quoted
from ..base import IllegalMove, Move
from . import hexgarden as hexes
from .state import (
    CARDS,
    GARDEN,
    GRASS,
    PARAMETER,
    RED_DISCARDS,
    ROLE,
    SEATS,
    LandscapingState,
    describe_tile,
    flower,
    in_garden,
)

# ---- a seat's choice, parsed --------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Play:
    seat: int
    card: str
    garden: int
    tile: int
    remove: tuple[str, ...] | None = None  # Red
    spread: int | None = None  # Yellow, a tile of the same garden
    recolour: int | None = None  # Purple, a tile of the same garden


@dataclasses.dataclass(frozen=True)
class Hoe:
    seat: int
    tiles: tuple[int, int]


Choice = Play | Hoe

MOVE_SHAPE = (
    'a Total Landscaping move is one round: {"east": CHOICE, "west": CHOICE}, a CHOICE '
    'being {"card": COLOUR, "garden": "east"|"west", "tile": TILE, ...parameters} '
    'or {"hoe": [TILE, TILE]}'
)


def _name(value: object, allowed: Sequence[str], what: str) -> str:
    """Case-insensitive match of a name against the allowed spellings."""
    if isinstance(value, str):
        for name in allowed:
            if value.lower() == name.lower():
                return name
    raise IllegalMove(f"{what} must be one of {', '.join(allowed)}, not {quoted(value)}")


def _tile(state: LandscapingState, garden: int, value: object) -> int:
    index = hexes.INDEX.get(value.upper()) if isinstance(value, str) else None
    if index is None:
        raise IllegalMove(f"{quoted(value)} is not a tile: tiles are {hexes.level_tiles(3)}")
    if index >= state.size:
        raise IllegalMove(
            f"{hexes.TILES[index]} is not in the {GARDEN[garden]} in round {state.round}: "
            f"the gardens are LVL{state.level} ({hexes.level_tiles(state.level)}) until they grow"
        )
    return index


def parse_choice(state: LandscapingState, seat: int, raw: object) -> Choice:
    who = f"the {ROLE[seat]} ({SEATS[seat]})"
    if not isinstance(raw, Mapping):
        raise IllegalMove(f"{who}'s choice must be a card or a hoe; " + MOVE_SHAPE)
    if "hoe" in raw:
        if set(raw) != {"hoe"}:
            raise IllegalMove(
                f'a hoe is {{"hoe": [TILE, TILE]}}, got keys {quoted(sorted(map(str, raw)))}'
            )
        return _parse_hoe(state, seat, raw["hoe"])
    if "card" in raw:
        return _parse_play(state, seat, raw)
    raise IllegalMove(f"{who} must play a card or hoe; " + MOVE_SHAPE)


def _parse_hoe(state: LandscapingState, seat: int, raw: object) -> Hoe:
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        raise IllegalMove(f"a hoe names two tiles of one's own garden, got {quoted(raw)}")
    tiles = (_tile(state, seat, raw[0]), _tile(state, seat, raw[1]))
    for tile in tiles:
        if not state.gardens[seat][tile]:
            raise IllegalMove(
                f"{in_garden(seat, tile)} has nothing planted: a hoe destroys "
                "only tiles where something is already planted"
            )
    if not hexes.adjacent(*tiles):
        raise IllegalMove(
            f"{hexes.TILES[tiles[0]]} and {hexes.TILES[tiles[1]]} are not "
            "adjacent: a hoe destroys two adjacent tiles"
        )
    return Hoe(seat, tiles)


def _parse_play(state: LandscapingState, seat: int, raw: PlainMapping) -> Play:
    card = _name(raw["card"], CARDS, "a card")
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalMove(f"{card} is not in the {ROLE[seat]}'s hand ({', '.join(hand)})")
    allowed = {"card", "garden", "tile"} | ({PARAMETER[card]} if card in PARAMETER else set())
    if not {"garden", "tile"} <= set(raw) <= allowed:
        extra = ", ".join(sorted(set(raw) - allowed))
        raise IllegalMove(
            f"{card} is played onto a garden and a tile"
            + (f"; {extra} is not a parameter of {card}" if extra else "")
            + f"; got keys {quoted(sorted(map(str, raw)))}"
        )
    garden = SEATS.index(_name(raw["garden"], SEATS, "the garden"))
    tile = _tile(state, garden, raw["tile"])
    error = planting_error(state, card, garden, tile)
    if error:
        raise IllegalMove(error)
    play = Play(seat, card, garden, tile)
    if raw.get("remove") is not None:
        play = dataclasses.replace(play, remove=_parse_remove(state, seat, raw["remove"]))
    if raw.get("spread") is not None:
        spread = _tile(state, garden, raw["spread"])
        error = spread_error(state, garden, tile, spread)
        if error:
            raise IllegalMove(error)
        play = dataclasses.replace(play, spread=spread)
    if raw.get("recolour") is not None:
        target = _tile(state, garden, raw["recolour"])
        if not hexes.adjacent(tile, target):
            raise IllegalMove(
                f"Purple turns an adjacent flower purple: {hexes.TILES[target]} "
                f"is not adjacent to {hexes.TILES[tile]}"
            )
        content = state.gardens[garden][target]
        if not flower(content):
            raise IllegalMove(
                "Purple turns an existing flower purple: "
                f"{in_garden(garden, target)} holds {describe_tile(content)}"
            )
        play = dataclasses.replace(play, recolour=target)
    return play


def _parse_remove(state: LandscapingState, seat: int, raw: object) -> tuple[str, ...]:
    rest = [card for card in state.hands[seat] if card != "Red"]
    count = min(RED_DISCARDS, len(rest))
    if not isinstance(raw, list | tuple):
        raise IllegalMove(
            f"Red names {count} cards of its player's hand as a list, got {quoted(raw)}"
        )
    names = tuple(_name(card, CARDS, "a card Red names") for card in raw)
    if len(set(names)) != len(names) or len(names) != count:
        raise IllegalMove(
            f"Red names {count} different cards in hand "
            f"(the rest of the hand: {', '.join(rest) or 'none'}), "
            f"got {quoted(list(raw))}"
        )
    for card in names:
        if card not in rest:
            raise IllegalMove(
                f"Red names cards in its player's hand: {card} is not there "
                f"(the rest of the hand: {', '.join(rest) or 'none'})"
            )
    return tuple(sorted(names, key=CARDS.index))


def planting_error(state: LandscapingState, card: str, garden: int, tile: int) -> str | None:
    if state.blocked == (garden, tile):
        return (
            f"{in_garden(garden, tile)} cannot be chosen this round: last round both "
            "players chose it and nobody planted there"
        )
    content = state.gardens[garden][tile]
    if content == "" or (content == GRASS and card != "Green"):
        return None
    return f"{in_garden(garden, tile)} holds {describe_tile(content)}: " + (
        "Green is planted on empty tiles only"
        if content == GRASS
        else "a card plants on an empty tile, or a flower on grass"
    )


def spread_error(state: LandscapingState, garden: int, tile: int, spread: int) -> str | None:
    if not hexes.adjacent(tile, spread):
        return (
            f"Yellow spreads to an adjacent tile: {hexes.TILES[spread]} is not adjacent "
            f"to {hexes.TILES[tile]}"
        )
    if state.gardens[garden][spread]:
        return (
            f"Yellow spreads to an empty tile: {in_garden(garden, spread)} holds "
            f"{describe_tile(state.gardens[garden][spread])}"
        )
    if state.blocked == (garden, spread):
        return (
            f"Yellow cannot spread to {in_garden(garden, spread)}: it cannot be chosen "
            "this round after last round's clash"
        )
    return None


def spreads(state: LandscapingState, garden: int, tile: int) -> list[int]:
    """The tiles a Yellow planted on `tile` may spread to."""
    return [
        n
        for n in hexes.NEIGHBOURS[tile]
        if n < state.size and spread_error(state, garden, tile, n) is None
    ]


# ---- a choice's parameters, listed --------------------------------------------------------


def with_parameters(
    state: LandscapingState, seat: int, base: Move, garden: int, tile: int
) -> list[Move]:
    """Every way to play `base`, a card on a tile: one move per choice of its parameters."""
    card = base["card"]
    if card == "Red":
        rest = [c for c in state.hands[seat] if c != "Red"]
        return [
            {**base, "remove": list(pair)}
            for pair in itertools.combinations(rest, min(RED_DISCARDS, len(rest)))
        ]
    if card == "Yellow":
        targets = spreads(state, garden, tile)
        return [{**base, "spread": hexes.TILES[t]} for t in targets] or [base]
    if card == "Purple":
        return [base] + [
            {**base, "recolour": hexes.TILES[t]}
            for t in hexes.NEIGHBOURS[tile]
            if t < state.size and flower(state.gardens[garden][t])
        ]
    return [base]
