"""Total Landscaping's fast paths (issue 24): a balance study records thousands of rounds a
second, each drawn by the random bot and checked by `apply`. Each shortcut is the engine's one
way of doing its part; the golden data (tests/games/golden/, tests/games/test_golden.py) pins
its answers:

- `choice`: a seat's choice spelled exactly as `choices` lists it (canonical names, a plain
  dict), read without the parser's wording; anything else, legal or not, returns None and goes to
  `moves.parse_choice`, which words every refusal;
- `draw`: the random bot's choice, drawing from the generator exactly what a choice over the
  listed `choices` drew (a kind, then an entry of it), with only the drawn entry built;
- `choices`: the listing itself, in its order, with targets found by lookup.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from typing import Any

from ..base import Move, per_state
from . import hexgarden as hexes
from . import rounds
from .moves import Choice, Hoe, Play
from .state import CARDS, GRASS, PARAMETER, RED_DISCARDS, SEATS, LandscapingState, flower

_CARD = {card: card for card in CARDS}  # the canonical spelling, whatever str is given
_ORDER = {card: n for n, card in enumerate(CARDS)}
_GARDEN = {name: n for n, name in enumerate(SEATS)}
_KEYS = {  # the keys a play of each card may have
    card: frozenset({"card", "garden", "tile", *([PARAMETER[card]] if card in PARAMETER else [])})
    for card in CARDS
}
_NEAR = [frozenset(n) for n in hexes.NEIGHBOURS]
# Per garden size, built once: each tile's neighbours inside the garden (NEIGHBOURS order).
_INSIDE = {
    size: tuple(tuple(t for t in hexes.NEIGHBOURS[tile] if t < size) for tile in range(size))
    for size in hexes.TILES_AT_LEVEL.values()
}
_UP = {  # the neighbours b > a of each tile a: a hoe (a, b) is listed once, a < b
    size: tuple(tuple(b for b in hexes.NEIGHBOURS[a] if a < b < size) for a in range(size))
    for size in hexes.TILES_AT_LEVEL.values()
}
_BITS = {  # each tile's neighbours inside the garden, as a bit mask (bit t: tile t)
    size: tuple(sum(1 << t for t in near) for near in inside) for size, inside in _INSIDE.items()
}
_SPOT = [[(garden, tile) for tile in range(len(hexes.TILES))] for garden in (0, 1)]  # made once
_PLANTABLE = frozenset(("", GRASS))  # a card goes on an empty tile, a flower on grass too
# The kinds a seat may draw, in the order `sorted` gives them ("hoe" sorts after the colours).
_KINDS = tuple(sorted(CARDS)) + ("hoe",)

# ---- a choice, read -----------------------------------------------------------------------

# Choices are immutable values from a small set (a frozen dataclass takes a microsecond to
# build): each is made once and shared.
_play = functools.cache(Play)
_hoe_of = functools.cache(Hoe)


def _tile(state: LandscapingState, value: object) -> int | None:
    index = hexes.INDEX.get(value) if type(value) is str else None
    return index if index is not None and index < state.size else None


def choice(state: LandscapingState, seat: int, raw: object) -> Choice | None:
    """The choice `moves.parse_choice` reads from `raw`, or None: ask it (it may still accept)."""
    if type(raw) is not dict:
        return None
    if "hoe" in raw:
        return _hoe(state, seat, raw) if len(raw) == 1 else None
    card = raw.get("card")
    if type(card) is not str or card not in _CARD or card not in state.hands[seat]:
        return None
    card = _CARD[card]
    garden = raw.get("garden")
    if not raw.keys() <= _KEYS[card] or type(garden) is not str or garden not in _GARDEN:
        return None
    at, tile = _GARDEN[garden], _tile(state, raw.get("tile"))
    if tile is None or state.blocked == (at, tile):
        return None
    content = state.gardens[at][tile]
    if not (content == "" or (content == GRASS and card != "Green")):
        return None
    value = raw.get(PARAMETER[card]) if card in PARAMETER else None
    if value is None:
        return _play(seat, card, at, tile, None, None, None)
    if card == "Red":
        remove = _remove(state, seat, value)
        return None if remove is None else _play(seat, card, at, tile, remove, None, None)
    target = _tile(state, value)
    if target is None or target not in _NEAR[tile]:
        return None
    held = state.gardens[at][target]
    if card == "Yellow":
        ok = not held and state.blocked != (at, target)
        return _play(seat, card, at, tile, None, target, None) if ok else None
    return _play(seat, card, at, tile, None, None, target) if flower(held) else None


def _hoe(state: LandscapingState, seat: int, raw: dict[str, Any]) -> Hoe | None:
    pair = raw["hoe"]
    if type(pair) not in (list, tuple) or len(pair) != 2:
        return None
    a, b = _tile(state, pair[0]), _tile(state, pair[1])
    own = state.gardens[seat]
    if a is None or b is None or not own[a] or not own[b] or b not in _NEAR[a]:
        return None
    return _hoe_of(seat, (a, b))


def _remove(state: LandscapingState, seat: int, raw: object) -> tuple[str, ...] | None:
    if not isinstance(raw, list | tuple):
        return None
    hand = state.hands[seat]
    if len(raw) == RED_DISCARDS and len(hand) > RED_DISCARDS:  # the usual case: two of the rest
        a, b = raw
        if type(a) is str and type(b) is str and a != b and "Red" not in (a, b):
            if a in hand and b in hand:  # hand names are canonical: a and b are spelled so
                return (a, b) if _ORDER[a] < _ORDER[b] else (b, a)
        return None
    rest = [card for card in state.hands[seat] if card != "Red"]
    if len(raw) != min(RED_DISCARDS, len(rest)):
        return None
    if not all(type(name) is str and name in _CARD and name in rest for name in raw):
        return None
    if len(set(raw)) != len(raw):
        return None
    return tuple(sorted((_CARD[name] for name in raw), key=_ORDER.__getitem__))


# ---- a round's effects that fail ----------------------------------------------------------

_NOTHING_FAILS = (False, False)


def failing(
    choices: tuple[Choice, Choice], hoeing: str
) -> tuple[tuple[bool, bool], tuple[bool, bool]]:
    """`rounds.negated(choices)` and `rounds.hoed_off(choices, hoeing)`: without a hoe no effect
    is hoed off, and the negations of two cards played depend on the two cards alone (looked
    up); with a hoe nothing is negated (negation takes two cards) and the rules decide."""
    east, west = choices
    if type(east) is Play and type(west) is Play:
        return _negated_cards(east.card, west.card), _NOTHING_FAILS
    return rounds.negated(choices), rounds.hoed_off(choices, hoeing)


@functools.cache
def _negated_cards(east: str, west: str) -> tuple[bool, bool]:
    return rounds.negated((Play(0, east, 0, 0), Play(1, west, 1, 0)))


# ---- the random bot's draw ----------------------------------------------------------------


@per_state
def spots(state: LandscapingState) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Where a card may go (an empty tile, or grass for a flower), and the empty ones: the same
    for both seats, so kept on the state (`per_state`) for the second seat's draw."""
    gardens, size, blocked = state.gardens, state.size, state.blocked
    where: list[tuple[int, int]] = []
    empty: list[tuple[int, int]] = []
    for garden in (0, 1):
        barred = blocked[1] if blocked is not None and blocked[0] == garden else -1
        own = gardens[garden]  # a tuple, but a garden read some other way is listed afresh
        listing = _garden_spots if type(own) is tuple else _garden_spots.__wrapped__
        plantable, free = listing(garden, own, size)
        if barred < 0:
            where += plantable
            empty += free
        else:
            where += [spot for spot in plantable if spot[1] != barred]
            empty += [spot for spot in free if spot[1] != barred]
    return where, empty  # garden, then tile order


