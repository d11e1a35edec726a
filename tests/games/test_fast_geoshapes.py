"""GeoShapes' fast paths agree with its plain ones, on thousands of random and greedy positions.

A balance study (issue 24) and the board search (issue 27) spend their time in `random_move`,
`apply`, `legal_moves` and `evaluate`. The engine answers them from per-board index tables and
memos, reads a well-formed stored move without the full parser (`moves.quick_parse`) and checks
it without wording anything (`_quick_legal`), falling back to the full parser and rules
(`plain_apply`) for anything else. Each fast answer is compared here with the plain one:

- `apply` gives the state `plain_apply` gives, or the same refusal in the same words, for every
  candidate of a position (legal or not) and for unusual spellings of them;
- the states it builds (without `dataclasses.replace`) are ordinary states: equal to, and
  encoded as, what the dataclass's own constructor builds;
- the kinds of move found without listing them are those the lists give; the trades drawn
  without listing them are the listed ones, one by one;
- `evaluate` equals the plain Counter count it replaced;
- seeded random and greedy matches are move for move those of the plain paths;
- a state rebuilt from its JSON (no tables, no memo) answers the same.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from tablelog.domain import bots
from tablelog.domain.games.base import IllegalMove
from tablelog.domain.games.geoshapes.board import fits, missing
from tablelog.domain.games.geoshapes.rules import RULES, GeoShapes, GeoShapesState, _OneForOne

VARIANTS: list[dict[str, Any]] = [
    {},
    {"half_board": True},
    {"placing_optional": True},
    {"empty_deck": "end"},
    {"placing_optional": True, "empty_deck": "end"},
]
POSITIONS = 2400


@cache
def positions(count: int = POSITIONS) -> tuple[GeoShapesState, ...]:
    """Positions of random and greedy games (every player count and variant in turn)."""
    found: list[GeoShapesState] = []
    seed = 0
    while len(found) < count:
        seed += 1
        rng = random.Random(seed)
        options = RULES.options(VARIANTS[seed % len(VARIANTS)])
        players = 2 if options["half_board"] else 2 + seed % 3
        state = RULES.start(players, options, RULES.deal(players, options, rng))
        bot = bots.greedy_bot if seed % 3 == 0 else bots.random_bot
        for _ in range(400):
            if state.over:
                break
            found.append(state)
            state = RULES.plain_apply(state, bot(RULES, state, state.turn, rng))
        found.append(state)  # the end position too (apply refuses everything there)
    return tuple(found[:count])


def answer(apply: Callable[[GeoShapesState, Any], GeoShapesState], state, move) -> Any:
    try:
        return apply(state, move)
    except IllegalMove as refusal:
        return f"refused: {refusal}"


def unusual(state: GeoShapesState, move: dict[str, Any]) -> list[Any]:
    """Spellings of `move` the fast path leaves to the full parser (or must refuse)."""
    key = next(iter(move))
    value = move[key]
    variants: list[Any] = [
        {**move, "extra": 1},
        [move],
        {key: value.lower() if isinstance(value, str) else value},
        {**move, key: True},
    ]
    if key == "discard":
        variants += [
            {**move, "from": None},
            {**move, "to": state.players[state.turn].quadrants[0]},
            {**move, "to": state.board.quadrants[-1].upper()},
        ]
    if key == "place":
        variants.append({"place": value, "on": move["on"].upper()})
    if key == "trade":
        own = [
            {"shape": shape, "from": place.name}
            for place in state.own_places(state.turn)
            for shape in state.on(place.name)
        ]
        variants += [
            {"trade": {**value, "give": own[:1] or value["give"]}},
            {"trade": {**value, "give": value["give"] * 2}},
            {"trade": {**value, "give": value["give"] * 4}},
            {"trade": {**value, "with": state.turn}},
            {"trade": {**value, "with": True}},
            {"trade": {**value, "get": []}},
        ]
    return variants


def test_apply_gives_what_the_full_parser_and_rules_give():
    rng = random.Random(5)
    compared = 0
    for state in positions():
        candidates = RULES._candidates(state) if not state.over else [{"end_play": True}]
        if len(candidates) > 30:
            candidates = rng.sample(candidates, 30)
        for move in candidates + unusual(state, rng.choice(candidates)):
            fast, plain = answer(RULES.apply, state, move), answer(RULES.plain_apply, state, move)
            assert fast == plain, move
            if not isinstance(fast, str):
                assert fast.__dict__.keys() == plain.__dict__.keys()  # fields only, no caches
                assert RULES.encode(fast) == RULES.encode(plain)
            compared += 1
    assert compared > 50_000


def test_every_listed_move_is_taken_by_the_fast_path():
    """The moves bots play are read and checked by the quick path (not the fallback)."""
    quick = RULES._quick_legal
    for state in positions()[::3]:
        for move in RULES.legal_moves(state):
            action = RULES._parse(state, move)
            if move.get("end_play") and state.stage != "traded":
                continue  # ending a play with nothing to discard: rare, left to the rules
            assert quick(state, action), move


def test_the_kinds_found_without_listing_are_the_listed_ones():
    for state in positions():
        if state.over:
            continue
        listed: dict[str, list[dict[str, Any]]] = {}
        for move in RULES.plain_legal_moves(state):
            listed.setdefault(RULES.move_kind(move), []).append(move)
        kinds = RULES._legal_kinds(state)
        assert list(kinds) == list(listed)
        assert {kind: moves() for kind, moves in kinds.items()} == listed
        assert RULES._kind_names(state) == sorted(listed)


def test_trades_drawn_without_listing_are_the_listed_trades():
    for state in positions()[::2]:
        if state.over or state.stage != "act":
            continue
        listed = GeoShapes._one_for_one_trades(state)
        lazy = _OneForOne(state)
        assert len(lazy) == len(listed)
        assert [lazy[number] for number in range(len(lazy))] == listed
        with pytest.raises(IndexError):
            lazy[len(lazy)]


def plain_draw(state: GeoShapesState, rng: random.Random) -> dict[str, Any]:
    """What `random_move` drew before its fast paths: a kind, then a move of the full list."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for move in RULES.plain_legal_moves(state):
        by_kind.setdefault(RULES.move_kind(move), []).append(move)
    return rng.choice(by_kind[rng.choice(sorted(by_kind))])


