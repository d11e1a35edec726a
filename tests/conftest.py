"""Fixtures shared by the store-level tests: a real SQLite file, and a real PostgreSQL database.

`store` is always an SQLite file (tests that reach into the file itself use it); `any_store` runs
a test once on SQLite and once on PostgreSQL (127.0.0.1:5432, trust auth; each test gets its own
database, dropped afterwards). PostgreSQL tests skip only when no server answers, and not even
then when TABLELOG_REQUIRE_POSTGRES=1 (CI sets it).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tablelog.store import is_postgres, open_recorder

# The commands the tests start find Nim, the sixth game, as this process does (pyproject's
# pytest `pythonpath`): its distribution is on their path too.
THIRD_PARTY = str(Path(__file__).resolve().parent / "third_party")
os.environ["PYTHONPATH"] = os.pathsep.join(
    path for path in (THIRD_PARTY, os.environ.get("PYTHONPATH")) if path
)

PG_SERVER = os.environ.get("TABLELOG_TEST_PG", "postgresql://postgres@127.0.0.1:5432")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject's addopts): one worker more than the cores this process may use. A
    browser test leaves its core partly idle while the page answers and a store test while
    PostgreSQL does; a third worker on two cores fills that time (docs/testing.md measures it).
    It once ran the server out of connections while a recorder kept six; it keeps one or two."""
    return len(os.sched_getaffinity(0)) + 1


def _pg_admin():
    import psycopg

    return psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True, connect_timeout=3)


@pytest.fixture(scope="session")
def postgres_server():
    """The server URL, or a skip saying why there is none."""
    try:
        _pg_admin().close()
    except Exception as err:  # noqa: BLE001 - whatever stops the connection, say it
        if os.environ.get("TABLELOG_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required here but {PG_SERVER} did not answer: {err}")
        pytest.skip(f"no PostgreSQL server answers at {PG_SERVER}: {err}")
    return PG_SERVER


# A test's database is made new by emptying one a finished test gave back and renaming it:
# dropping its schemas takes 0.07 s, where CREATE DATABASE and DROP DATABASE took 1.9 s
# (measured here), most of it the drop's wait on the disk. Each test process keeps its own
# databases; they go at its end.
_SPARE: list[str] = []
_MADE: list[str] = []
_RESET = """
SELECT pg_terminate_backend(pid) FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid();
"""
_SCHEMAS = """
SELECT nspname FROM pg_namespace
    WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'
"""


def _emptied(name: str) -> str | None:
    """The database as CREATE DATABASE makes it (its schemas dropped, `public` made again),
    under a new name (what a process keeps per store URL, a pool's prepared statements, a Dask
    worker's recorder, must never meet it again); None when it is gone (a test dropped it, as a
    server that went down)."""
    import psycopg

    try:
        connection = psycopg.connect(f"{PG_SERVER}/{name}", autocommit=True, connect_timeout=3)
    except psycopg.OperationalError:
        return None
    with connection:
        connection.execute(_RESET)
        schemas = [row[0] for row in connection.execute(_SCHEMAS)]
        for schema in schemas:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')
        connection.execute("CREATE SCHEMA public")
    renamed = _new_name()
    with _pg_admin() as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )
        admin.execute(f'ALTER DATABASE "{name}" RENAME TO "{renamed}"')
    _MADE[_MADE.index(name)] = renamed
    return renamed


def _new_name() -> str:
    return f"tablelog_test_{uuid.uuid4().hex[:12]}"


@contextmanager
def fresh_database() -> Iterator[str]:
    """The URL of an empty PostgreSQL database for one test, emptied and kept for the next."""
    if _SPARE:
        name = _SPARE.pop()
    else:
        name = _new_name()
        with _pg_admin() as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        _MADE.append(name)
    try:
        yield f"{PG_SERVER}/{name}"
    finally:
        renamed = _emptied(name)
        if renamed is not None:
            _SPARE.append(renamed)


def pytest_sessionfinish(session):
    """Every database this test process made, dropped."""
    if not _MADE:
        return
    with _pg_admin() as admin:
        for name in _MADE:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_store(postgres_server):
    """A fresh PostgreSQL database for one test (empty, as a new one is)."""
    with fresh_database() as url:
        yield url


@pytest.fixture
def store(tmp_path):
    """The path of a fresh SQLite store file (created on first use)."""
    return str(tmp_path / "store.sqlite")


@pytest.fixture(params=["sqlite", "postgres"])
def any_store(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite")
    return request.getfixturevalue("postgres_store")


@pytest.fixture
def recorder(store):
    recorder = open_recorder(store)
    yield recorder
    recorder.close()


@pytest.fixture
def any_recorder(any_store):
    recorder = open_recorder(any_store)
    yield recorder
    recorder.close()


# Headless Chromium from Debian's package (scripts/test.sh installs it); as root on a closed
# network it needs these flags (shared/notes/browser-tests.md).
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium per test module, driven by Playwright."""
    from pathlib import Path

    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (scripts/test.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    """A 1280x900 page of the module's browser (a test module may define its own size)."""
    page = open_page(browser, 1280, 900)
    yield page
    page.close()


@contextmanager
def serving(app) -> Iterator[str]:
    """A Dash app's Flask server on a free loopback port, in a thread, as a browser test meets
    it: its URL; afterwards the server is shut down and the app's refresher, if any, stopped."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app.server, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        refresher = app.server.extensions.get("tablelog-refresher")
        if refresher is not None:
            refresher.stop()


# The longest a browser test waits for what it expects to see. Generous: on a loaded 2-core
# machine (xdist workers, servers, Chromium) a Dash round trip can take many seconds; a wait
# only ends sooner when the page is right, so this costs nothing when it passes.
BROWSER_WAIT = 60_000  # ms


def open_page(browser, width: int, height: int):
    """A browser page of that size whose console and page errors collect in `page.errors`
    (its console warnings in `page.warnings`)."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(BROWSER_WAIT)
    page.errors, page.warnings = [], []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("console", lambda m: page.warnings.append(m.text) if m.type == "warning" else None)
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    return page


def stored_rows(location: str) -> list[tuple]:
    """Every stored event row, straight from the database (to prove nothing changed)."""
    if is_postgres(location):
        import psycopg

        with psycopg.connect(location) as db:
            try:
                return db.execute(
                    "SELECT * FROM tablelog_events ORDER BY notification_id"
                ).fetchall()
            except psycopg.errors.UndefinedTable:
                return []
    if not os.path.exists(location):  # sqlite3.connect would create an empty file, which
        return []  # tablelog then refuses as "not a store"
    with sqlite3.connect(location) as db:
        try:
            return db.execute("SELECT rowid, * FROM stored_events ORDER BY rowid").fetchall()
        except sqlite3.OperationalError:  # no table yet: nothing was ever stored
            return []


@pytest.fixture
def club_manifests(tmp_path, monkeypatch):
    """A club's own manifest folder ($TABLELOG_MANIFESTS); returns write(name, content) -> name,
    which puts `content` there as <name>.json."""
    folder = tmp_path / "club-manifests"
    folder.mkdir()
    monkeypatch.setenv("TABLELOG_MANIFESTS", str(folder))

    def write(name: str, content: Any) -> str:
        text = content if isinstance(content, str) else json.dumps(content)
        (folder / f"{name}.json").write_text(text, encoding="utf-8")
        return name

    return write
