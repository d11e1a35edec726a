"""Where a store's studies live: Optuna's own tables, kept with the user's store.

- an SQLite store `PATH.sqlite`: the file `PATH.tune.sqlite` beside it (Optuna's schema and the
  recorder's never share a file, so neither migrates the other's tables);
- a PostgreSQL store: the same database, in the schema `tablelog_tune` (created when missing).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from tablelog.store import is_postgres, store_location

if TYPE_CHECKING:
    from optuna.storages import RDBStorage

SCHEMA = "tablelog_tune"


def storage_url(store: str | None) -> str:
    location = store_location(store)
    if is_postgres(location):
        _schema(location)
        rest = location.split("://", 1)[1]
        joiner = "&" if "?" in rest else "?"
        return f"postgresql+psycopg://{rest}{joiner}options={quote(f'-csearch_path={SCHEMA}')}"
    path = Path(location)
    beside = path.with_name(path.stem + ".tune.sqlite")
    return f"sqlite:///{beside}"


def _schema(location: str) -> None:
    import psycopg

    with psycopg.connect(location, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}")


@cache
def open_storage(url: str) -> RDBStorage:
    """Optuna's RDB storage at `url` (Optuna's log quietened: the tuner says what happens), one
    per process and URL: opening one checks its tables, too slow for each of a page's requests
    (SQLAlchemy's engine under it is shared by threads)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)  # a cancel is not a "failed trial"
    kwargs = {"connect_args": {"timeout": 60}} if url.startswith("sqlite") else {}
    return optuna.storages.RDBStorage(url, engine_kwargs=kwargs)
