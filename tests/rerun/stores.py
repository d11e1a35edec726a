"""Fresh stores for the re-run, as the tests make them (tests/conftest.py): an SQLite file in a
folder of its own, or a PostgreSQL database of its own, dropped afterwards."""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import PG_SERVER, _pg_admin

KINDS = ("sqlite", "postgres")


@contextmanager
def fresh_store(kind: str) -> Iterator[tuple[str, Path]]:
    """(the store's location, a scratch folder of its own for files), both gone afterwards."""
    if kind not in KINDS:
        raise ValueError(f"a store is sqlite or postgres, not {kind!r}")
    with tempfile.TemporaryDirectory(prefix="hostile-") as scratch:
        folder = Path(scratch)
        if kind == "sqlite":
            yield str(folder / "store.sqlite"), folder
            return
        name = f"tablelog_hostile_{uuid.uuid4().hex[:12]}"
        with _pg_admin() as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"{PG_SERVER}/{name}", folder
        finally:
            with _pg_admin() as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def own_environment(folder: Path) -> Iterator[None]:
    """This run's signing key, never the user's; no store or key named by the environment (what
    tests/test_cli_corpus.py's `own_key_file` fixture does for a test)."""
    saved = dict(os.environ)
    os.environ["TABLELOG_KEY_FILE"] = str(folder / "key.pem")
    for name in ("TABLELOG_STORE", "TABLELOG_SIGNING_KEY"):
        os.environ.pop(name, None)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
