"""Issue 24, fifth round: the shortcuts added to Topas, Topiary and Total Landscaping agree with
the plain computations they stand for, on thousands of positions of seeded random playouts.

- Topas: a table's spans edited by their keys alone (`Table.drawable`, `span_of`) are the spans
  a fresh listing gives, in its order; `lines_with`, which keeps its last answer for the rules'
  check of the move a bot drew, answers what a table laid afresh answers; the cards seen, kept
  on the state and handed on, are the cards `seen()` names; options structured once per value
  are what the declaration structures (1 and True told apart, bad values refused alike);
- Topiary: `score` answers alike on a state holding no kept table, and its component rows add
  up to each seat's total (what they answer is golden data: test_golden.py); options and the
  recorded manifest's components kept per value equal a fresh reading;
- Total Landscaping: `components` (plain dicts), `describe` (plain dicts told by type), the
  spots kept per garden and the failing effects (`fast.failing`: two cards' negations looked
  up) give what the plain code gave.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

import pytest

from tablelog.domain.games import manifests
from tablelog.domain.games.base import Component, InvalidSetup
from tablelog.domain.games.topas import rules as topas
from tablelog.domain.games.topiary import rules as topiary
from tablelog.domain.games.topiary.components import components as topiary_components
from tablelog.domain.games.total_landscaping import fast as tl_fast
from tablelog.domain.games.total_landscaping import rounds
from tablelog.domain.games.total_landscaping.components import components as tl_components
from tablelog.domain.games.total_landscaping.moves import Hoe, Play
from tablelog.domain.games.total_landscaping.rules import RULES as TL
from tablelog.domain.games.total_landscaping.state import GRASS, LandscapingState

POSITIONS = 3000


# ---- Topas --------------------------------------------------------------------------------


@cache
def topas_positions(count: int = POSITIONS) -> tuple[topas.TopasState, ...]:
    """Positions of random whole-deal matches, 1-4 players, both variants."""
    rules, seed = topas.RULES, 0
    found: list[topas.TopasState] = []
    while len(found) < count:
        seed += 1
        rng = random.Random(f"round5:{seed}")
        players = 1 + seed % 4
        options = rules.options({"expert": seed % 3 == 1})
        state = rules.start(players, options, rules.deal(players, options, rng))
        while rules.outcome(state) is None:
            found.append(state)
            state = rules.apply(state, rules.random_move(state, rng))
        found.append(state)
    return tuple(found[:count])


def test_topas_spans_by_their_keys_are_a_fresh_listing():
    for state in topas_positions():
        table = topas.RULES.table(state)
        drawable = table.drawable()
        fresh = table.listed_spans()
        assert [table.span_of(item) for item in drawable] == fresh
        assert table.spans() == fresh
        assert table.frontier() == topas.RULES._laid(state).frontier()


def test_topas_lines_with_kept_answers_what_a_fresh_table_answers():
    rng = random.Random(11)
    deck = topas.load_deck("topas")
    for state in topas_positions()[::2]:
        table, fresh = topas.RULES.table(state), topas.RULES._laid(state)
        spans = fresh.listed_spans()
        for cells in rng.sample(spans, min(4, len(spans))):
            halves = deck.halves[rng.choice(deck.cards)]
            for limit in (topas.LINE_LIMIT, topas.LINE_LIMIT, 3):  # asked twice, then anew
                fresh._lines = None  # a fresh answer every time
                assert table.lines_with(cells, halves, limit) == fresh.lines_with(
                    cells, halves, limit
                )
                assert table.lines_with(tuple(cells), halves, limit) == fresh.lines_with(
                    list(cells), halves, limit
                )


def test_topas_seen_cards_kept_and_handed_on_are_the_cards_seen():
    for state in topas_positions():
        deck = topas.load_deck(state.manifest)
        assert topas.RULES._seen_cards(state, deck) == set(state.seen())


def test_topas_applies_as_the_plain_parser_does():
    """Seeded playouts: `apply` gives the plain parser's state (the moves drawn are golden
    data: test_golden.py)."""
    rules = topas.RULES
    for seed in range(150):
        rng = random.Random(seed)
        players = 1 + seed % 4
        options = rules.options({"expert": seed % 2 == 0})
        state = rules.start(players, options, rules.deal(players, options, random.Random(seed)))
        while rules.outcome(state) is None:
            move = rules.random_move(state, rng)
            after = rules.apply(state, move)
            assert after == rules.plain_apply(state, move)
            state = after


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"expert": True},
        {"expert": 1},
        {"expert": 0},
        {"expert": "yes"},
        {"expert": 2},
        {"expert": [True]},
        {"manifest": "topas"},
        {"manifest": ""},
        {"nonsense": 1},
        {1: True},
    ],
)
def test_options_structured_once_are_what_the_declaration_structures(options):
    for structured, declared in (
        (topas._structured, topas.GAME_INFO.structure_options),
        (topiary._structured, topiary.declared.GAME_INFO.structure_options),
    ):
        for _ in range(2):  # the first time and the kept answer
            assert _outcome(structured, options) == _outcome(declared, options)


def _outcome(structure: Any, options: dict[Any, Any]) -> Any:
    try:
        return structure(options)
    except InvalidSetup as err:
        return str(err)


# ---- Topiary ------------------------------------------------------------------------------


@cache
def topiary_positions(count: int = POSITIONS) -> tuple[topiary.TopiaryState, ...]:
    """Positions of random matches, 2-4 players, with and without the last player's choice."""
    rules, seed = topiary.RULES, 0
    found: list[topiary.TopiaryState] = []
    while len(found) < count:
        seed += 1
        rng = random.Random(f"round5:{seed}")
        players = 2 + seed % 3
        options = rules.options({"last_player_chooses": seed % 2 == 0})
        state = rules.start(players, options, rules.deal(players, options, rng))
        while rules.outcome(state) is None:
            found.append(state)
            state = rules.apply(state, rules.random_move(state, rng))
        found.append(state)
    return tuple(found[:count])


