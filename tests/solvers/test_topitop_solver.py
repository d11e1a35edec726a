"""The Topitop solver: hand-checked positions, a full consistency check of the mini game
(2 small and 2 large sand piles), a cross-check of its moves against the rules engine, the stored
table and the match analysis. Positions are drawn row by row: a1 b1 c1 / a2 b2 c2 / a3 b3 c3."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import TypedDict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.games.topitop.rules import RULES, TopitopState
from tablelog.domain.solvers.topitop import SolvedTopitop, TopitopGraph, analyse, load, solve

BLUE, RED = 0, 1


class Piles(TypedDict):
    """The solver's options: sand piles of each size."""

    small: int
    large: int


MINI: Piles = {"small": 2, "large": 2}


def position(picture: str, turn: int = BLUE, no_return=None, **counts) -> TopitopState:
    cells = tuple("" if c == "." else c for row in picture.split("/") for c in row.split())
    assert len(cells) == 9
    counts = {**MINI, **counts}
    return TopitopState(cells=cells, turn=turn, no_return=no_return, **counts)


def cell(name: str) -> int:
    return (int(name[1]) - 1) * 3 + ord(name[0]) - ord("a")


def colours_swapped(state: TopitopState) -> TopitopState:
    swap = str.maketrans("BR", "RB")
    return TopitopState(
        tuple(s.translate(swap) for s in state.cells),
        1 - state.turn,
        state.small,
        state.large,
        state.no_return,
    )


def playout(seed: int, length: int) -> list[TopitopState]:
    rng = random.Random(seed)
    states = [RULES.start(2, MINI, {})]
    while len(states) <= length and RULES.legal_moves(states[-1]):
        states.append(RULES.apply(states[-1], rng.choice(RULES.legal_moves(states[-1]))))
    return states


@pytest.fixture(scope="module")
def graph() -> TopitopGraph:
    return TopitopGraph(**MINI)


@pytest.fixture(scope="module")
def mini(graph) -> SolvedTopitop:
    return SolvedTopitop.from_graph(graph)


# ---- hand-checked positions -------------------------------------------------------------------

# Blue has a bucket on a castle at a1 and a bucket on a small pile at b1 beside a large pile at c1.
WIN_IN_ONE = position("LSB SB L / . . . / . R R")


def test_a_win_in_one(mini):
    assert mini.lookup(WIN_IN_ONE) == ("win", 1)
    won = RULES.apply(WIN_IN_ONE, {"from": "b1", "to": "c1"})
    assert won.winner == BLUE
    assert mini.lookup(won) == ("lose", 0)


def test_the_colours_do_not_matter(mini):
    assert mini.lookup(colours_swapped(WIN_IN_ONE)) == ("win", 1)


# Red has one bucket on a castle and its other on the small pile at b2, the centre, which touches
# every cell: wherever Blue slides the last large pile, Red slides b2 onto it and wins. Both small
# piles are used, so Blue can neither cap the large pile nor ever build a castle.
LOSS_IN_TWO = position("LSR . . / . SR . / . . L")


def test_a_forced_loss_in_two(mini):
    assert mini.lookup(LOSS_IN_TWO) == ("lose", 2)
    replies = [RULES.apply(LOSS_IN_TWO, move) for move in RULES.legal_moves(LOSS_IN_TWO)]
    assert len(replies) == 8  # a bucket on any of the 6 empty cells, the pile to b3 or c2
    assert all(mini.lookup(reply) == ("win", 1) for reply in replies)


def test_the_no_reversal_restriction_is_part_of_the_position(mini):
    # Red's small pile at a3 touches a2, b2 and b3; Blue's only escape for the large pile at a2
    # is b1, the cell it just came from when Red slid it: forbidden, so Blue loses in two.
    picture = "LSR . . / L . . / SR . ."
    assert mini.lookup(position(picture, no_return=(cell("a2"), cell("b1")))) == ("lose", 2)
    assert mini.lookup(position(picture)) != ("lose", 2)


# Every sand pile is in a castle under a bucket, and stacks never come apart: no second castle can
# ever be built, nobody can win, and there is always a move, so play loops forever.
NOBODY_CAN_WIN = position("LSB . . / . . . / . . LSR")


def test_a_loop_is_a_draw(mini):
    assert mini.lookup(NOBODY_CAN_WIN) == ("draw", None)
    assert mini.lookup(colours_swapped(NOBODY_CAN_WIN)) == ("draw", None)


def test_with_one_castle_possible_every_position_is_a_draw():
    # One large pile makes one castle at most, and a win takes two.
    table = solve(small=1, large=1)
    assert table.start_value == "draw" and table.start_remoteness is None
    assert table.counts["win"] == table.counts["lose"] == 0 and table.counts["draw"] > 0


