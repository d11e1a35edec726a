"""Sentences every front end shows the same way: who won, and how many may play.

Pure functions of plain values (no match, no store), so the domain's own checks (`start_match`)
and the command line, the HTTP API and the dashboard word them alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class PlayerCounts(Protocol):
    # Read-only members, so a rules class (which holds them as class variables) satisfies it.
    @property
    def name(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...


def winners_text(winners: Sequence[str]) -> str:
    """'Ann wins', 'Ann and Ben win' (a shared win), 'no winner' (a draw, or nobody won)."""
    if not winners:
        return "no winner"
    return f"{' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}"


def outcome_text(
    outcome: Mapping[str, Any] | None, undecided: str = "the game is still running"
) -> str:
    """An outcome by name (`views.named_outcome`) in words: 'Ann and Ben win (reason)';
    `undecided` when there is none yet."""
    if outcome is None:
        return undecided
    reason = outcome.get("reason")
    return winners_text(outcome["winners"]) + (f" ({reason})" if reason else "")


def player_counts(rules: PlayerCounts) -> str:
    """'2' or '2-4': how many players the game takes."""
    if rules.min_players == rules.max_players:
        return f"{rules.min_players}"
    return f"{rules.min_players}-{rules.max_players}"


def player_count_refusal(rules: PlayerCounts, count: int) -> str | None:
    """None when `count` players may play the game; otherwise why not, in the words every front
    end shows: 'Topiary is for 2-4 players, not 5'."""
    if rules.min_players <= count <= rules.max_players:
        return None
    return f"{rules.name} is for {player_counts(rules)} players, not {count}"
