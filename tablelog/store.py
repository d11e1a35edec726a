"""Where matches are stored: an SQLite file by default, PostgreSQL when a URL says so.

The location is, in order: `--store`, `$TABLELOG_STORE`, or `tablelog.sqlite` in the user's data
directory (`~/.local/share/tablelog/` on Linux), created on first use.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlparse

import platformdirs
import psycopg

from tablelog.domain.errors import Refused
from tablelog.domain.integrity.signed import SigningRecorder
from tablelog.domain.quoting import QUOTE_LIMIT, quoted
from tablelog.domain.recording.eventsourcing_internals import CONNECTION_LOST
from tablelog.keys import load_person_signer, load_signer

DEFAULT_STORE = platformdirs.user_data_path("tablelog") / "tablelog.sqlite"

# A store that was open and stopped answering (the server went down, the file's disk failed):
# the library's and the drivers' connection-level errors, not a program's own mistakes.
UNREACHABLE: tuple[type[Exception], ...] = (
    *CONNECTION_LOST,
    sqlite3.OperationalError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)


def unreachable(error: BaseException) -> str:
    """One line for a store that stopped answering. Whether a write in flight was stored
    cannot be known from here (its commit may have been lost on the way back), so a writer is
    told to look before entering it again."""
    reason = (str(error).splitlines() or [type(error).__name__])[0]
    reason = reason if len(reason) <= 2 * QUOTE_LIMIT else reason[: 2 * QUOTE_LIMIT] + "..."
    return (
        f"the store stopped answering ({reason}): reload to see whether the entry was "
        "stored before entering it again"
    )


def damaged_file(error: BaseException) -> str | None:
    """One line for an SQLite store file whose pages are damaged ("database disk image is
    malformed"): opening checks the header only, so the damage shows inside whatever command
    first reads the page. None for any other error."""
    cause: BaseException | None = error
    while cause is not None:
        if type(cause) is sqlite3.DatabaseError:  # SQLite's own corruption codes; not a subclass
            reason = (str(cause).splitlines() or ["unreadable"])[0][: 2 * QUOTE_LIMIT]
            return f"the store file is damaged ({reason}); restore it from a copy"
        cause = cause.__cause__
    return None


def store_location(store: str | None = None) -> str:
    if store is not None and not store.strip():  # `--store "$UNSET"`: not the default store
        raise Refused("--store is empty: give a store file or a postgresql:// URL")
    return store or os.environ.get("TABLELOG_STORE") or str(DEFAULT_STORE)


def is_postgres(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


def store_env(location: str) -> dict[str, str]:
    """The eventsourcing persistence settings for a store location (path or URL)."""
    if is_postgres(location):
        url = urlparse(location)
        if not url.path.strip("/"):
            raise Refused(
                f"{quoted(location)}: name the database, e.g. postgresql://user@host:5432/db"
            )
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": unquote(url.path.strip("/")),
            "POSTGRES_HOST": url.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(url.port or 5432),
            "POSTGRES_USER": unquote(url.username or os.environ.get("USER", "postgres")),
            "POSTGRES_PASSWORD": unquote(url.password or ""),
            # One connection kept while idle (a command needs no more), grown on demand to 11
            # by a served app's threads. With the library's 5 a recorder held 6, and a few
            # dashboards and commands at once filled PostgreSQL's default 100.
            "POSTGRES_POOL_SIZE": "1",
            "POSTGRES_CONNECT_TIMEOUT": "5",
            "POSTGRES_LOCK_TIMEOUT": "10",
            "POSTGRES_ENABLE_DB_FUNCTIONS": "y",  # one statement per save (docs/postgresql.md)
        }
    path = sqlite_store(sqlite_path(location))
    return {
        "PERSISTENCE_MODULE": "tablelog.sqlite_store:Factory",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "10",
    }


SQLITE_HEADER = b"SQLite format 3\x00"


def sqlite_path(location: str) -> Path:
    """The file an SQLite location names: a path, or a sqlite:// URL of one."""
    return Path(location.removeprefix("sqlite://")).expanduser()


def store_directory(path: Path) -> None:
    """A store file is made only in an existing directory: a mistyped one is refused rather
    than created (every command, `demo` and sqlite:// URLs alike); only the default store's
    directory is made on first use."""
    if path.parent.is_dir():
        return
    if path.parent != DEFAULT_STORE.parent:
        raise Refused(
            f"{quoted(str(path))}: the directory {quoted(str(path.parent))} does not exist "
            "(a typo? create it first to make a store there)"
        )
    path.parent.mkdir(parents=True, exist_ok=True)


def sqlite_store(path: Path) -> Path:
    """`path` if it is a store or may become one; a Refused otherwise. A mistyped directory is
    refused rather than created (only the default store's directory is made on first use), and
    an existing file must be an SQLite database holding a Tablelog store or nothing at all: an
    empty file, a text file or another program's database is not silently taken over. A new
    store is created whole (`_create_sqlite`), so a file of ours is never seen empty."""
    if path.is_dir():
        raise Refused(f"{quoted(str(path))} is a directory; give the path of a store file")
    store_directory(path)
    if not path.exists():
        _create_sqlite(path)
    _require_store_file(path)
    return path


def _require_store_file(path: Path) -> None:
    import sqlite3

    with open(path, "rb") as file:
        header = file.read(len(SQLITE_HEADER))
    if header != SQLITE_HEADER:
        what = "an empty file" if not header else "not an SQLite database"
        raise Refused(f"{quoted(str(path))} is not a Tablelog store ({what}); give another path")
    try:
        with contextlib.closing(
            sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        ) as db:
            tables = {
                row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
    except sqlite3.Error as err:
        raise Refused(f"{quoted(str(path))} is not a readable SQLite database: {err}") from None
    if tables and "stored_events" not in tables:
        raise Refused(
            f"{quoted(str(path))} is another program's SQLite database (no Tablelog events in it); "
            "give another path"
        )


def _create_sqlite(path: Path) -> None:
    """An empty SQLite database in WAL mode, made beside `path` and linked into place: another
    process opening the store at the same moment finds a whole database file or none at all
    (SQLite itself would show it an empty file for a moment). If another process linked its own
    first, that one is the store."""
    import sqlite3
    import uuid

    # A unique name that SQLite creates itself, with the usual permissions (mkstemp's are 0600).
    scratch = path.with_name(f".{path.name}.{uuid.uuid4().hex}")
    try:
        with contextlib.closing(sqlite3.connect(scratch)) as db:
            db.execute("PRAGMA journal_mode=WAL")  # writes the header; the library wants WAL
        try:
            os.link(scratch, path)
        except FileExistsError:
            pass
    finally:
        scratch.unlink(missing_ok=True)


SCHEMA_LOCK = 0x7AB1E106  # a PostgreSQL advisory lock id of our own


@contextlib.contextmanager
def schema_lock(location: str) -> Iterator[None]:
    """Serialise table creation on PostgreSQL: recorders opening at once on a new database
    otherwise race in the catalog ("tuple concurrently updated"). SQLite needs nothing."""
    if not is_postgres(location):
        yield
        return
    import psycopg

    with psycopg.connect(location, autocommit=True, connect_timeout=5) as lock:
        lock.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        try:
            yield
        finally:
            lock.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))


def open_recorder(store: str | None = None) -> SigningRecorder:
    location = store_location(store)
    try:
        with schema_lock(location):
            # Signs a checkpoint on end, claim, dispute and resolve when it has a key (keys.py).
            return SigningRecorder(
                env=store_env(location),
                key_source=load_signer,
                person_key_source=load_person_signer,
            )
    except Refused:
        raise
    except Exception as err:  # noqa: BLE001 - the driver's own words, on one line
        # The driver's first line, which may quote the URL: as long as two quotes at most.
        reason = (str(err).splitlines() or [type(err).__name__])[0]
        reason = reason if len(reason) <= 2 * QUOTE_LIMIT else reason[: 2 * QUOTE_LIMIT] + "..."
        raise Refused(f"cannot open the store {quoted(location)}: {reason}") from None
