"""A write of the projection tables on PostgreSQL as ONE call of a database function of ours.

The function takes every table's rows as one jsonb object (`{"moves": [[value, ...], ...], ...}`,
each row its values in column order), the application's name, the position the rows were folded
from (`since`, or NULL for no check) and the new position. Under the writers' advisory lock it
moves the position (refusing, with SQLSTATE `23TL1`, a position that is not `since` any more or
would not advance: psycopg raises that as an integrity error, which eventsourcing's datastore
passes on as its `IntegrityError`) and then upserts each table's rows. On the library's
autocommit connections the call is its own transaction: one statement and one round trip for a
whole write, where a pipeline of a lock, a setting, an upsert a table, the position and COMMIT
waited on the server twice and cost psycopg a round of Python per statement.

The function is created (or replaced) with the tables; its body names the tables and the
tracking table it was created for, so each tracking table has a function of its own.
"""

from __future__ import annotations

from .tables import STORED, Table

REFUSED = "23TL1"
"""The SQLSTATE of a refused write (class 23: an integrity constraint violation)."""

# Each column's value read from a row's JSON array, as the column stores it: as on SQLite, truth
# (true/false or 1/0 from the projector) as 0 or 1, and a number that does not exist (NaN, which
# orjson writes as null) as NULL.
CASTS = {
    "text": "{}",
    "int": "({})::bigint",
    "float": "({})::double precision",
    "bool": "({})::boolean::integer",
    "time": "{}",
    "json": "{}",
}


def function_name(tracking_table: str) -> str:
    return f"{tracking_table}_write"


def upsert(table: Table) -> str:
    """`view.upsert_statement`'s upsert, of the rows under the table's name in `p_rows`. As
    jsonb each row is parsed once (as json, each `->>` parsed the row's text again)."""
    names = ", ".join(table.names)
    values = ", ".join(
        CASTS[column.kind].format(f"r.value ->> {i}") for i, column in enumerate(table.columns)
    )
    updates = ", ".join(f"{c} = excluded.{c}" for c in table.names if c not in table.key)
    return (
        f"INSERT INTO {table.sql_name} ({names}) SELECT {values} "
        f"FROM jsonb_array_elements(p_rows -> '{table.name}') AS r "
        f"ON CONFLICT ({', '.join(table.key)}) DO UPDATE SET {updates}"
    )


def create_function(tracking: str, tracking_table: str, lock: int) -> str:
    """The function's CREATE OR REPLACE: `tracking` is the tracking table as SQL names it."""
    upserts = "\n".join(f"  {upsert(table)};" for table in STORED.values())
    return f"""
CREATE OR REPLACE FUNCTION {function_name(tracking_table)}(
  p_rows jsonb, p_name text, p_since bigint, p_position bigint
) RETURNS void LANGUAGE plpgsql AS $body$
DECLARE
  v_stored bigint;
BEGIN
  PERFORM pg_advisory_xact_lock({lock});
  -- The tables are rebuilt from the events: a crash of the server's machine loses at most the
  -- last writes of rows and position together, which the next catch-up makes again.
  PERFORM set_config('synchronous_commit', 'off', true);
  IF p_since IS NULL THEN
    INSERT INTO {tracking} AS t (application_name, notification_id)
    VALUES (p_name, p_position) ON CONFLICT (application_name)
    DO UPDATE SET notification_id = p_position WHERE t.notification_id < p_position;
  ELSIF p_since = 0 THEN
    INSERT INTO {tracking} (application_name, notification_id)
    VALUES (p_name, p_position) ON CONFLICT (application_name) DO NOTHING;
  ELSE
    UPDATE {tracking} SET notification_id = p_position
    WHERE application_name = p_name AND notification_id = p_since
      AND notification_id < p_position;
  END IF;
  IF NOT FOUND THEN
    SELECT max(notification_id) INTO v_stored FROM {tracking} WHERE application_name = p_name;
    IF p_since IS NOT NULL AND coalesce(v_stored, 0) <> p_since THEN
      RAISE EXCEPTION USING ERRCODE = '{REFUSED}', MESSAGE = format(
        'the tables moved on to event %s while this batch was folded from event %s '
        '(another process projected them)', coalesce(v_stored, 0), p_since);
    END IF;
    RAISE EXCEPTION USING ERRCODE = '{REFUSED}', MESSAGE = format(
      'the position would not advance from event %s to %s', coalesce(v_stored, 0), p_position);
  END IF;
{upserts}
END
$body$"""


def call(tracking_table: str) -> str:
    return f"SELECT {function_name(tracking_table)}(%s::jsonb, %s, %s, %s)"
