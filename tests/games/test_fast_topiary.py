"""Topiary's fast paths (`domain/games/topiary/fast.py`) agree with the plain ones.

On thousands of positions of random games (every player count, both deals, and positions where
the record does not know every tile, which the fast draw leaves to the plain one):

- `apply` of a canonical visiting move (no parser) gives the state the full parser gives, and a
  refused one is refused with the same words;
- `random_move` draws what a choice over `legal_moves` draws, consuming the generator alike;
- `totals` equals the plain count and `score`'s totals, `evaluate` (the greedy bot's) and the
  final outcome the plain ones;
- the tables kept on a state, carried from move to move, equal those a state rebuilt from JSON
  builds afresh, and so do its answers.
"""

from __future__ import annotations

import json
import random
from functools import cache
from types import MappingProxyType
from typing import Any

import pytest

from tablelog.domain.games import RulesError
from tablelog.domain.games.topiary import fast
from tablelog.domain.games.topiary.garden import CELLS, SIGHT_LINES
from tablelog.domain.games.topiary.rules import RULES, Sculptures, TopiaryState

POSITIONS = 1500


def _hidden(setup: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The deal as a record that saw only part of it: some garden tiles and hand tiles unnamed
    (c3 is face up, so always named)."""
    garden = {c: t for c, t in setup["garden"].items() if c == "c3" or rng.random() < 0.6}
    hands = [[t for t in hand if rng.random() < 0.6] for hand in setup["hands"]]
    return {**setup, "garden": garden, "hands": hands}


@cache
def positions() -> tuple[TopiaryState, ...]:
    """Positions in play of random games: 2-4 players, both deals, a third of them partly
    unknown to the record."""
    found: list[TopiaryState] = []
    seed = 0
    while len(found) < POSITIONS:
        seed += 1
        rng = random.Random(seed)
        players = 2 + seed % 3
        options = RULES.options({"last_player_chooses": seed % 2 == 0})
        setup = RULES.deal(players, options, rng)
        if seed % 3 == 0:
            setup = _hidden(setup, rng)
        state = RULES.start(players, options, setup)
        while RULES.outcome(state) is None:
            fast.face_up(state)  # built on every state, as the recorder's totals do: carried on
            found.append(state)
            state = RULES.apply(state, RULES.random_move(state, rng))
    return tuple(found[:POSITIONS])


def rebuilt(state: TopiaryState) -> TopiaryState:
    """The state from its JSON: none of the tables kept on it."""
    return RULES.decode(json.loads(json.dumps(RULES.encode(state))))


def plain_apply(state: TopiaryState, move: Any) -> TopiaryState:
    """`apply` the full way: a mapping that is not a dict is never taken for a canonical move."""
    return RULES.apply(state, MappingProxyType(move))


def outcome_of(apply, state: Any, move: Any) -> Any:
    try:
        return apply(state, move)
    except RulesError as refused:
        return (type(refused), str(refused))


def hostile(state: TopiaryState, rng: random.Random) -> list[Any]:
    """Visiting moves in canonical spelling that may well be refused: a spot taken or free, a
    cell anywhere, a tile anywhere in play, and a few that are not canonical at all."""
    spot = rng.choice(list(SIGHT_LINES))
    taken = rng.choice([v.spot for v in state.visitors] or [spot])
    tile = rng.choice(state.sculptures.tiles())
    cell = rng.choice(CELLS)
    return [
        {"visitor": spot},
        {"visitor": taken},
        {"visitor": spot, "take": cell, "place": tile},
        {"visitor": taken, "take": cell, "place": tile},
        {"visitor": spot.lower(), "take": cell.upper(), "place": tile.lower()},
        {"visitor": spot, "take": cell},
        {"visitor": spot, "take": cell, "place": tile, "took": tile},
        {"visitor": spot, "take": 3, "place": tile},
        {"visitor": [spot]},
        {"keep": [tile]},
        {"reveal": [tile]},
    ]


def test_a_canonical_visit_applies_as_the_full_parser_reads_it():
    rng = random.Random(1)
    for state in positions():
        moves = RULES.legal_moves(state)
        for move in rng.sample(moves, min(8, len(moves))):
            after = RULES.apply(state, move)
            assert after == plain_apply(state, move)
            assert RULES.to_move(after) == RULES.to_move(rebuilt(after))


def test_a_refused_visit_is_refused_in_the_same_words():
    rng = random.Random(2)
    refused = 0
    for state in positions():
        for move in hostile(state, rng):
            quick = outcome_of(RULES.apply, state, move)
            assert quick == outcome_of(plain_apply, state, move), move
            refused += isinstance(quick, tuple)
    assert refused > POSITIONS  # the moves tried are refused often enough to mean something


def test_random_move_draws_what_the_plain_choice_draws():
    for number, state in enumerate(positions()):
        fast_rng, plain_rng = random.Random(number), random.Random(number)
        assert RULES.random_move(state, fast_rng) == plain_rng.choice(RULES.legal_moves(state))
        assert fast_rng.getstate() == plain_rng.getstate()


def test_fast_draws_cover_the_positions_the_record_knows_whole():
    known = [s for s in positions() if fast.random_visit(s, 0, random.Random(0)) is not None]
    assert len(known) > POSITIONS // 2  # the fast draw is the one a simulation uses


def test_totals_are_the_plain_count_and_the_scores_totals():
    for state in positions():
        try:
            plain = RULES.plain_totals(state)
        except RulesError as unknown:
            with pytest.raises(type(unknown), match="hand points need every hand"):
                RULES.totals(state)
            continue
        assert RULES.totals(state) == plain == RULES.totals(rebuilt(state))
        assert plain == [float(entry["total"]) for entry in RULES.score(state)]


def test_evaluate_is_the_plain_one():
    for state in positions():
        for seat in range(state.players):
            assert RULES.evaluate(state, seat) == RULES.plain_evaluate(state, seat)


def test_tables_carried_from_move_to_move_equal_fresh_ones():
    carried = 0
    for state in positions():
        assert "_up" in state.__dict__  # carried from the move before, or built for it
        carried += "_down" in state.__dict__  # the fast draw's, where it drew
        fresh = rebuilt(state)
        assert not {"_up", "_down"} & set(fresh.__dict__)
        assert fast.face_up(state) == fast.face_up(fresh)
        assert fast.down_in_sight(state) == fast.down_in_sight(fresh)
    assert carried > POSITIONS // 2


def test_the_outcome_is_the_plain_one_and_kept():
    rng = random.Random(3)
    ended = 0
    for seed in range(300):
        players = 2 + seed % 3
        options = RULES.options({"last_player_chooses": seed % 2 == 1})
        state = RULES.start(players, options, RULES.deal(players, options, rng))
        while RULES.outcome(state) is None:
            state = RULES.apply(state, RULES.random_move(state, rng))
        assert RULES.outcome(state) is RULES.outcome(state)  # kept, not scored again
        assert RULES.outcome(state) == RULES.outcome(rebuilt(state)) == RULES.plain_outcome(state)
        ended += 1
    assert ended == 300


def test_canonical_names_parse_to_themselves_and_others_as_before():
    # A type with a trailing space names tiles the parser cannot read back: never canonical.
    sculptures = Sculptures(("Swan", "T-Rex", "Spaced "), (1, 2, 3), removed="Swan")
    canonical = fast.canonical_tiles(sculptures)
    assert canonical == {"T-Rex 1", "T-Rex 2", "T-Rex 3"}
    for tile in sculptures.tiles():
        for name in (tile, tile.lower(), tile.upper(), f"{tile[:-1]}0{tile[-1]}"):
            assert outcome_of(Sculptures.parse, sculptures, name) == outcome_of(
                Sculptures.parse_name, sculptures, name
            )
    first = next(s for s in positions() if not s.visitors and RULES.phase(s) == "visit")
    assert fast.SPOTS == set(SIGHT_LINES)
    for spot in fast.SPOTS:
        assert RULES.apply(first, {"visitor": spot}) == plain_apply(first, {"visitor": spot})
