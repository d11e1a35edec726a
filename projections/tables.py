"""The projection tables: their columns, what each column means, and their keys.

This module is the contract between the projector (which writes the tables), the statistics and
the dashboard (which read them as pandas DataFrames, see `projections.load`). Every table is
stored next to the events (SQLite: the same file as `stored_events`) under the name
`projection_<table>`, and read back with the dtypes given here.

Conventions, the same in every table:
- `match_id` is the match's UUID as text (36 characters with hyphens, as `tablelog list` shows);
- `seat` is the seat NUMBER, 1 = the first player in turn order (as players say it and as
  `--seat 1` reads it); `player` is the name sitting there;
- `variant` is a stable text of the match's options: `key=value` pairs sorted by key and joined by
  ", " (values as compact JSON, strings unquoted), or "standard" when the game takes no options;
- timestamps are UTC (`datetime64[us, UTC]` in pandas, ISO-8601 text in the database);
- lists (seats, winners, ranking) are JSON text, e.g. '["Ann", "Ben"]'; `json.loads` them;
- a number that does not exist (no score change for a move whose score is unknown) is NaN.

Which matches count where:
- `matches` has every match, whatever its status;
- `scores`, `score_categories` and `components` have one entry per seat of every match that
  ENDED (by the rules or by agreement) and whose final position could be scored; abandoned and
  running matches are never there. A match that is ended but has an open dispute stays there, and
  its `matches.status` says "disputed": the statistics leave it out until the dispute is resolved;
- score-sheet matches (`matches.kind` "sheet") are in `scores` and `score_categories` (their
  categories where the sheet has them) and `ratings`, never in `moves` or `components`;
- `moves` has every MoveRecorded event, the withdrawn ones too (`undone` = True);
- `ratings` has one row per player of every ended match, in the order the matches ended;
- `damaged` has every quarantined match (a row that no longer decodes or replays): its events
  from the damaged one on are skipped, and its `matches` row (if its start was readable) says
  "damaged", so no statistic counts it.
"""

from __future__ import annotations

import dataclasses

SCHEMA_VERSION = 4  # 2: `played`; 3: the `damaged` table (quarantine); 4: `matches.kind`
"""Bumped whenever a table changes shape; a store with another version is rebuilt from scratch."""

PREFIX = "projection_"


@dataclasses.dataclass(frozen=True)
class Column:
    name: str
    kind: str  # "text", "int", "float", "bool", "time", "json"
    doc: str
    nullable: bool = False


@dataclasses.dataclass(frozen=True)
class Table:
    name: str
    doc: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]

    @property
    def sql_name(self) -> str:
        return PREFIX + self.name

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)


def _c(name: str, kind: str, doc: str, nullable: bool = False) -> Column:
    return Column(name, kind, doc, nullable)


MATCHES = Table(
    "matches",
    "One row per match, whatever its status; updated as its events arrive.",
    (
        _c("match_id", "text", "The match's UUID."),
        _c("game", "text", "Game id (`tablelog --help` lists the registered games)."),
        _c("variant", "text", "The match's options as a stable text (see module doc)."),
        _c("players", "int", "Number of seats."),
        _c("seats", "json", "Player names in turn order (JSON list); seat 1 first."),
        _c(
            "started",
            "time",
            "When the match was started (its Started event): when it was entered.",
        ),
        _c(
            "played",
            "time",
            "When the game was played: the time given when it was logged "
            "afterwards (`new --played-at`), else when it was started.",
        ),
        _c("ended", "time", "When it was ended or abandoned; empty (NaT) while running.", True),
        _c(
            "status",
            "text",
            "running, ended, abandoned, or disputed (a dispute is open, "
            "whatever the match's own state; back to the other once resolved); "
            "damaged: quarantined, see the `damaged` table.",
        ),
        _c("moves", "int", "Effective moves: recorded moves minus the ones withdrawn."),
        _c("undos", "int", "Moves withdrawn (MoveUndone events)."),
        _c(
            "winners",
            "json",
            "Names of the winners (JSON list). Empty for a draw, a running or "
            "an abandoned match. Several for a shared win.",
        ),
        _c(
            "ranking",
            "json",
            "Places as lists of tied names, best first (JSON list of lists); "
            "empty unless ended. A draw by agreement is one place of all.",
        ),
        _c(
            "reason",
            "text",
            "How the match ended, in the rules' words ('' while running; the "
            "given reason for an abandoned match).",
        ),
        _c("claimed", "bool", "Players claimed a result (ResultClaimed) at least once."),
        _c(
            "claim_agrees",
            "bool",
            "The latest claim gives every claimed player the total the "
            "rules recompute; empty (NA) without a claim or a score.",
            True,
        ),
        _c("disputes", "int", "Disputes raised (resolved or not)."),
        _c("agreed_draw", "bool", "Ended as a draw by agreement (not decided by the rules)."),
        _c(
            "kind",
            "text",
            "'moves' (logged move by move) or 'sheet' (logged from its score "
            "sheet: no moves, no components; see docs/interop.md).",
        ),
    ),
    ("match_id",),
)

# The columns that say which seat of which match a per-seat row is about (scores, categories,
# components all start with them).
SEAT_OF_MATCH = (
    _c("match_id", "text", "The match's UUID."),
    _c("game", "text", "Game id."),
    _c("variant", "text", "The match's options as a stable text."),
    _c("players", "int", "Number of seats in the match."),
    _c("seat", "int", "Seat number, 1 = first in turn order."),
    _c("player", "text", "The player's name."),
)