def test_topiary_score_keeps_nothing_and_its_components_add_up_to_the_total():
    # What `score` and `components` answer is golden data (tests/games/golden/topiary.json);
    # here, that a state holding no kept table scores alike, and the rows add up.
    rules = topiary.RULES
    for state in topiary_positions()[::3]:
        if any(None in hand for hand in state.hands):
            continue  # hidden hands: no score
        fresh = topiary.TopiaryState(**{k: getattr(state, k) for k in _fields(state)})
        scores = rules.score(state)
        assert rules.score(fresh) == scores  # nothing kept on the state
        for rows, entry in zip(topiary_components(state, scores, []), scores):
            assert sum(row.points for row in rows) == entry["total"]


def _fields(state: Any) -> list[str]:
    return list(state.__dataclass_fields__)


def test_topiary_options_and_recorded_components_kept_are_a_fresh_reading():
    rules = topiary.RULES
    embedded = manifests.embed("topiary", manifests.find("topiary"))
    reference = manifests.register(embedded)
    for options in (
        {},
        {"last_player_chooses": True},
        {"manifest": reference},
        {"manifest": reference, "last_player_chooses": "yes"},
    ):
        for _ in range(2):
            opts, types, values = rules._options_and_components(options)
            chosen = topiary.declared.GAME_INFO.structure_options(options)
            assert opts == {
                "last_player_chooses": chosen.last_player_chooses,
                "manifest": chosen.manifest,
            }
            assert (types, values) == topiary._components(chosen.manifest)


# ---- Total Landscaping --------------------------------------------------------------------


@cache
def tl_matches(count: int = 60) -> tuple[tuple[LandscapingState, list[Any]], ...]:
    """Seeded random matches, both hoeing variants: every position and the moves played."""
    found = []
    for seed in range(count):
        rng = random.Random(f"round5:{seed}")
        options = TL.options({"hoeing": "after-effects"} if seed % 2 else {})
        state = TL.start(2, options, TL.deal(2, options, rng))
        played: list[Any] = []
        while TL.outcome(state) is None:
            move = TL.combine(state, {s: TL.random_choice(state, s, rng) for s in (0, 1)})
            found.append((state, list(played)))
            played.append((0, move))
            state = TL.apply(state, move)
        found.append((state, played))
    return tuple(found)


def _plain_tl_components(scores: list[dict[str, Any]], moves: Any) -> list[list[Component]]:
    """Total Landscaping's `components` as it was, with Counters."""
    played: list[Counter[str]] = [Counter() for _ in scores]
    for _, move in moves:
        for seat, garden in enumerate(("east", "west")):
            choice = move.get(garden) or {}
            card = choice.get("card")
            played[seat]["hoe" if "hoe" in choice else str(card).capitalize()] += 1
    result = []
    for seat, entry in enumerate(scores):
        rows = [
            Component("card colour", card, n, float("nan"))
            for card, n in sorted(played[seat].items())
        ]
        rows += [
            Component("bout condition", condition, int(n), float(n))
            for condition, n in entry["categories"].items()
        ]
        result.append(rows)
    return result