def test_random_move_draws_what_the_plain_choice_draws():
    for number, state in enumerate(positions()):
        if state.over:
            continue
        fast, plain = random.Random(number), random.Random(number)
        assert RULES.random_move(state, fast) == plain_draw(state, plain)
        assert fast.random() == plain.random()  # the generator left in the same place


def plain_shapes_needed(state: GeoShapesState, seat: int) -> int:
    """`_shapes_needed` as it was written before its memo: Counters, place by place."""
    board, hand = state.board, Counter(state.players[seat].hand)
    wilds = hand[board.wild]

    def open_slots(place):
        placed = state.on(place.name)
        return missing(place, placed, board.wild)[placed.count(board.wild) :]

    total = 0
    for quadrant in state.players[seat].quadrants:
        circle_gaps = open_slots(board.circle(quadrant))
        costs = []
        for figure in board.figures(quadrant):
            gaps = open_slots(figure) + circle_gaps
            uncovered = sum(max(0, gaps.count(shape) - hand[shape]) for shape in set(gaps))
            costs.append(len(gaps) + max(0, uncovered - wilds))
        total += min(costs)
    return total


def plain_evaluate(state: GeoShapesState, seat: int) -> float:
    if state.winner is not None:
        return 1000.0 if state.winner == seat else -1000.0
    hand = sum(state.board.values[shape] for shape in state.players[seat].hand)
    return -plain_shapes_needed(state, seat) - hand / 100