SCORES = Table(
    "scores",
    "One row per seat of every ended match whose final position can be scored.",
    (
        *SEAT_OF_MATCH,
        _c(
            "total",
            "float",
            "Final total by the rules' `score()`; a score-sheet match's total "
            "as the sheet gives it (NaN where it gives none).",
            True,
        ),
        _c(
            "won",
            "bool",
            "This seat is among the winners (a shared win is a win for each "
            "sharer; a draw is a win for nobody).",
        ),
        _c("shared", "bool", "The win was shared by several seats (False when nobody won)."),
        _c(
            "rank",
            "int",
            "Place, 1 = best; tied seats share a place, the next place follows "
            "the number of places (dense: 1, 1, 2).",
        ),
    ),
    ("match_id", "seat"),
)

SCORE_CATEGORIES = Table(
    "score_categories",
    "The scoring categories of each seat of each scored match, long form (one row per "
    "category), so every game's own categories fit one table.",
    (
        *SEAT_OF_MATCH,
        _c("won", "bool", "The seat won (as in scores)."),
        _c(
            "category",
            "text",
            "Category name as the game's `score()` gives it "
            "(e.g. 'visitors', 'type bonus', 'hand').",
        ),
        _c("points", "float", "Points in that category."),
    ),
    ("match_id", "seat", "category"),
)

COMPONENTS = Table(
    "components",
    "What each seat of each scored match did with each kind of component, for component "
    "strength (see projections/components.py for each game's measure).",
    (
        *SEAT_OF_MATCH,
        _c("won", "bool", "The seat won (as in scores)."),
        _c(
            "kind",
            "text",
            "The kind of component: 'sculpture type' (Topiary), 'gem colour' "
            "(Topas), 'card colour' and 'bout condition' (Total Landscaping), "
            "'shape' (GeoShapes).",
        ),
        _c("component", "text", "The component itself, in the game's words (e.g. 'rose')."),
        _c("count", "int", "How many of it the seat played, placed or won with."),
        _c(
            "points",
            "float",
            "Points it earned the seat; NaN where the game does not score it separately.",
            True,
        ),
    ),
    ("match_id", "seat", "kind", "component"),
)

MOVES = Table(
    "moves",
    "One row per recorded move (MoveRecorded event), withdrawn moves included and marked.",
    (
        _c("match_id", "text", "The match's UUID."),
        _c("game", "text", "Game id."),
        _c(
            "step",
            "int",
            "The match's step after this move (`tablelog show --at STEP` shows the "
            "position it made); unique within a match, 1 = the first event after "
            "the start.",
        ),
        _c(
            "number",
            "int",
            "Effective move number when it was made, 1 = first move. A move "
            "made again after an undo gets the withdrawn move's number.",
        ),
        _c("seat", "int", "Seat number of the player who moved, 1 = first."),
        _c("player", "text", "The player's name."),
        _c("kind", "text", "Short label of the move (the rules' `move_kind`, e.g. 'place')."),
        _c("move", "json", "The move as recorded, in the game's own vocabulary (JSON object)."),
        _c(
            "score_change",
            "float",
            "The mover's score total after the move minus before it. "
            "NaN in games scored only at the end (GeoShapes), and "
            "when the score needs a hidden identity the table never "
            "saw (or a withdrawn move's position cannot be replayed).",
            True,
        ),
        _c(
            "undone",
            "bool",
            "The move was withdrawn later (MoveUndone); it is not part of the "
            "match's effective moves.",
        ),
        _c("recorded", "time", "When the move was recorded."),
    ),
    ("match_id", "step"),
)

RATINGS = Table(
    "ratings",
    "Player ratings per game (openskill Plackett-Luce), one row per player of every ended "
    "match, in the order the matches ended; a player's latest row is the current rating.",
    (
        _c("game", "text", "Game id (each game has its own ratings)."),
        _c("player", "text", "The player's name."),
        _c("match_id", "text", "The match whose result produced this rating."),
        _c(
            "after_match",
            "int",
            "How many rated matches of this game the player has played, "
            "this one included (1 = after the first).",
        ),
        _c("mu", "float", "Estimated skill."),
        _c("sigma", "float", "Uncertainty of mu."),
        _c("ordinal", "float", "Conservative rating, mu - 3 sigma (openskill's ordinal)."),
        _c("recorded", "time", "When the match ended."),
        _c("played", "time", "When the match was played (the matches table's `played`)."),
    ),
    ("game", "player", "after_match"),
)

DAMAGED = Table(
    "damaged",
    "One row per quarantined match: a stored row of it no longer decodes or replays, so the "
    "projection skips its events (its `matches` row, if any, says 'damaged').",
    (
        _c("match_id", "text", "The match's UUID."),
        _c(
            "event",
            "int",
            "The event number (1 = the start) at which the projection found the damage.",
        ),
        _c(
            "finding",
            "text",
            "What is wrong, in the audit's words (`tablelog audit MATCH` names every finding).",
        ),
    ),
    ("match_id",),
)

TABLES: dict[str, Table] = {
    t.name: t for t in (MATCHES, SCORES, SCORE_CATEGORIES, COMPONENTS, MOVES, RATINGS)
}
"""The tables of matches, for the statistics, the dashboard and `export-tables`."""

STORED: dict[str, Table] = {**TABLES, DAMAGED.name: DAMAGED}
"""Every table the projection writes: the tables of matches and the quarantine's."""
