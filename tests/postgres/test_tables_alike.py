"""The projection tables hold the same values on PostgreSQL as on SQLite, for the same stored
events: PostgreSQL's writes hand each table's rows over as one JSON array that the server casts
column by column (`projections.postgres._json_upsert`), SQLite's bind each value, so the two
spellings of a value (a float's digits, truth, an escaped name, a missing number) must meet."""

from __future__ import annotations

import random

from tablelog.projections.runner import TablesProjection
from tablelog.store import open_recorder
from tests.projections.matches import random_match
from tests.projections.test_catch_up import stored_rows
from tests.projections.test_projection import some_matches
from tests.test_recorder import WIN

# Names a JSON text must escape (quote, backslash), non-ASCII letters and a snowman.
AWKWARD = ['Zoë "Z" Ng', "O'Neil \\ ☃"]


def _awkward_match(recorder) -> None:
    match_id = recorder.start("topitop", AWKWARD)
    for seat, move in WIN:
        recorder.record(match_id, AWKWARD[0] if seat == "Ann" else AWKWARD[1], move)
    recorder.end(match_id)


def test_postgresql_tables_hold_what_sqlite_tables_hold_for_the_same_events(store, postgres_store):
    sqlite = open_recorder(store)
    rng = random.Random(28)
    sqlite.save_new(some_matches(rng) + some_matches(rng))
    sqlite.save_new([random_match("topiary", AWKWARD, rng, cap=40)])
    _awkward_match(sqlite)
    # The very rows, copied: the same ids, timestamps and hashes in both stores.
    events = sqlite.recorder.select_notifications(start=1, limit=100_000)
    postgres = open_recorder(postgres_store)
    postgres.recorder.insert_events(events)

    tables = {}
    for name, recorder in (("sqlite", sqlite), ("postgres", postgres)):
        projection = TablesProjection(recorder, page=50)  # many writes, large and small
        projection.catch_up()
        tables[name] = stored_rows(projection)
    assert len(tables["sqlite"]["ratings"]) > 20 and len(tables["sqlite"]["moves"]) > 500
    assert tables["postgres"] == tables["sqlite"]
    sqlite.close()
    postgres.close()