def test_evaluate_equals_the_plain_count():
    for state in positions():
        for seat in range(len(state.players)):
            assert RULES.evaluate(state, seat) == plain_evaluate(state, seat)
            assert RULES.score(state)[seat]["details"]["shapes_needed"] == plain_shapes_needed(
                state, seat
            )


def test_a_state_rebuilt_from_json_answers_the_same():
    """Tables and memos are built per board on first use; a decoded state starts without."""
    rng = random.Random(3)
    for state in positions()[::12]:
        rebuilt = RULES.decode(json.loads(json.dumps(RULES.encode(state))))
        assert rebuilt == state
        assert rebuilt.board is not state.board
        assert RULES.legal_moves(rebuilt) == RULES.legal_moves(state)
        assert [RULES.evaluate(rebuilt, s) for s in range(len(state.players))] == [
            RULES.evaluate(state, s) for s in range(len(state.players))
        ]
        if not state.over:
            move = RULES.random_move(state, random.Random(rng.random()))
            assert RULES.apply(rebuilt, move) == RULES.apply(state, move)


def test_a_built_state_is_the_constructors_state():
    for state in positions()[::7]:
        if state.over:
            continue
        for move in RULES.legal_moves(state)[:6]:
            after = RULES.apply(state, move)
            fields = {f.name: getattr(after, f.name) for f in dataclasses.fields(after)}
            assert after == GeoShapesState(**fields)
            assert state == RULES.decode(json.loads(json.dumps(RULES.encode(state))))


@pytest.mark.parametrize(
    ("players", "options", "bot"),
    [
        (players, options, bot)
        for players, options in [(2, {}), (3, {}), (4, {}), (3, {"placing_optional": True})]
        for bot in ("random", "greedy")
    ]
    + [(2, {"half_board": True}, "greedy"), (2, {"empty_deck": "end"}, "greedy")],
)
def test_seeded_matches_are_those_of_the_plain_paths(monkeypatch, players, options, bot):
    """Whole seeded matches, once as they are and once with `apply`, `random_move` and
    `evaluate` swapped for their plain references: the same moves, move for move."""
    from tablelog.simulate import make_plan, play_match

    def moves(number: int) -> list[Any]:
        match = play_match(make_plan("geoshapes", 4, 21, players, bot, options), number)
        return [
            (getattr(e, "seat", None), getattr(e, "move", None)) for e in match.collect_events()
        ]

    fast = [moves(number) for number in range(2)]
    with monkeypatch.context() as patched:
        patched.setattr(GeoShapes, "apply", GeoShapes.plain_apply)
        patched.setattr(GeoShapes, "random_move", lambda self, state, rng: plain_draw(state, rng))
        patched.setattr(
            GeoShapes, "evaluate", lambda self, state, seat: plain_evaluate(state, seat)
        )
        plain = [moves(number) for number in range(2)]
    assert fast == plain


def test_bounded_memos_answer_the_same_when_cleared(monkeypatch):
    """The board's memos are cleared when full; a tiny bound clears them all the time."""
    from tablelog.domain.games.geoshapes import board as board_module
    from tablelog.domain.games.geoshapes import rules as rules_module

    monkeypatch.setattr(board_module, "GAP_MEMO", 3)
    monkeypatch.setattr(rules_module, "GAP_MEMO", 3)
    for state in positions()[::10]:
        rebuilt = RULES.decode(json.loads(json.dumps(RULES.encode(state))))  # empty memos
        for seat in range(len(state.players)):
            assert RULES.evaluate(rebuilt, seat) == plain_evaluate(state, seat)
        assert RULES.legal_moves(rebuilt) == RULES.plain_legal_moves(state)
        board = rebuilt.board
        for index, place in enumerate(board.places):
            on = state.placed[index]
            taken = {shape for shape in board.values if fits(place, on, shape, board.wild)}
            assert board.fitting(index, on) == taken
        assert len(rebuilt.board.need_memo) <= 3
        assert len(rebuilt.board.fit_memo) <= 3
        assert len(rebuilt.board.gap_memo) <= 3
