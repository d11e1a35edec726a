"""Total Landscaping's fast paths (issue 24, `total_landscaping/fast.py` and the lookups in
`rounds.py` and `state.py`) agree with the plain code they stand beside, on thousands of random
positions of both hoeing variants:

- `fast.choice` reads a choice exactly as `moves.parse_choice` does, or declines (None); it never
  accepts what the parser refuses, so `apply` refuses every move with the parser's message;
- `apply` gives the same state with the fast reading as with the parser alone;
- `choices` lists what the plain listing lists, in its order;
- the random bot's draw is an entry of the listing and draws what the plain choice over it draws;
- withering, the garden figures and the bout-end check equal their plain readings (written out
  here as they were before the lookups), on random gardens too;
- `totals` equals `score`'s totals, and `options` reads what the declaration reads;
- a state rebuilt from its JSON (nothing kept on it) gives the same answers.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from tablelog.domain.games.base import IllegalMove, InvalidSetup
from tablelog.domain.games.total_landscaping import fast, hexgarden, moves, rounds
from tablelog.domain.games.total_landscaping.declaration import GAME_INFO
from tablelog.domain.games.total_landscaping.rules import RULES
from tablelog.domain.games.total_landscaping.state import (
    CARDS,
    COLOUR_OF,
    GRASS,
    LETTER,
    SEATS,
    LandscapingState,
    flower,
)

POSITIONS = 3000
VARIANTS = [{}, {"hoeing": "after-effects"}]


@cache
def positions(count: int = POSITIONS) -> tuple[LandscapingState, ...]:
    """Positions in play of seeded random matches, both variants in turn."""
    found: list[LandscapingState] = []
    seed = 0
    while len(found) < count:
        seed += 1
        rng = random.Random(seed)
        options = RULES.options(VARIANTS[seed % 2])
        state = RULES.start(2, options, RULES.deal(2, options, rng))
        while RULES.outcome(state) is None:
            found.append(state)
            state = RULES.apply(state, _round(state, rng))
    return tuple(found[:count])


def _round(state: LandscapingState, rng: random.Random) -> dict[str, Any]:
    return RULES.combine(state, {seat: RULES.random_choice(state, seat, rng) for seat in (0, 1)})


def parsed(state: LandscapingState, seat: int, raw: object) -> Any:
    """The parser's reading, or its refusal's message."""
    try:
        return moves.parse_choice(state, seat, raw)
    except IllegalMove as refusal:
        return f"refused: {refusal}"


def variants(choice: dict[str, Any], rng: random.Random) -> Iterator[object]:
    """The choice as listed, and spellings and mistakes around it: other cases, other tiles,
    other parameters, missing and extra keys, wrong types."""
    yield choice
    tile = rng.choice(hexgarden.TILES)
    for key in list(choice):
        value = choice[key]
        yield {k: v for k, v in choice.items() if k != key}
        if isinstance(value, str):
            yield {**choice, key: value.lower()}
            yield {**choice, key: tile}
        yield {**choice, key: None}
        yield {**choice, key: [tile]}
    yield {**choice, "spread": tile}
    yield {**choice, "recolour": tile}
    yield {**choice, "remove": rng.sample(CARDS, rng.choice((0, 1, 2, 2, 3)))}
    yield {**choice, "remove": ["Orange", "Orange"]}
    yield {**choice, "extra": 1}
    yield {"hoe": [tile, rng.choice(hexgarden.TILES)]}
    yield {"hoe": [tile, tile]}
    yield {"hoe": (tile, 3)}
    yield {"hoe": [tile], "card": "Red"}
    yield [choice]


def test_fast_choice_reads_what_the_parser_reads_or_declines():
    rng = random.Random(1)
    read = 0
    for state in positions():
        for seat in (0, 1):
            offered = RULES.choices(state, seat)
            for choice in rng.sample(offered, min(4, len(offered))):
                assert fast.choice(state, seat, choice) == moves.parse_choice(state, seat, choice)
                for raw in variants(choice, rng):
                    quick = fast.choice(state, seat, raw)
                    if quick is not None:
                        read += 1
                        assert quick == parsed(state, seat, raw), raw
    assert read > POSITIONS  # the fast path does read, not only decline


@pytest.fixture
def parser_only(monkeypatch):
    """`apply` with every choice read by the parser (the plain path)."""

    def plain(state: LandscapingState, move: Any) -> Any:
        with monkeypatch.context() as patch:
            patch.setattr(fast, "choice", lambda *_: None)
            return RULES.apply(state, move)

    return plain


def _applied(apply: Any, state: LandscapingState, move: object) -> Any:
    try:
        return apply(state, move)
    except IllegalMove as refusal:
        return f"refused: {refusal}"


def test_apply_gives_the_parsers_state_and_refusals(parser_only):
    rng = random.Random(2)
    for state in positions()[::2]:
        move = _round(state, rng)
        assert RULES.apply(state, move) == parser_only(state, move)
        for seat in ("east", "west"):
            for raw in list(variants(move[seat], rng))[:: rng.choice((3, 4, 5))]:
                odd = {**move, seat: raw}
                assert _applied(RULES.apply, state, odd) == _applied(parser_only, state, odd)
    first, shapes = positions()[0], [{"east": {}}, {"east": 1, "west": 2, "north": 3}, [1], None]
    for shape in shapes:
        assert _applied(RULES.apply, first, shape) == _applied(parser_only, first, shape)


def plain_choices(state: LandscapingState, seat: int) -> list[dict[str, Any]]:
    """`choices` as it was listed before `fast.choices`: every card on every tile checked by
    `moves.planting_error`, its parameters by `moves.with_parameters`, then the hoes."""
    result: list[dict[str, Any]] = []
    for garden in (0, 1):
        for tile in range(state.size):
            for card in state.hands[seat]:
                if moves.planting_error(state, card, garden, tile) is None:
                    base = {"card": card, "garden": SEATS[garden], "tile": hexgarden.TILES[tile]}
                    result += moves.with_parameters(state, seat, base, garden, tile)
    own, size = state.gardens[seat], state.size
    return result + [
        {"hoe": [hexgarden.TILES[a], hexgarden.TILES[b]]}
        for a in range(size)
        if own[a]
        for b in hexgarden.NEIGHBOURS[a]
        if a < b < size and own[b]
    ]


def test_choices_are_the_plain_listing():
    for state in positions()[::2]:
        for seat in (0, 1):
            assert RULES.choices(state, seat) == plain_choices(state, seat)


def _by_kind_choice(offered: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The plain draw: a kind (card or hoe) over the sorted kinds, then an entry of that kind."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for choice in offered:
        by_kind.setdefault(choice.get("card", "hoe"), []).append(choice)
    return rng.choice(by_kind[rng.choice(sorted(by_kind))])


def test_random_choice_draws_the_plain_choice():
    for number, state in enumerate(positions()[1::2]):
        for seat in (0, 1):
            fast_rng, plain_rng = random.Random(number), random.Random(number)
            offered = plain_choices(state, seat)
            for _ in range(3):
                drawn = RULES.random_choice(state, seat, fast_rng)
                assert drawn == _by_kind_choice(offered, plain_rng)
            assert fast_rng.random() == plain_rng.random()


# ---- the rounds' lookups: any spelling of a tile reads as the tile it stands for ----------


def random_gardens(count: int) -> Iterator[tuple[str, ...]]:
    """Gardens of every density, in the contents the rounds plant."""
    rng = random.Random(3)
    contents = ["", GRASS, *LETTER.values(), *(GRASS + letter for letter in COLOUR_OF)]
    for _ in range(count):
        density = rng.random()
        yield tuple(rng.choice(contents) if rng.random() < density else "" for _ in hexgarden.TILES)


def respelled(garden: tuple[str, ...]) -> tuple[str, ...]:
    """The garden in contents no round plants that `flower` reads alike: a bare flower after
    a stray letter ("XR"), a flower on grass after a second G ("GGR"), grass and empty tiles as
    stray letters ("GX", "X")."""
    return tuple(
        "X" + tile
        if flower(tile) and not tile.startswith(GRASS)
        else GRASS + tile
        if flower(tile)
        else tile + "X"
        if tile
        else "X"
        for tile in garden
    )


def test_withering_and_the_bout_end_figures_read_any_spelling_as_the_tile():
    # What they answer for the gardens of play is golden data (test_golden.py) and the rules'
    # worked examples (test_total_landscaping*.py).
    for garden in random_gardens(1500):
        odd = respelled(garden)
        assert set(odd).isdisjoint(garden) or not any(garden)
        assert rounds.withered(odd) == rounds.withered(garden)
        assert rounds._six_connected(odd) == rounds._six_connected(garden)
        assert rounds.figures(odd) == rounds.figures(garden)


# ---- totals, and states rebuilt from JSON -------------------------------------------------


def test_totals_are_the_scores_totals():
    for state in positions()[::3]:
        assert RULES.totals(state) == [float(entry["total"]) for entry in RULES.score(state)]


def test_a_state_rebuilt_from_json_answers_the_same():
    rng = random.Random(4)
    for number, state in enumerate(positions()[::3]):
        RULES.random_choice(state, 0, random.Random(0))  # the draw keeps its spots on `state`
        rebuilt = RULES.decode(json.loads(json.dumps(RULES.encode(state))))
        assert rebuilt == state and "_spots" not in rebuilt.__dict__
        assert (rebuilt.over, rebuilt.size, rebuilt.wins(0), rebuilt.wins(1)) == (
            state.over,
            state.size,
            state.wins(0),
            state.wins(1),
        )
        for seat in (0, 1):
            assert RULES.random_choice(rebuilt, seat, random.Random(number)) == (
                RULES.random_choice(state, seat, random.Random(number))
            )
        move = _round(state, rng)
        assert RULES.apply(rebuilt, move) == RULES.apply(state, move)
        assert RULES.totals(rebuilt) == RULES.totals(state)
        assert RULES.outcome(rebuilt) == RULES.outcome(state)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"hoeing": "stops-effects"},
        {"hoeing": "after-effects"},
        {"hoeing": "After-Effects"},
        {"hoeing": None},
        {"hoeing": 1},
        {"hoeing": "after-effects", "other": 1},
        {"other": 1},
    ],
)
def test_options_are_read_as_the_declaration_reads_them(options):
    def declared(options: dict[str, Any]) -> Any:
        try:
            return {"hoeing": GAME_INFO.structure_options(options).hoeing}
        except InvalidSetup as refusal:
            return f"refused: {refusal}"

    def read(options: dict[str, Any]) -> Any:
        try:
            return RULES.options(options)
        except InvalidSetup as refusal:
            return f"refused: {refusal}"

    assert read(options) == declared(options)
