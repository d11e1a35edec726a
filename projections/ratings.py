"""Player ratings per game with openskill's Plackett-Luce model (it rates any number of players
from a ranking, ties included).

Each ended match updates the ratings of its players from its ranking: seats in the same place tie
(a shared win, or a draw by agreement, which is one place of everybody). Ratings are sequential:
they are updated in the order the matches ended, and a later dispute does not rewrite them.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce, PlackettLuceRating

from tablelog.domain.plain import PlainDict

from .view import TablesView


class Ratings:
    def __init__(self, view: TablesView) -> None:
        self.view = view
        self.model = PlackettLuce()
        # (game, player) -> (matches rated, rating)
        self.current: dict[tuple[str, str], tuple[int, PlackettLuceRating]] = {}

    def _get(self, game: str, player: str) -> tuple[int, PlackettLuceRating]:
        key = (game, player)
        if key not in self.current:
            row = self.view.latest_rating(game, player)
            self.current[key] = (
                (0, self.model.rating(name=player))
                if row is None
                else (
                    row["after_match"],
                    self.model.rating(mu=row["mu"], sigma=row["sigma"], name=player),
                )
            )
        return self.current[key]

    def rate(
        self,
        game: str,
        match_id: str,
        seats: Sequence[str],
        ranking: Sequence[Sequence[int]],
        recorded: str | None,
        played_at: str | None = None,
    ) -> list[PlainDict]:
        """The new `ratings` rows of the match's players (nothing for a one-seat match)."""
        if len(seats) < 2:
            return []
        place = {seat: n for n, group in enumerate(ranking) for seat in group}
        before = [self._get(game, name) for name in seats]
        ranks: list[float] = [place.get(seat, len(ranking)) for seat in range(len(seats))]
        after = self.model.rate(_Own([rating] for _, rating in before), ranks=ranks)
        rows: list[PlainDict] = []
        for name, (played, _), (rating,) in zip(seats, before, after):
            self.current[(game, name)] = (played + 1, rating)
            rows.append(
                {
                    "game": game,
                    "player": name,
                    "match_id": match_id,
                    "after_match": played + 1,
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "ordinal": rating.ordinal(),
                    "recorded": recorded,
                    "played": played_at or recorded,
                }
            )
        return rows


class _Own(list[list[PlackettLuceRating]]):
    """Teams for openskill's `rate`, which deep-copies them so as not to change the caller's
    ratings. These are the projection's own and replaced by the results, so `rate` may work
    on them in place: the copy (the copy module's walk and a new uuid4 per rating) was half the
    cost of rating a match. The figures are the same (tests/projections/test_catch_up.py)."""

    def __deepcopy__(self, memo: dict[int, object]) -> list[list[PlackettLuceRating]]:
        return [list(team) for team in self]
