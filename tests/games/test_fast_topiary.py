"""Topiary's quick readings (`domain/games/topiary/fast.py`) agree with the full parser, and
its answers with each other.

On positions of random games (every player count, both deals, and positions where the record
does not know every tile); what the engine answers is golden data (test_golden.py):

- `apply` of a canonical visiting move (no parser) gives the state the full parser gives, and a
  refused one is refused with the same words;
- `random_move` draws what a choice over `legal_moves` draws, consuming the generator alike;
- `totals` are `score`'s totals, refused alike while a hand is unseen;
- the face-up table kept on a state, carried from move to move, equals the one a state rebuilt
  from JSON builds afresh, and so do its answers.
"""

from __future__ import annotations

import json
import random
from functools import cache
from types import MappingProxyType
from typing import Any

import pytest

from tablelog.domain.games import RulesError
from tablelog.domain.games.topiary import fast, scoring
from tablelog.domain.games.topiary.garden import CELLS, SIGHT_LINES
from tablelog.domain.games.topiary.rules import RULES, Sculptures, TopiaryState

POSITIONS = 800


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
            scoring.face_up(state)  # built on every state, as the recorder's totals do: carried on
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


def test_totals_are_the_scores_totals():
    for state in positions():
        try:
            scores = RULES.score(state)
        except RulesError as unknown:
            with pytest.raises(type(unknown), match="hand points need every hand"):
                RULES.totals(state)
            continue
        assert RULES.totals(state) == [float(entry["total"]) for entry in scores]
        assert RULES.totals(state) == RULES.totals(rebuilt(state))


def test_the_face_up_table_carried_from_move_to_move_equals_a_fresh_one():
    for state in positions():
        assert "_up" in state.__dict__  # carried from the move before, or built for it
        fresh = rebuilt(state)
        assert "_up" not in fresh.__dict__
        assert scoring.face_up(state) == scoring.face_up(fresh)
        for seat in range(state.players):
            assert RULES.evaluate(state, seat) == RULES.evaluate(fresh, seat)


def test_the_outcome_is_kept_and_a_rebuilt_state_has_the_same():
    rng = random.Random(3)
    for seed in range(100):
        players = 2 + seed % 3
        options = RULES.options({"last_player_chooses": seed % 2 == 1})
        state = RULES.start(players, options, RULES.deal(players, options, rng))
        while RULES.outcome(state) is None:
            state = RULES.apply(state, RULES.random_move(state, rng))
        outcome = RULES.outcome(state)
        assert outcome is not None and outcome is RULES.outcome(state)  # kept, not scored again
        assert outcome == RULES.outcome(rebuilt(state))
        totals = RULES.totals(state)
        assert totals[outcome.winners[0]] == max(totals)


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
