"""The read side every front end shares, beside the recorder (its write side): find a match by
its id or a prefix of it, list the matches, one match's row, the balance report and a match's
current version. The command line, the HTTP API and the dashboard ask these and call nothing
private of the recorder or of the tables; the words for an outcome and for a wrong player count
are the domain's (`domain/wording.py`, `domain/views.said_outcome`).

Catching up. A prefix is looked up in the projection's `matches` table (and its `damaged` table,
so a quarantined match is still named by its id), and the tables lag the store until something
projects the new events. So every read here that goes to the tables (a prefix, the list, the
report) first brings them up to date: `tables()` runs the catch-up, which costs two small
queries when nothing is new and otherwise folds only the events since the tracked position.
That is what makes a match just created by `tablelog new` findable by prefix in the very next
command. A full id is checked against the store itself and never waits on the tables. Whoever
already keeps a projection up to date (the dashboard's `Source`, with its refresher) hands it in
with its own catch-up, so only one thread at a time folds events into it; the command line
hands in one that shows a progress bar when much is behind.

A store without projection tables (the library's in-memory store) is read from the recorder:
prefixes against every stored id, the list by replaying each match.

Damage seen once is seen everywhere. A match's stored row may be damaged after the tables took
the match in, and no new event then tells the projection. So this service watches its recorder
(`Recorder.watch_damage`): whoever first finds the match damaged (a read by `show`, `score`, the
API or a dashboard page, or the audit) has it marked in the tables in the same step, and the
list, the statistics and the dashboard leave it out and name it from then on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from tablelog.domain.errors import Damaged, MatchNotFound, Refused
from tablelog.domain.games import GAMES
from tablelog.domain.matches import views
from tablelog.domain.matches.match import SHEET, Match
from tablelog.domain.quoting import quoted
from tablelog.domain.recording.recorder import Recorder, cycle_collector_paused

from .tables import STORED

if TYPE_CHECKING:
    from .runner import TablesProjection

MIN_PREFIX = 4  # hex digits: fewer name too many matches to be worth a lookup
SHOWN = 5  # candidates an ambiguous prefix names
HEX = frozenset("0123456789abcdef")
GROUPS = (8, 4, 4, 4, 12)  # hex digits between the dashes of a UUID's text


class Queries:
    """The reads of one store. `projection` and `catch_up` come from whoever already keeps the
    store's tables (the dashboard); without them the service opens the tables itself on first
    use and catches them up before each read that needs them."""

    def __init__(
        self,
        recorder: Recorder,
        projection: TablesProjection | None = None,
        catch_up: Callable[[TablesProjection], object] | None = None,  # its value is ignored
    ) -> None:
        self.recorder = recorder
        self._projection = projection
        self._catch_up = catch_up
        self._no_tables = False
        # Reentrant: a read made under it that finds a match damaged takes it again to mark it
        # (`quarantine`).
        self._lock = threading.RLock()
        self._report: tuple[tuple[object, ...], dict[str, Any]] | None = None
        recorder.watch_damage(self.quarantine)

    # ---- the tables ---------------------------------------------------------------------------

    def tables(self) -> TablesProjection | None:
        """The projection, brought up to date; None on a store without projection tables."""
        with self._lock:
            projection = self._opened()
            if projection is None:
                return None
            if self._catch_up is not None:
                self._catch_up(projection)
            else:
                projection.catch_up()
            return projection

    def _opened(self) -> TablesProjection | None:
        """The projection as it stands (opened on first use); None without tables."""
        from .runner import TablesProjection

        with self._lock:
            if self._projection is None and not self._no_tables:
                try:
                    self._projection = TablesProjection(self.recorder)
                except NotImplementedError:
                    self._no_tables = True
            return self._projection

    def quarantine(self, error: Damaged) -> None:
        """Quarantine a match found damaged in the tables at once, if its events no longer
        fold (`TablesProjection.mark_damaged`): no catch-up first, which may be what found
        it."""
        with self._lock:
            projection = self._opened()
            if projection is not None:
                projection.mark_damaged(UUID(error.match_id), error.finding)

    def projection(self) -> TablesProjection:
        """The projection, brought up to date; Refused on a store without tables."""
        projection = self.tables()
        if projection is None:
            raise Refused(
                f"no projection tables on a {type(self.recorder.recorder).__name__} store"
            )
        return projection

    def damaged(self) -> list[dict[str, Any]]:
        """The quarantined matches (match_id, event, finding), left out of the list."""
        projection = self.tables()
        return [] if projection is None else projection.damaged()

    # ---- one match ----------------------------------------------------------------------------

    def find(self, text: str) -> UUID:
        """A match id from its full form or a unique prefix of 4 or more of its hex digits
        (dashes optional, any case); MatchNotFound saying why not, naming the candidates when
        the prefix is ambiguous."""
        text = str(text).strip().lower()
        try:
            match_id = UUID(text)
        except ValueError:
            pass
        else:
            if not self.recorder.exists(match_id):
                raise MatchNotFound(f"no match {match_id} in this store")
            return match_id
        found = self.candidates(text)
        if not found:
            raise MatchNotFound(f"no match whose id starts with {quoted(text)} in this store")
        if len(found) > 1:
            named = ", ".join(found[:SHOWN]) + (
                f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
            )
            raise MatchNotFound(
                f"{len(found)} matches have ids starting with {text!r} "
                f"({named}); give more characters"
            )
        return UUID(found[0])

    def candidates(self, text: str, limit: int | None = None) -> list[str]:
        """The ids starting with the prefix `text`, the most recently played first (the
        quarantined ones after them); MatchNotFound when it cannot start an id."""
        prefix = dashed(text)
        projection = self.tables()
        if projection is None:
            return [str(i) for i in self.recorder.match_ids() if str(i).startswith(prefix)][:limit]
        like = (prefix + "%",)  # hex digits and dashes only: nothing LIKE treats specially
        found = [
            row[0]
            for row in projection.view.fetch(
                f"SELECT match_id FROM {STORED['matches'].sql_name} WHERE match_id LIKE ? "
                "ORDER BY played DESC",
                like,
            )
        ]
        found += [
            row[0]
            for row in projection.view.fetch(
                f"SELECT match_id FROM {STORED['damaged'].sql_name} WHERE match_id LIKE ? "
                "ORDER BY match_id",
                like,
            )
            if row[0] not in found
        ]
        return found[:limit]

    def match(self, text: str, step: int | None = None) -> Match:
        """The match named by `text` (an id or a prefix), now or after `step` events."""
        return self.recorder.get(self.find(text), step)

    def summary(self, text: str) -> dict[str, Any]:
        """One match as the list shows it (`matches`), replayed from the store."""
        return listed_match(self.match(text))

    def version(self, text: str) -> int:
        """The match's version now (its last stored event), nothing replayed."""
        return self.recorder.version(self.find(text))

    # ---- many matches -------------------------------------------------------------------------

    def matches(self, game: str | None = None) -> list[dict[str, Any]]:
        """The matches, by when they were played, oldest first: the rows `tablelog list --json`
        prints and GET /matches serves (id, game, seats, status, moves, kind, started,
        played, outcome by name). A quarantined match is left out (`damaged` names it)."""
        projection = self.tables()
        if projection is None:
            replayed = [
                listed_match(self.recorder.get(s.originator_id))
                for s in self.recorder.started(game)
            ]
            return sorted(replayed, key=lambda r: r["played"])
        found = projection.view.select("matches", {"game": game} if game is not None else None)
        return [
            listed(row)
            for row in sorted(found, key=lambda r: r["played"])
            if row["status"] != "damaged"
        ]

    def report(
        self,
        game: str | None = None,
        players: int | None = None,
        variant: str | None = None,
        kind: str | None = None,
    ) -> dict[str, Any]:
        """The balance report per game (`projections.stats.report`), as `tablelog stats`
        prints it; `kind` None, "moves" or "sheet". Worked out once per tracked position (the
        newest question only is remembered)."""
        from . import stats as balance
        from .load import read_table

        projection = self.projection()
        key = (*projection.version(), game, players, variant, kind)
        if self._report is None or self._report[0] != key:
            # The cycle collector paused, as for a projection page: reading the tables and
            # pandas' work allocate much and keep little, and each collection that ran promoted
            # the temporaries alive at that moment, which set off full collections (90-130 ms in
            # a process holding pandas and scipy) the more often. Cycles pandas leaves wait for
            # the next collection.
            with cycle_collector_paused():
                tables = {
                    name: read_table(projection, name, names)
                    for name, names in balance.REPORT_COLUMNS.items()
                }
                self._report = (key, balance.report(tables, game, players, variant, kind))
        return self._report[1]

    def game_report(
        self,
        game: str,
        players: int | None = None,
        variant: str | None = None,
        kind: str | None = None,
    ) -> dict[str, Any]:
        """One game's figures (`report`); empty figures when it has no counted match."""
        return self.report(game, players, variant, kind).get(game) or no_matches()


