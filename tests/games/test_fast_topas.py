"""Topas' fast paths agree with the plain ones, on thousands of random positions (issue 24).

A simulated Topas match spends its time in the bot's draw, `apply` and the scores. The engine
answers them with shortcuts, each compared here with the plain computation it stands for:

- `apply` reads a well-formed placement by lookups (`_fast_place`) and otherwise hands the move
  to the full parser (`plain_apply`): both give equal states, and every refusal is the full
  parser's, word for word;
- the table a fast `apply` hands on (the parent's, with the card laid, and its spans edited
  from the parent's) is the table the state's placements lay afresh;
- `random_move` draws a listed move (which one, seeded, is golden data: test_golden.py);
- `totals` are `score`'s, and the outcome's winners score most (its words are golden data);
- a state rebuilt from its JSON (no kept tables) answers the same.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest

from tablelog.domain.games import IllegalMove
from tablelog.domain.games.topas.rules import (
    LINE_LIMIT,
    MIN_LINE,
    RULES,
    TopasState,
    load_deck,
)
from tablelog.domain.games.topas.table import Table

POSITIONS = 3000


@cache
def positions(count: int = POSITIONS) -> tuple[TopasState, ...]:
    """Positions of random matches: 1-4 players, both variants, whole deals and logged games
    (only the start card known; solitaire ones wait for each column's start card)."""
    found: list[TopasState] = []
    seed = 0
    while len(found) < count:
        seed += 1
        rng = random.Random(seed)
        players = 1 + seed % 4
        options = RULES.options({"expert": seed % 3 == 1})
        deal = RULES.deal(players, options, rng)
        logged = seed % 5 == 0
        state = RULES.start(players, options, {"start": deal["start"]} if logged else deal)
        while RULES.outcome(state) is None:
            found.append(state)
            if state.awaiting_start:
                move: dict[str, Any] = {"start": RULES.playable(state)[rng.randrange(5)]}
            else:
                move = RULES.random_move(state, rng)
            state = RULES.apply(state, move)
        found.append(state)  # the end too: every move is refused there
    return tuple(found[:count])


def applied(state: TopasState, move: Any, plain: bool) -> tuple[Any, str | None]:
    """The state `apply` gives, or its refusal."""
    try:
        return (RULES.plain_apply if plain else RULES.apply)(state, move), None
    except IllegalMove as err:
        return None, str(err)


def candidates(state: TopasState, rng: random.Random) -> list[Any]:
    """Moves to try: the bot's, and near misses of every kind (another card, a cell taken or
    far off, another direction, other spellings and types, other keys)."""
    deck = load_deck(state.manifest)
    card = rng.choice(deck.cards)
    x, y = rng.randrange(-4, 5), rng.randrange(-4, 5)
    moves: list[Any] = [
        {"card": card, "at": [x, y], "dir": rng.choice("NESW")},
        {"card": "-".join(reversed(card.split("-"))), "at": (x, y), "dir": rng.choice("NESW")},
        {"card": card.lower(), "at": [x, y], "dir": "n"},
        {"card": card, "at": [x, True], "dir": "E"},
        {"card": card, "at": [x, y, 0], "dir": "E"},
        {"card": card, "at": [x, y], "dir": ["E"]},
        {"card": "R9-B1", "at": [x, y], "dir": "S"},
        {"card": card, "at": [x, y]},
        {"card": card, "at": [x, y], "dir": "W", "extra": 1},
        {"start": card},
    ]
    if not state.over and not state.awaiting_start:
        move = RULES.random_move(state, rng)
        moves += [move, {**move, "at": [move["at"][0] + 1, move["at"][1]]}]
        hand = RULES.playable(state)
        moves.append({**move, "card": rng.choice(hand)})
    return moves


def test_fast_apply_gives_the_full_parsers_state_or_its_refusal():
    rng = random.Random(5)
    fast = 0
    for state in positions():
        for move in candidates(state, rng):
            got = applied(state, move, plain=False)
            assert got == applied(state, move, plain=True), move
            fast += RULES._fast_place(state, move) is not None
    assert fast > POSITIONS  # the fast path did take the bots' moves


def table_facts(table: Table) -> tuple[Any, ...]:
    return dict(table.halves), dict(table.cards), table.spans(), table.frontier()


def test_the_table_handed_on_is_the_table_laid_afresh():
    for state in positions():
        fresh = RULES._laid(state)
        assert table_facts(RULES.table(state)) == table_facts(fresh)
        assert RULES.table(state).spans() == fresh.listed_spans()


def test_edited_spans_match_a_fresh_listing_after_any_free_placement():
    """Cards laid anywhere free (not only legally, nor only touching): the edit still lists
    what a fresh listing does."""
    rng = random.Random(8)
    for state in positions()[::3]:
        table = RULES.table(state)
        for _ in range(3):
            a = (rng.randrange(-6, 7), rng.randrange(-6, 7))
            b = (a[0] + rng.choice((-1, 1)), a[1]) if rng.random() < 0.5 else (a[0], a[1] + 1)
            if a in table.halves or b in table.halves:
                continue
            laid = table.laid_with("X1-Y2", (a, b), (("R", 1), ("B", 2)))
            fresh = Table()
            for cell, half in laid.halves.items():
                fresh.lay(laid.cards[cell], (cell,), (half,))
            assert laid.spans() == fresh.spans() == fresh.listed_spans()
            assert laid.frontier() == fresh.frontier()


def test_a_table_far_out_is_listed_afresh():
    """Span keys order as spans only near the start card (edited up to the edge, listed anew
    beyond it)."""
    for y in (2**40 - 10, -(2**40) + 10, 2**40 - 3, -(2**41), 2**60):
        table = Table()
        table.lay("R1-B2", ((0, y), (1, y)), (("R", 1), ("B", 2)))
        laid = table.laid_with("G1-Y2", ((0, y + 1), (0, y + 2)), (("G", 1), ("Y", 2)))
        assert table.spans() == table.listed_spans()
        assert laid.spans() == laid.listed_spans()


def test_lines_with_are_the_runs_that_score_or_none_past_the_limit():
    rng = random.Random(9)
    deck, beyond = load_deck("topas"), 0
    for state in positions()[::2]:
        table = RULES.table(state)
        for cells in rng.sample(table.spans(), min(6, len(table.spans()))):
            halves = deck.halves[rng.choice(deck.cards)]
            runs = table.runs_with(cells, halves)
            plain = (
                None
                if any(r.gems > LINE_LIMIT for r in runs)
                else tuple(r for r in runs if len(r.cells) >= MIN_LINE)
            )
            assert table.lines_with(cells, halves, LINE_LIMIT) == plain
            beyond += plain is None
    assert beyond  # some were past the limit


def test_random_move_is_a_listed_move():
    # Which move it draws, seeded, is golden data (test_golden.py).
    for number, state in enumerate(positions()[::9]):
        if state.over or state.awaiting_start:
            continue
        assert RULES.random_move(state, random.Random(number)) in RULES.legal_moves(state)


def test_totals_are_the_scores_and_the_winners_score_most():
    # The outcome's words are golden data (test_golden.py).
    ended = 0
    for state in positions():
        totals = [float(entry["total"]) for entry in RULES.score(state)]
        assert RULES.totals(state) == totals
        outcome = RULES.outcome(state)
        assert (outcome is None) == (not state.over)
        if outcome is not None:
            assert {totals[seat] for seat in outcome.winners} == {max(totals)}
            ended += 1
    assert ended > 100


@pytest.mark.parametrize("step", [0, 1])
def test_a_state_rebuilt_from_json_answers_the_same(step):
    """Rebuilt states have no kept table: they lay theirs afresh, then hand it on."""
    rng = random.Random(step)
    for state in positions()[step::7]:
        rebuilt = RULES.decode(json.loads(json.dumps(RULES.encode(state))))
        assert rebuilt == state and "_table" not in rebuilt.__dict__
        for move in candidates(state, rng)[-3:]:
            ours, theirs = applied(state, move, False), applied(rebuilt, move, False)
            assert ours == theirs
            if ours[0] is not None and "_table" in ours[0].__dict__:
                assert table_facts(RULES.table(ours[0])) == table_facts(RULES.table(theirs[0]))


def test_every_exact_spelling_reads_as_the_parser_reads_it():
    deck = load_deck("topas")
    for card in deck.cards:
        first, second = card.split("-")
        for name in (card, f"{second}-{first}", card.lower(), f"{first.lower()}-{second}"):
            known = deck.spelled.get(name)
            assert known is None or known == deck.identify(name)
            assert deck.card(name) == deck.identify(name)[0]
    assert len(deck.spelled) == 2 * len(deck.cards)