@functools.lru_cache(maxsize=4096)
def _garden_spots(
    garden: int, own: tuple[str, ...], size: int
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """One garden's part of `spots`, no tile barred (a garden a round leaves alone, or one
    seen in another match, comes back often: gardens are immutable tuples)."""
    spot = _SPOT[garden]
    return (
        tuple(spot[t] for t in range(size) if own[t] in _PLANTABLE),
        tuple(spot[t] for t in range(size) if not own[t]),
    )


def _masks(state: LandscapingState, card: str) -> tuple[int, int]:
    """Per garden, as bit masks: the tiles a Yellow may spread to (empty, not barred; the
    empty spots) or, for Purple, the flowers. Kept on the state for the other seat's draw."""
    return _open(state) if card == "Yellow" else _flowers(state)


@per_state
def _open(state: LandscapingState) -> tuple[int, int]:
    found = [0, 0]
    for garden, tile in spots(state)[1]:
        found[garden] |= 1 << tile
    return found[0], found[1]


@per_state
def _flowers(state: LandscapingState) -> tuple[int, int]:
    east, west = (sum(1 << t for t in range(state.size) if flower(own[t])) for own in state.gardens)
    return east, west


def hoes(state: LandscapingState, seat: int) -> list[tuple[int, int]]:
    """The seat's hoes as tile pairs, in the order `choices` lists them."""
    own, size = state.gardens[seat], state.size
    up = _UP[size]
    return [(a, b) for a in range(size) if own[a] for b in up[a] if own[b]]


def _can_hoe(state: LandscapingState, seat: int) -> bool:
    """Whether the seat has a hoe (`hoes` is not empty), stopping at the first."""
    own, size = state.gardens[seat], state.size
    up = _UP[size]
    return any(own[b] for a in range(size) if own[a] for b in up[a])


def draw(state: LandscapingState, seat: int, rng: random.Random) -> Move:
    """`TotalLandscaping.random_choice`: a kind first (a card or the hoe), then one of its
    entries in `choices`, drawing the same numbers from `rng`."""
    where, empty = spots(state)
    hand, can_hoe = state.hands[seat], _can_hoe(state, seat)
    kinds = [
        kind
        for kind in _KINDS
        if (can_hoe if kind == "hoe" else kind in hand and (empty if kind == "Green" else where))
    ]
    kind = rng.choice(kinds)
    if kind == "hoe":  # the hoes listed only when one is drawn
        a, b = rng.choice(hoes(state, seat))
        return {"hoe": [hexes.TILES[a], hexes.TILES[b]]}
    where = empty if kind == "Green" else where
    if kind not in ("Yellow", "Purple"):  # as many entries on every spot: found by division
        each = _red_ways(state, seat) if kind == "Red" else 1
        spot, n = divmod(rng.choice(range(each * len(where))), each)
        garden, tile = where[spot]
        return _way(state, seat, kind, garden, tile, n)
    ways = _ways(state, kind, where)
    drawn = rng.choice(range(sum(ways)))
    for (garden, tile), count in zip(where, ways):
        if drawn < count:
            return _way(state, seat, kind, garden, tile, drawn)
        drawn -= count
    raise AssertionError("the draw falls within the ways counted")


def _red_ways(state: LandscapingState, seat: int) -> int:
    """How many entries `moves.with_parameters` lists for a Red: ways to name its removals."""
    rest = sum(c != "Red" for c in state.hands[seat])
    return math.comb(rest, min(RED_DISCARDS, rest))


def _ways(state: LandscapingState, card: str, where: list[tuple[int, int]]) -> list[int]:
    """How many entries `moves.with_parameters` lists for a Yellow (its spread tiles, else the
    card alone) or a Purple (alone, or with a flower to recolour) on each spot of `where`."""
    masks, bits = _masks(state, card), _BITS[state.size]
    if card == "Yellow":
        return [(masks[garden] & bits[tile]).bit_count() or 1 for garden, tile in where]
    return [1 + (masks[garden] & bits[tile]).bit_count() for garden, tile in where]


def _way(state: LandscapingState, seat: int, card: str, garden: int, tile: int, n: int) -> Move:
    """Entry `n` of `moves.with_parameters` for the card on (garden, tile), built alone."""
    move: Move = {"card": card, "garden": SEATS[garden], "tile": hexes.TILES[tile]}
    own, inside = state.gardens[garden], _INSIDE[state.size][tile]
    if card == "Red":
        rest = [c for c in state.hands[seat] if c != "Red"]
        pairs = itertools.combinations(rest, min(RED_DISCARDS, len(rest)))
        move["remove"] = list(next(itertools.islice(pairs, n, None)))
    elif card == "Yellow":
        blocked = state.blocked
        targets = [t for t in inside if not own[t] and blocked != (garden, t)]
        if targets:
            move["spread"] = hexes.TILES[targets[n]]
    elif card == "Purple" and n:
        move["recolour"] = hexes.TILES[[t for t in inside if flower(own[t])][n - 1]]
    return move


# ---- every choice, listed -----------------------------------------------------------------


def choices(state: LandscapingState, seat: int) -> list[Move]:
    """`TotalLandscaping.choices` in its order (garden, tile, card in hand, parameters; then
    the hoes), each spot's targets found by lookup rather than by wording `moves.spread_error`
    for every neighbour."""
    hand, gardens, blocked = state.hands[seat], state.gardens, state.blocked
    inside = _INSIDE[state.size]
    rest = [c for c in hand if c != "Red"]
    removals = [list(p) for p in itertools.combinations(rest, min(RED_DISCARDS, len(rest)))]
    result: list[Move] = []
    for garden, tile in spots(state)[0]:
        own, name, at = gardens[garden], SEATS[garden], hexes.TILES[tile]
        for card in hand:
            if card == "Green" and own[tile]:
                continue  # Green is planted on empty tiles only
            base: Move = {"card": card, "garden": name, "tile": at}
            if card == "Red":
                result += [{**base, "remove": list(pair)} for pair in removals]
            elif card == "Yellow":
                targets = [t for t in inside[tile] if not own[t] and blocked != (garden, t)]
                result += [{**base, "spread": hexes.TILES[t]} for t in targets] or [base]
            elif card == "Purple":
                result.append(base)
                result += [
                    {**base, "recolour": hexes.TILES[t]} for t in inside[tile] if flower(own[t])
                ]
            else:
                result.append(base)
    return result + [{"hoe": [hexes.TILES[a], hexes.TILES[b]]} for a, b in hoes(state, seat)]
