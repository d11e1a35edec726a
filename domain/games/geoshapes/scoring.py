"""GeoShapes' scoring: the winner, what each hand counts, how close each player is to a win
(the bots' evaluation), and the game's end as stored."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..base import Outcome, seat_score
from .board import GAP_MEMO, Board
from .state import GeoShapesState

WIN_BONUS = 25

# The winner's reason as stored (`audit` compares it with the rules', so its words are fixed;
# `named_reason` puts the name in where it is shown).
WON = "seat {} completed a figure and the circle with a shape to spare"  # counted from 0
DECK_OUT = "the deck ran out and the round ended with nobody completing a figure and circle"
WON_STORED = re.compile(r"^seat (\d+) (completed a figure and the circle with a shape to spare)$")


def complete(state: GeoShapesState, seat: int) -> bool:
    """One figure and the circle of every own quadrant complete."""
    board, placed = state.board, state.placed
    places = board.places
    for quadrant in state.players[seat].quadrants:
        circle, figures = board.parts[quadrant]
        if len(placed[circle]) != places[circle].size:
            return False
        if not any(len(placed[f]) == places[f].size for f in figures):
            return False
    return True


def hand_value(state: GeoShapesState, seat: int) -> int:
    return sum(map(state.board.values.__getitem__, state.players[seat].hand))  # no genexpr


def score(state: GeoShapesState) -> list[dict[str, Any]]:
    """The winner: 25 plus the hand's value; everyone else: minus the hand's value. While
    the game runs (or when the deck ran out) nobody has won, so every hand is a penalty."""
    result = []
    for seat, player in enumerate(state.players):
        value = hand_value(state, seat)
        won = state.winner == seat
        bonus, hand = (WIN_BONUS, value) if won else (0, -value)
        result.append(
            seat_score(
                bonus + hand,
                {"win": bonus, "hand": hand},
                quadrants=list(player.quadrants),
                hand=list(player.hand),
                complete=complete(state, seat),
                shapes_needed=shapes_needed(state, seat),
            )
        )
    return result


def outcome(state: GeoShapesState) -> Outcome | None:
    if not state.over:
        return None
    totals = [entry["total"] for entry in score(state)]
    ranking = tuple(
        tuple(seat for seat, t in enumerate(totals) if t == total)
        for total in sorted(set(totals), reverse=True)
    )
    winners = () if state.winner is None else (state.winner,)
    reason = DECK_OUT if state.winner is None else WON.format(state.winner)
    return Outcome(winners, ranking, reason)


def named_reason(reason: str, seats: Sequence[str]) -> str:
    won = WON_STORED.match(reason)
    if won is None or not int(won[1]) < len(seats):
        return reason
    return f"{seats[int(won[1])]} {won[2]}"


def shapes_needed(state: GeoShapesState, seat: int) -> int:
    """Slots still empty on the closest figure plus circle of each own quadrant, counting
    twice those no shape in hand can fill (what a player counts to see how close they are).
    Each quadrant's count is kept per board, by what its places hold and the hand: the
    greedy bot asks it of many positions that differ elsewhere (`Board.need_memo`)."""
    board, placed, hand = state.board, state.placed, state.players[seat].hand
    memo = board.need_memo
    total = 0
    for quadrant in state.players[seat].quadrants:
        circle, figures = board.parts[quadrant]
        key = (circle, hand, placed[circle], *(placed[f] for f in figures))
        cost = memo.get(key)
        if cost is None:
            cost = _quadrant_needs(board, hand, placed, circle, figures)
            if len(memo) >= GAP_MEMO:
                memo.clear()
            memo[key] = cost
        total += cost
    return total


def _quadrant_needs(
    board: Board,
    hand: tuple[str, ...],
    placed: tuple[tuple[str, ...], ...],
    circle: int,
    figures: tuple[int, ...],
) -> int:
    """The count of one quadrant: its closest figure plus the circle."""
    wilds = hand.count(board.wild)
    costs = []
    for figure in figures:
        gaps, counts = board.gap_count(figure, placed[figure], placed[circle])
        uncovered = sum(max(0, n - hand.count(shape)) for shape, n in counts)
        costs.append(gaps + max(0, uncovered - wilds))
    return min(costs)


def evaluate(state: GeoShapesState, seat: int) -> float:
    if state.winner is not None:
        return 1000.0 if state.winner == seat else -1000.0
    return -shapes_needed(state, seat) - hand_value(state, seat) / 100
