"""Where the lab keeps its experiments: one table beside the events, `lab_experiments`.

An experiment's matches are ordinary matches, stored through the recorder (`save_new`), and
nothing in them says they belong to an experiment: a tag in a match's options could change how
the game plays, and options are the game's. The experiment's own row holds its definition (what
was asked: game, arms, agents, seeds), the ids of its matches per arm, its status and its report.

Order of writing: the row first (status "running"), then each batch of whole matches, then the
row's list of match ids; at the end the report and status "done". A batch stored in the instant
before its ids were listed is a set of ordinary whole matches, never a half-stored one.

Cancelling goes through the row, so any process can cancel an experiment any other runs (the
command line one the server runs, the page or the API one a terminal runs): the canceller sets
"cancelling"; the process running it looks at its row between matches (about once a second),
stores the matches it has finished, and sets "cancelled" (`cancelled after N of M matches`). A
row nobody answers for within `WAIT` seconds (its process was killed) is marked cancelled by the
canceller. An error (or a crash the process lived to see) leaves "interrupted".
The SQL is portable (SQLite and PostgreSQL); only the placeholder differs.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Any

from tablelog.domain.errors import Refused
from tablelog.domain.plain import PlainMapping
from tablelog.domain.quoting import quoted
from tablelog.domain.recording.eventsourcing_internals import connections_of
from tablelog.domain.recording.recorder import Recorder
from tablelog.store import SCHEMA_LOCK

TABLE = "lab_experiments"
COLUMNS = ("id", "created", "game", "kind", "status", "definition", "match_ids", "report")
RUNNING, CANCELLING, CANCELLED, INTERRUPTED, DONE = STATUSES = (
    "running",
    "cancelling",
    "cancelled",
    "interrupted",
    "done",
)
UNDER_WAY = (RUNNING, CANCELLING)
WAIT = 10.0  # seconds a cancel waits for the process running the experiment to stop


class NotRunning(Refused):
    """A cancel of an experiment that is no longer running."""


class LabStore:
    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder  # kept: the application closes its connections when collected
        self.datastore, postgres = connections_of(recorder)  # the one eventsourcing adapter
        self.mark = "%s" if postgres else "?"
        with self.datastore.transaction(commit=True) as cursor:
            if postgres:  # two at once on a new database would race in the catalog
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {TABLE} (id TEXT PRIMARY KEY, "
                "created TEXT NOT NULL, game TEXT NOT NULL, kind TEXT NOT NULL, "
                "status TEXT NOT NULL, definition TEXT NOT NULL, "
                "match_ids TEXT NOT NULL, report TEXT)"
            )

    def _run(self, statement: str, params: tuple = ()) -> list[Any]:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(statement.replace("?", self.mark), params)
            return list(cursor.fetchall()) if statement.startswith("SELECT") else []

    def create(self, experiment_id: str, definition: PlainMapping) -> None:
        created = datetime.now(UTC).isoformat(timespec="seconds")
        self._run(
            f"INSERT INTO {TABLE} ({', '.join(COLUMNS)}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                experiment_id,
                created,
                definition["game"],
                definition["kind"],
                RUNNING,
                json.dumps(definition),
                "{}",
                None,
            ),
        )

    def list_matches(self, experiment_id: str, match_ids: dict[str, list[str]]) -> None:
        self._run(
            f"UPDATE {TABLE} SET match_ids = ? WHERE id = ?", (json.dumps(match_ids), experiment_id)
        )

    def finish(self, experiment_id: str, status: str, report: PlainMapping | None) -> None:
        """The experiment's last word (a row already finished keeps its own)."""
        self._run(
            f"UPDATE {TABLE} SET status = ?, report = ? WHERE id = ? AND status IN (?, ?)",
            (status, None if report is None else json.dumps(report), experiment_id, *UNDER_WAY),
        )

    def status(self, experiment_id: str) -> str | None:
        rows = self._run(f"SELECT status FROM {TABLE} WHERE id = ?", (experiment_id,))
        return rows[0]["status"] if rows else None

    def cancel(self, text: str, wait: float = WAIT) -> tuple[dict[str, Any], bool]:
        """Ask the process running the experiment (by id or prefix) to stop, and wait for it:
        the row as it ends, and whether that process answered (False: nobody did within
        `wait` seconds, so the row was marked cancelled here). NotRunning if it has ended."""
        experiment = self.get(text)
        if experiment["status"] not in UNDER_WAY:
            raise NotRunning(
                f"experiment {experiment['id'][:8]} is no longer running "
                f"({experiment['state']}): there is nothing to cancel"
            )
        self._run(
            f"UPDATE {TABLE} SET status = ? WHERE id = ? AND status = ?",
            (CANCELLING, experiment["id"], RUNNING),
        )
        deadline = time.monotonic() + wait
        while self.status(experiment["id"]) in UNDER_WAY:
            if time.monotonic() > deadline:
                self.finish(experiment["id"], CANCELLED, None)
                return self.get(experiment["id"]), False
            time.sleep(0.1)
        return self.get(experiment["id"]), True

    def all(self, game: str | None = None) -> list[dict[str, Any]]:
        where, params = ("WHERE game = ?", (game,)) if game else ("", ())
        rows = self._run(
            f"SELECT {', '.join(COLUMNS)} FROM {TABLE} {where} ORDER BY created DESC, id", params
        )
        return [self._decode(row) for row in rows]

    def get(self, text: str) -> dict[str, Any]:
        """An experiment by its id or a unique prefix of it (4 characters or more)."""
        text = text.strip().lower()
        if len(text) < 4:
            raise Refused(
                f"{quoted(text)} is too short to name an experiment (give 4 or more "
                "characters of its id)"
            )
        found = [e for e in self.all() if e["id"].startswith(text)]
        if len(found) != 1:
            raise Refused(
                f"no experiment whose id starts with {quoted(text)} in this store"
                if not found
                else f"{len(found)} experiments start with {quoted(text)}"
            )
        return found[0]

    @staticmethod
    def _decode(row: Any) -> dict[str, Any]:
        data = {
            name: row[i] if not hasattr(row, "keys") else row[name]
            for i, name in enumerate(COLUMNS)
        }
        for name in ("definition", "match_ids", "report"):
            data[name] = json.loads(data[name]) if data[name] else None
        data["stored"] = sum(map(len, (data["match_ids"] or {}).values()))
        definition = data["definition"] or {}
        data["planned"] = definition.get("matches", 0) * len(definition.get("arms", ()))
        data["state"] = state_words(data["status"], data["stored"], data["planned"])
        return data


def state_words(status: str, stored: int, planned: int) -> str:
    """How far an experiment came, as every front end says it."""
    if status in UNDER_WAY:
        return f"{status}: {stored} of {planned} matches stored"
    if status == DONE:
        return f"done: {stored} matches"
    return f"{status} after {stored} of {planned} matches"