def _same_rows(a: list[list[Component]], b: list[list[Component]]) -> bool:
    """Equal rows, NaN points equal to NaN."""
    return [[(*row[:3], repr(row[3])) for row in seat] for seat in a] == [
        [(*row[:3], repr(row[3])) for row in seat] for seat in b
    ]


def test_tl_components_are_the_plain_ones():
    odd = [(0, {"east": {}, "west": {"card": "red", "garden": "east", "tile": "A"}})]
    for state, moves in tl_matches()[::7]:
        scores = TL.score(state)
        for given in (moves, moves + odd):
            assert _same_rows(
                tl_components(state, scores, given), _plain_tl_components(scores, given)
            )


def _plain_describe(move: Any) -> str:
    """`describe` as it was (every value checked against the abstract Mapping)."""
    parts = []
    for seat, title in (("east", "East"), ("west", "West")):
        choice = move.get(seat, {}) if isinstance(move, Mapping) else {}
        if not isinstance(choice, Mapping):
            parts.append(f"{title}: ?")
        elif "hoe" in choice:
            parts.append(f"{title} hoes {' and '.join(map(str, choice['hoe']))}")
        else:
            garden = str(choice.get("garden", "?")).lower()
            text = (
                f"{title} plays {choice.get('card')} on {choice.get('tile')} in the {garden} garden"
            )
            if choice.get("remove") is not None:
                text += f" removing {' and '.join(map(str, choice['remove'])) or 'nothing'}"
            if choice.get("spread") is not None:
                text += f" spreading to {choice['spread']}"
            if choice.get("recolour") is not None:
                text += f" turning {choice['recolour']} purple"
            parts.append(text)
    return "; ".join(parts)


def test_tl_describe_is_the_plain_one():
    moves: list[Any] = [
        [],
        "east",
        {"east": "Red"},
        {"west": {"hoe": ["A", "B1"]}},
        MappingProxyType({"east": MappingProxyType({"card": "Red", "garden": "w", "tile": "A"})}),
        {"east": {"card": "Red", "garden": "east", "tile": "A", "remove": []}},
    ]
    moves += [move for _, played in tl_matches()[::5] for _, move in played[-3:]]
    for move in moves:
        assert TL.describe(move) == _plain_describe(move)


def _plain_spots(state: LandscapingState) -> tuple[list[Any], list[Any]]:
    """`fast.spots` as it was, nothing kept."""
    where: list[Any] = []
    empty: list[Any] = []
    for garden in (0, 1):
        own = state.gardens[garden]
        barred = state.blocked[1] if state.blocked and state.blocked[0] == garden else -1
        where += [(garden, t) for t in range(state.size) if own[t] in ("", GRASS) and t != barred]
        empty += [(garden, t) for t in range(state.size) if not own[t] and t != barred]
    return where, empty


def test_tl_spots_kept_per_garden_are_the_plain_listing():
    for state, _ in tl_matches():
        fresh = LandscapingState(**{k: getattr(state, k) for k in _fields(state)})
        assert tl_fast.spots(fresh) == _plain_spots(state)
        fields = {k: getattr(state, k) for k in _fields(state)}
        fields["gardens"] = tuple(list(g) for g in state.gardens)  # read some other way
        listed = LandscapingState(**fields)
        assert tl_fast.spots(listed) == _plain_spots(state)


def test_tl_failing_effects_are_the_rules_reading():
    cards = ("Red", "Orange", "Yellow", "Green", "Blue", "Purple", "White")
    plays: list[Any] = [Play(0, card, 0, 3) for card in cards] + [Hoe(0, (3, 4)), Hoe(0, (0, 1))]
    plays += [Play(0, "Yellow", 1, 3, spread=4), Play(0, "Purple", 0, 2, recolour=1)]
    rng = random.Random(5)
    for seed in range(20):  # the choices of seeded rounds, as read
        options = TL.options({"hoeing": "after-effects"} if seed % 2 else {})
        state = TL.start(2, options, TL.deal(2, options, rng))
        while TL.outcome(state) is None:
            move = TL.combine(state, {s: TL.random_choice(state, s, rng) for s in (0, 1)})
            plays += TL._parse_round(state, move)[0]
            state = TL.apply(state, move)
    plays = list(dict.fromkeys(dataclasses.replace(play, seat=0) for play in plays))
    for east in plays:
        for west in plays:
            west = dataclasses.replace(west, seat=1)
            for hoeing in ("stops-effects", "after-effects"):
                choices = (east, west)
                assert tl_fast.failing(choices, hoeing) == (
                    rounds.negated(choices),
                    rounds.hoed_off(choices, hoeing),
                )