def test_a_position_the_rules_cannot_reach_is_refused(mini):
    with pytest.raises(ValueError, match="no_return"):
        mini.lookup(position("L . . / . . . / . . .", no_return=(cell("b1"), cell("a1"))))
    with pytest.raises(ValueError, match="2 small and 2 large"):
        mini.lookup(position(". . . / . . . / . . .", small=4, large=4))
    with pytest.raises(ValueError, match="more pieces"):
        mini.lookup(position("S S S / . . . / . . ."))


# ---- the whole mini game ----------------------------------------------------------------------


def test_every_position_agrees_with_its_children(graph, mini):
    """A win has a move to a loss one move nearer the end, and no nearer one; a loss has only
    moves to wins, the furthest one move nearer; a draw has no move to a loss but one to a draw;
    finished positions are losses at 0 with no moves."""
    everything = np.arange(graph.size)
    children, mover = graph.children(everything)
    code = mini.code.astype(np.int64)
    value = np.where(code == 0, 0, np.where(code % 2 == 0, 1, -1))  # remoteness = code - 1
    remoteness = code - 1
    child_value = value[children]
    moves = np.bincount(mover, minlength=graph.size)
    assert np.array_equal(moves == 0, graph.over)
    assert np.all(value[graph.over] == -1) and np.all(remoteness[graph.over] == 0)

    nearest_loss = np.full(graph.size, 1 << 20)
    np.minimum.at(nearest_loss, mover[child_value == -1], remoteness[children[child_value == -1]])
    furthest_win = np.full(graph.size, -1)
    np.maximum.at(furthest_win, mover[child_value == 1], remoteness[children[child_value == 1]])
    losses_below = np.bincount(mover[child_value == -1], minlength=graph.size)
    draws_below = np.bincount(mover[child_value == 0], minlength=graph.size)

    live = ~graph.over
    win, lose, draw = live & (value == 1), live & (value == -1), live & (value == 0)
    assert win.any() and lose.any() and draw.any()
    assert np.array_equal(nearest_loss[win], remoteness[win] - 1)
    assert np.all(losses_below[lose] == 0) and np.all(draws_below[lose] == 0)
    assert np.array_equal(furthest_win[lose], remoteness[lose] - 1)
    assert np.all(losses_below[draw] == 0) and np.all(draws_below[draw] > 0)


def _engine_check(graph, mini, state):
    """The engine's moves from `state` reach exactly the solver's children, and the value agrees."""
    value, remoteness = mini.lookup(state)
    moves = RULES.legal_moves(state)
    after = [RULES.apply(state, move) for move in moves]
    if not moves:
        assert state.winner is not None and (value, remoteness) == ("lose", 0)
        return
    children, _ = graph.children(np.array([mini.position(state)]))
    assert sorted(mini.position(s) for s in after) == sorted(children.tolist())
    replies = [mini.lookup(s) for s in after]
    assert all(reply == ("lose", 0) for s, reply in zip(after, replies) if s.winner is not None)
    losses = [r for v, r in replies if v == "lose"]
    wins = [r for v, r in replies if v == "win"]
    if value == "win":
        assert min(losses) == remoteness - 1
    elif value == "lose":
        assert len(wins) == len(replies) and max(wins) == remoteness - 1
    else:
        assert not losses and len(wins) < len(replies)


def test_the_solver_moves_as_the_engine_does_on_sampled_positions(graph, mini):
    rng = random.Random(14)
    for _ in range(300):
        state = mini.state(rng.randrange(graph.size), turn=rng.randrange(2))
        _engine_check(graph, mini, state)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.integers(0, 60))
def test_positions_of_real_games_agree_with_the_engine(graph, mini, seed, length):
    for state in playout(seed, length)[-3:]:
        _engine_check(graph, mini, state)


def test_finished_games_are_lost_for_the_player_to_move(graph, mini):
    # every position the table calls finished has the previous mover's buckets both on castles,
    # by the engine's own count
    rng = random.Random(3)
    finished = np.flatnonzero(graph.over)
    assert len(finished) > 50
    for position_ in rng.sample(list(finished), min(200, len(finished))):
        state = mini.state(int(position_), turn=rng.randrange(2))
        assert RULES.score(state)[1 - state.turn]["categories"]["buckets on castles"] == 2
        assert mini.lookup(state) == ("lose", 0)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.integers(0, 40), symmetry=st.integers(0, 7))
