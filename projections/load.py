"""The projection tables as pandas DataFrames, with the dtypes `projections.tables` promises.

from tablelog.projections.load import load_tables
tables = load_tables(recorder)            # brings them up to date first
tables["scores"].groupby("seat").won.mean()
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Literal

from .tables import TABLES, Table

if TYPE_CHECKING:
    import pandas as pd

    from tablelog.domain.recording.recorder import Recorder

    from .runner import Progress, TablesProjection

# Literal, so pandas' types know which Series each astype gives.
DTYPES: dict[str, Literal["string", "int64", "float64", "bool"]] = {
    "text": "string",
    "json": "string",
    "int": "int64",
    "float": "float64",
    "bool": "bool",
}


def frame(
    table: Table, rows: Iterable[tuple[object, ...]], names: Sequence[str] | None = None
) -> pd.DataFrame:
    """Rows in the table's column order (as stored), or in the order of `names` (some of its
    columns), to a typed DataFrame."""
    import pandas as pd

    names = table.names if names is None else tuple(names)
    data = pd.DataFrame.from_records(list(rows), columns=list(names))
    for column in table.columns:
        if column.name not in names:
            continue
        values = data[column.name]
        if column.kind == "time":
            data[column.name] = pd.to_datetime(values, utc=True, format="ISO8601")
        elif column.kind == "bool" and column.nullable:
            data[column.name] = values.astype("boolean")
        elif column.kind == "bool":
            data[column.name] = values.astype(bool)
        elif column.kind == "float":
            data[column.name] = pd.to_numeric(values, errors="coerce").astype("float64")
        else:
            data[column.name] = values.astype(DTYPES[column.kind])
    return data


def read_table(
    projection: TablesProjection, name: str, names: Sequence[str] | None = None
) -> pd.DataFrame:
    """A table as a typed DataFrame: every column, or only those in `names` (in that order)."""
    table = TABLES[name]
    names = table.names if names is None else tuple(names)
    # Tuples in the selected order, straight from the cursor (no dict per row).
    statement = f"SELECT {', '.join(names)} FROM {table.sql_name}"
    return frame(table, projection.view.fetch(statement), names)


def load_tables(
    recorder: Recorder, progress: Progress | None = None, names: Iterable[str] = TABLES
) -> dict[str, pd.DataFrame]:
    """Every projection table (or those named), after processing any new events."""
    from .runner import TablesProjection

    projection = TablesProjection(recorder)
    projection.catch_up(progress)
    return {name: read_table(projection, name) for name in names}