def dashed(text: str) -> str:
    """A typed prefix in the matches table's spelling (`9aadf8d256` -> `9aadf8d2-56`);
    MatchNotFound when it is too short or not hexadecimal."""
    digits = text.strip().lower().replace("-", "")
    if len(digits) < MIN_PREFIX:
        raise MatchNotFound(
            f"{quoted(text)} is too short to name a match (give {MIN_PREFIX} or more "
            "characters of its id)"
        )
    if len(digits) > sum(GROUPS) or not HEX.issuperset(digits):
        raise MatchNotFound(
            f"no match whose id starts with {quoted(text)}: ids are hexadecimal (0-9 and a-f)"
        )
    groups, start = [], 0
    for size in GROUPS:
        groups.append(digits[start : start + size])
        start += size
    return "-".join(group for group in groups if group)


def listed_match(match: Match) -> dict[str, Any]:
    """A replayed match as the list shows it (the tables' `kind`: "moves" or "sheet")."""
    return {**views.summary(match), "kind": SHEET if match.kind == SHEET else "moves"}


def listed(row: dict[str, Any]) -> dict[str, Any]:
    """A `matches` table row as the list shows it."""
    import json

    ended = row["ranking"] != "[]"
    seats = json.loads(row["seats"])
    rules = GAMES.get(row["game"])
    # The stored reason counts seats from 0 ("seat 0 completed..."): said with the name.
    reason = rules.named_reason(row["reason"], seats) if rules else row["reason"]
    return {
        "id": row["match_id"],
        "game": row["game"],
        "seats": seats,
        "status": row["status"],
        "moves": row["moves"],
        "kind": row["kind"],
        "started": row["started"],
        "played": row["played"],
        "outcome": {
            "winners": json.loads(row["winners"]),
            "ranking": json.loads(row["ranking"]),
            "reason": reason,
        }
        if ended
        else None,
    }


def no_matches() -> dict[str, Any]:
    """A game's figures when no match of it is counted."""
    return {
        "matches": 0,
        "recorded": 0,
        "by_status": {},
        "shared_wins": 0,
        "draws": 0,
        "small": True,
        "seats": [],
        "scores": [],
        "components": [],
        "length": [],
        "behind": {},
    }