def test_symmetric_positions_have_one_value(mini, seed, length, symmetry):
    state = playout(seed, length)[-1]
    turns, mirror = divmod(symmetry, 2)

    def image(i: int) -> int:
        r, c = divmod(i, 3)
        c = 2 - c if mirror else c
        for _ in range(turns):
            r, c = c, 2 - r
        return r * 3 + c

    cells = [""] * 9
    for i, stack in enumerate(state.cells):
        cells[image(i)] = stack
    no_return = None
    if state.no_return:
        src, dst = state.no_return
        no_return = (image(src), image(dst))
    turned = TopitopState(
        tuple(cells), state.turn, state.small, state.large, no_return, state.winner
    )
    assert mini.lookup(turned) == mini.lookup(state)


def test_the_start_and_the_counts(mini):
    assert mini.lookup(RULES.start(2, MINI, {})) == (mini.start_value, mini.start_remoteness)
    assert set(mini.counts) == {"win", "lose", "draw"} and all(mini.counts.values())


def test_the_reachable_positions_are_those_the_engine_reaches():
    # Buckets only: small enough to walk every game with the engine. Seats matter (Blue starts,
    # so a lone Red bucket with Blue to move never happens) and so do symmetric copies.
    options: Piles = {"small": 0, "large": 0}
    start = RULES.start(2, options, {})
    seen, frontier = {(start.cells, start.turn)}, [start]
    while frontier:
        following = []
        for state in frontier:
            for move in RULES.legal_moves(state):
                after = RULES.apply(state, move)
                if (after.cells, after.turn) not in seen:
                    seen.add((after.cells, after.turn))
                    following.append(after)
        frontier = following
    table = solve(**options)
    assert sum(table.counts.values()) == table.counts["draw"] == len(seen)


# ---- the stored table -------------------------------------------------------------------------


def test_the_table_saves_and_loads(mini, tmp_path):
    path = tmp_path / "topitop-2-2.npz"
    mini.save(path)
    again = load(path)
    assert np.array_equal(again.code, mini.code)
    assert (again.counts, again.start_value, again.start_remoteness) == (
        mini.counts,
        mini.start_value,
        mini.start_remoteness,
    )
    for state in (WIN_IN_ONE, LOSS_IN_TWO, NOBODY_CAN_WIN):
        assert again.lookup(state) == mini.lookup(state)
    assert path.stat().st_size < 400_000


# ---- analysing a match -----------------------------------------------------------------------


def test_analysis_follows_the_mover(mini):
    moves = [{"place": "bucket", "to": "b1"}, {"from": "b2", "to": "c3"}]
    states = [LOSS_IN_TWO]
    for move in moves:
        states.append(RULES.apply(states[-1], move))
    report = analyse(states, moves, mini)
    assert [
        (
            r["seat"],
            r["value_before"],
            r["remoteness_before"],
            r["value_after"],
            r["remoteness_after"],
            r["blunder"],
        )
        for r in report
    ] == [
        (BLUE, "lose", 2, "lose", 1, False),  # nothing saves Blue
        (RED, "win", 1, "win", 0, False),  # Red takes the win
    ]
    assert report[1]["move"] == moves[1] and report[1]["index"] == 1


def test_throwing_away_a_win_is_a_blunder(mini):
    # Blue wins by c1 onto the castle at b1; sliding a1 away instead lets Red's bucket at b2 take
    # that castle, after which no castle can ever be built: a draw.
    state = position("LSB LS B / . R . / . . .")
    moves = [{"from": "a1", "to": "a2"}]
    report = analyse([state, RULES.apply(state, moves[0])], moves, mini)
    assert report[0]["value_before"] == "win" and report[0]["remoteness_before"] == 1
    assert report[0]["value_after"] == "draw" and report[0]["blunder"] is True


class _Values:
    """A stand-in table: the values of the states named "before" and "after"."""

    def __init__(self, values):
        self.values = values

    def lookup(self, state):
        return self.values[state.name]


@pytest.mark.parametrize(
    "before, after, blunder",
    [
        (("win", 3), ("lose", 2), False),
        (("win", 3), ("draw", None), True),
        (("win", 3), ("win", 4), True),
        (("draw", None), ("lose", 4), False),
        (("draw", None), ("win", 5), True),
        (("draw", None), ("draw", None), False),
        (("lose", 4), ("win", 3), False),
    ],
)
def test_blunders_are_wins_thrown_to_draws_or_losses_and_draws_thrown_to_losses(
    before, after, blunder
):
    # `after` is the opponent's value: the mover's is the other way round
    states = [SimpleNamespace(name="before", turn=BLUE), SimpleNamespace(name="after", turn=RED)]
    values = _Values({"before": before, "after": after})
    # stand-ins, duck-typed: analyse reads only `turn` and the table's `lookup`
    report = analyse(states, [{"pass": True}], values)  # type: ignore[arg-type]
    assert report[0]["blunder"] is blunder
