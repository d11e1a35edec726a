"""The engines' fast paths agree with the plain ones, on thousands of random positions per game.

A balance study spends its time in `random_move` (bots), `legal_moves` and `score`; the engines
answer them without listing, parsing and checking every candidate (issue 24). Each fast answer is
compared here with the plain one it replaces, written out in this file or kept by the engine as
its reference (`GeoShapes.plain_legal_moves`: every candidate parsed and checked by the rules
`apply` uses):

- the same legal moves in the same order;
- `random_move` is always legal and draws from the generator exactly what the plain choice over
  the listed moves draws (so seeded simulations play the same matches as before), and over many
  draws it offers every legal move;
- a state rebuilt from its JSON (no cached lookup tables) gives the same answers;
- fast scores equal the plain computation.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from tablelog.domain.games import GAMES, RulesError
from tablelog.domain.games.geoshapes.board import missing
from tablelog.domain.games.geoshapes.rules import RULES as GEOSHAPES
from tablelog.domain.games.topas.rules import RULES as TOPAS
from tablelog.domain.games.topitop.rules import RULES as TOPITOP
from tablelog.domain.games.total_landscaping.rules import RULES as LANDSCAPING

POSITIONS = 2000
DRAWS = 3000  # per position in the coverage test: a move of 1 in 200 is missed with p < 1e-6
OPTIONS: dict[str, list[dict[str, Any]]] = {  # every variant whose moves differ
    "geoshapes": [{}, {"half_board": True}, {"placing_optional": True}, {"empty_deck": "end"}],
    "total-landscaping": [{}, {"hoeing": "after-effects"}],
}


@cache
def positions(game: str, count: int = POSITIONS) -> tuple[Any, ...]:
    """`count` positions of random games (every player count and variant in turn), in play."""
    rules, found = GAMES[game], list[Any]()
    variants: list[dict[str, Any]] = OPTIONS.get(game, [{}])
    seed = 0
    while len(found) < count:
        seed += 1
        rng = random.Random(seed)
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        options = rules.options(variants[seed % len(variants)])
        if options.get("half_board"):
            players = 2
        state = rules.start(players, options, rules.deal(players, options, rng))
        for _ in range(rules.playout_cap or 600):
            if rules.outcome(state) is not None or not _has_a_move(rules, state):
                break
            found.append(state)
            state = rules.apply(state, rules.random_move(state, rng))
    return tuple(found[:count])


def _has_a_move(rules, state) -> bool:
    return bool(rules.simultaneous or rules.legal_moves(state))


def _by_kind_choice(moves: list[dict], kind_of, rng: random.Random) -> dict:
    """The plain draw of a game that picks a kind of move first: group, sort, choose twice."""
    by_kind: dict[str, list[dict]] = {}
    for move in moves:
        by_kind.setdefault(kind_of(move), []).append(move)
    return rng.choice(by_kind[rng.choice(sorted(by_kind))])


def plain_draw(game: str, state: Any, rng: random.Random) -> dict:
    """What `random_move` drew before its fast path: a choice over the listed legal moves."""
    rules = GAMES[game]
    if game == "geoshapes":
        return _by_kind_choice(GEOSHAPES.plain_legal_moves(state), rules.move_kind, rng)
    if game == "total-landscaping":
        return rules.combine(
            state,
            {
                seat: _by_kind_choice(
                    rules.choices(state, seat), lambda c: c.get("card", "hoe"), rng
                )
                for seat in rules.to_move(state)
            },
        )
    return rng.choice(rules.legal_moves(state))


def offered(game: str, state: Any) -> list[dict]:
    """The moves a random move may be (a simultaneous round: one seat's choices, seat 0)."""
    rules = GAMES[game]
    if rules.simultaneous:
        return rules.choices(state, 0)
    if game == "geoshapes":
        return GEOSHAPES.plain_legal_moves(state)
    if game == "topitop":
        return TOPITOP.plain_legal_moves(state)
    return rules.legal_moves(state)


def test_geoshapes_legal_moves_are_the_plain_listing():
    for state in positions("geoshapes"):
        assert GEOSHAPES.legal_moves(state) == GEOSHAPES.plain_legal_moves(state)


def test_topas_legal_moves_are_the_plain_listing():
    for state in positions("topas")[::8]:  # every card on every span: milliseconds a listing
        assert TOPAS.legal_moves(state) == TOPAS.plain_legal_moves(state)


def test_topitop_legal_moves_are_the_plain_listing():
    for state in positions("topitop"):
        assert TOPITOP.legal_moves(state) == TOPITOP.plain_legal_moves(state)


# Topas draws a card and a place until they fit (uniform, not the list's draws): not compared.
SAME_DRAWS = ["geoshapes", "topiary", "topitop", "total-landscaping"]


@pytest.mark.parametrize("game", SAME_DRAWS)
def test_random_move_draws_what_the_plain_choice_draws(game):
    rules = GAMES[game]
    for number, state in enumerate(positions(game)):
        fast = rules.random_move(state, random.Random(number))
        assert fast == plain_draw(game, state, random.Random(number))
        rules.apply(state, fast)  # legal: no IllegalMove


@pytest.mark.parametrize("game", list(GAMES))
def test_random_move_is_always_legal(game):
    rules = GAMES[game]
    rng = random.Random(7)
    for state in positions(game, POSITIONS // 4):
        move = rules.random_move(state, rng)
        if rules.simultaneous:
            assert move["east"] in rules.choices(state, 0)
            assert move["west"] in rules.choices(state, 1)
        else:
            assert move in rules.legal_moves(state)


# Topas offers dozens of moves even near the end (every card on every free span), Topiary
# a hundred and more (every tile a visitor may take, and what replaces it).
FEW = {"topas": 40, "topiary": 200}


def _few_moves(game: str) -> Iterator[Any]:
    """Positions with a handful of legal moves, where many draws must meet each one."""
    seen = 0
    for state in positions(game)[:300]:
        if 1 < len(offered(game, state)) <= FEW.get(game, 24):
            yield state
            seen += 1
            if seen == 8:
                return


@pytest.mark.parametrize("game", list(GAMES))
def test_random_move_offers_every_legal_move(game):
    rules = GAMES[game]
    rng = random.Random(11)
    checked = 0
    for state in _few_moves(game):
        if rules.simultaneous:
            drawn = [rules.random_choice(state, 0, rng) for _ in range(DRAWS)]
        else:
            drawn = [rules.random_move(state, rng) for _ in range(DRAWS)]
        keys = {json.dumps(m, sort_keys=True) for m in drawn}
        assert keys == {json.dumps(m, sort_keys=True) for m in offered(game, state)}
        checked += 1
    assert checked, f"no {game} position with a handful of moves was found"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_state_rebuilt_from_json_answers_the_same(game):
    """Lookup tables are built per board on first use; a decoded state starts without them."""
    rules = GAMES[game]
    rng = random.Random(3)
    for state in positions(game)[::20]:
        rebuilt = rules.decode(json.loads(json.dumps(rules.encode(state))))
        assert rebuilt == state
        assert rules.score(rebuilt) == rules.score(state)
        if not rules.simultaneous:
            assert rules.legal_moves(rebuilt) == rules.legal_moves(state)
        move = rules.random_move(state, random.Random(rng.random()))
        assert rules.apply(rebuilt, move) == rules.apply(state, move)


def plain_shapes_needed(state: Any, seat: int) -> int:
    """GeoShapes' closeness count as the plain Counter arithmetic does it, place by place."""
    board, hand = state.board, Counter(state.players[seat].hand)
    total = 0
    for quadrant in state.players[seat].quadrants:
        circle = board.circle(quadrant)
        costs = []
        for figure in board.figures(quadrant):
            gaps: Counter[str] = Counter()
            for place in (figure, circle):
                placed = state.placed[board.places.index(place)]
                have = Counter(s for s in placed if s != board.wild)
                open_slots = []
                for shape, count in place.needs.items():
                    for _ in range(count):
                        if have[shape]:
                            have[shape] -= 1
                        else:
                            open_slots.append(shape)
                assert open_slots == missing(place, placed, board.wild)
                gaps.update(open_slots[placed.count(board.wild) :])
            uncovered = sum(max(0, n - hand[shape]) for shape, n in gaps.items())
            costs.append(sum(gaps.values()) + max(0, uncovered - hand[board.wild]))
        total += min(costs)
    return total


def test_geoshapes_fast_score_equals_the_plain_count():
    rules = GAMES["geoshapes"]
    for state in positions("geoshapes"):
        for seat, entry in enumerate(rules.score(state)):
            assert entry["details"]["shapes_needed"] == plain_shapes_needed(state, seat)


def test_total_landscaping_garden_figures_read_as_their_fields():
    for state in positions("total-landscaping")[::4]:
        for seat, entry in enumerate(LANDSCAPING.score(state)):
            figures = LANDSCAPING.figures(state.gardens[seat])
            assert entry["details"]["garden_now"] == dataclasses.asdict(figures)


def plain_totals(rules, state) -> list[float] | type[Exception]:
    """Each seat's total read off the full `score`, or the error it raises."""
    try:
        return [float(entry["total"]) for entry in rules.score(state)]
    except RulesError as err:
        return type(err)


@pytest.mark.parametrize("game", list(GAMES))
def test_lean_totals_are_the_scores_totals(game):
    rules = GAMES[game]
    for state in positions(game)[::2]:
        expected = plain_totals(rules, state)
        if isinstance(expected, list):
            assert rules.totals(state) == expected
        else:
            with pytest.raises(expected):
                rules.totals(state)
