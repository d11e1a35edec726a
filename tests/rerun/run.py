"""Every category of the re-run, in turn, each on a fresh store of the kind asked for."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable

from tests.rerun import after_commit, api, cli, concurrent, dash, kills, names, replay, times
from tests.rerun.stores import fresh_store, own_environment
from tests.rerun.tally import Tally

# name: run(store, folder, size) -> Tally
CATEGORIES: dict[str, Callable[..., Tally]] = {
    "cli": lambda store, folder, size: cli.run(store, folder, size),
    "cli-numbers": cli.numbers,
    "api": lambda store, folder, size: api.run(store, size),
    "dash": lambda store, folder, size: dash.run(store, size),
    "names": lambda store, folder, size: names.run(store, size),
    "times": times.run,
    "after-commit": lambda store, folder, size: after_commit.run(store, size),
    "concurrent": lambda store, folder, size: concurrent.run(store, size),
    "kill": kills.run,
    "replay": lambda store, folder, size: replay.run(store, size),
}


def rerun(kind: str, size: int, only: list[str] | None = None, quiet: bool = False) -> list[Tally]:
    """The tallies of the categories asked for (all by default), each on its own fresh store;
    progress on stderr unless `quiet`."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line for every request
    tallies = []
    for name in only or list(CATEGORIES):
        if not quiet:
            print(f"hostile re-run: {name} on {kind}, size {size} ...", file=sys.stderr, flush=True)
        started = time.monotonic()
        with fresh_store(kind) as (store, folder), own_environment(folder):
            tally = CATEGORIES[name](store, folder, size)
        tally.seconds = time.monotonic() - started
        tally.category = f"{tally.category} ({kind})"
        tallies.append(tally)
        if not quiet:
            print(f"  {tally.tried} tried, {tally.failures()} failures", file=sys.stderr)
    return tallies
