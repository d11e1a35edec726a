"""The demo store: what the dashboard opens on a fresh install, built from a fixed seed.

Every registered game, a few hundred simulated matches in all with mixed bots and player counts,
and a handful of matches that show every status a logged match can have: one still running, one
abandoned, one with a withdrawn move, claimed results (one matching the rules, one not) and
disputes (one resolved, one open); and a couple of dozen matches logged from score sheets.
The wrong claim and the open dispute are recorded by names marked "(demo)", so that `audit`
lists them as the demo's planted examples and a fresh store audits clean (audit_demo.py).
Everything goes through the recorder's commands, so the demo is exactly as checked as a logged
game. `tablelog demo` builds it; `tablelog serve` calls `build_demo_store` when the default store
does not exist yet.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypedDict

from tablelog.domain.errors import Refused
from tablelog.domain.games import GAMES
from tablelog.domain.integrity.audit_demo import demo_name
from tablelog.domain.matches.match import Match
from tablelog.domain.quoting import quoted
from tablelog.domain.recording.recorder import Recorder

from .demo_sheets import sheet_matches
from .simulation import Plan, begin_match, make_plan, play_on, simulate_all
from .store import is_postgres, open_recorder, sqlite_path, store_directory

DEMO_SEED = 20_240_601

# (game, players, bots, matches): the simulated part. Sized to take well under a minute on two
# cores: the heavy engines (GeoShapes played at random, Total Landscaping greedy) get fewer.
MIX: tuple[tuple[str, int, str, int], ...] = (
    ("topitop", 2, "random", 40),
    ("topitop", 2, "greedy,random", 20),
    ("topitop", 2, "random,greedy", 20),
    ("topitop", 2, "greedy", 10),
    ("topiary", 2, "random", 30),
    ("topiary", 3, "random", 20),
    ("topiary", 4, "random", 15),
    ("topiary", 2, "greedy,random", 10),
    ("topiary", 3, "random,greedy,random", 8),
    ("topas", 1, "random", 8),
    ("topas", 1, "greedy", 4),
    ("topas", 2, "random", 20),
    ("topas", 3, "random", 10),
    ("topas", 4, "random", 6),
    ("topas", 2, "greedy,random", 6),
    ("total-landscaping", 2, "random", 24),
    ("total-landscaping", 2, "greedy,random", 3),
    ("total-landscaping", 2, "random,greedy", 3),
    ("geoshapes", 2, "greedy", 14),
    ("geoshapes", 3, "greedy", 8),
    ("geoshapes", 4, "greedy", 6),
    ("geoshapes", 2, "random,greedy", 6),
    ("geoshapes", 2, "random", 3),
)


def demo_plans() -> list[Plan]:
    """The simulated part of the demo, for every registered game (a game not in MIX gets a
    default share, so a new engine shows up in the demo without editing this file)."""
    mix = list(MIX)
    for game, rules in GAMES.items():
        if not any(entry[0] == game for entry in mix):
            mix.append((game, min(max(2, rules.min_players), rules.max_players), "random", 20))
    return [
        make_plan(game, matches, DEMO_SEED + number, players, bots)
        for number, (game, players, bots, matches) in enumerate(mix)
        if game in GAMES
    ]


def _featured(game: str, bots: str, number: int, moves: int) -> tuple[Match, Plan, random.Random]:
    plan = make_plan(game, 1, DEMO_SEED, None, bots)
    match, rng = begin_match(plan, 1_000 + number)
    play_on(match, plan, rng, moves)
    return match, plan, rng


def _to_the_end(match: Match, plan: Plan, rng: random.Random) -> None:
    play_on(match, plan, rng, 2_000)
    match.end(agreed_draw=match.rules_outcome() is None)


def _claimed_totals(match: Match, error: float = 0) -> dict[str, float]:
    totals = [entry["total"] for entry in match.rules.score(match.state)]
    return {
        name: total + (error if seat == 0 else 0)
        for seat, (name, total) in enumerate(zip(match.seats, totals))
    }


def featured_matches() -> list[Match]:
    """Matches that show the statuses and entries simulations never produce."""
    featured = []
    # Running: a Topiary game half played, nobody has ended it.
    match, _, _ = _featured("topiary", "random,greedy,random", 1, 8)
    featured.append(match)
    # Abandoned partway through.
    match, _, _ = _featured("topas", "random", 2, 6)
    match.abandon("random-2", "the cafe closed")
    featured.append(match)
    # A move withdrawn at the table, then the game played out.
    match, plan, rng = _featured("topitop", "greedy,random", 3, 5)
    match.undo("random-2", "Red misread the board")
    _to_the_end(match, plan, rng)
    featured.append(match)
    # Claimed results: one as the rules count it, one with a scoring slip.
    for number, (game, error) in enumerate((("topiary", 0), ("topas", 3)), start=4):
        match, plan, rng = _featured(game, "random", number, 0)
        _to_the_end(match, plan, rng)
        # the slip is planted (audit lists it as the demo's, audit_demo.py); the right claim not
        by = match.seats[-1]
        match.claim(demo_name(by) if error else by, _claimed_totals(match, error))
        featured.append(match)
    # Disputes: one ruled on, one still open.
    match, plan, rng = _featured("total-landscaping", "random", 6, 10)
    match.dispute("random-2", "was that tile planted before the hoe?")
    match.resolve("Umpire", "planting comes before hoeing: the move stands")
    _to_the_end(match, plan, rng)
    featured.append(match)
    match, plan, rng = _featured("geoshapes", "greedy", 7, 0)
    _to_the_end(match, plan, rng)
    match.claim("greedy-1", _claimed_totals(match))
    match.dispute(demo_name("greedy-2"), "greedy-1 held no shape to discard when claiming the win")
    featured.append(match)
    return [m for m in featured if m.game in GAMES]


class Built(TypedDict):
    """What the demo store holds, and how long it took to build (seconds)."""

    store: str
    matches: int
    events: int
    games: list[str]
    seconds: float


def build_demo_store(
    location: str | os.PathLike, progress: bool = True, log: Callable[[str], None] | None = None
) -> Built:
    """Build the demo store at `location` (an SQLite path, or a postgresql:// URL of an empty
    database) and return what it holds. An SQLite store is built beside the path and moved
    into place when complete, so an interrupted build never leaves a half-built demo."""
    location = str(location)
    started = time.perf_counter()
    target = None if is_postgres(location) else sqlite_path(location)
    if target is not None and target.exists():
        raise Refused(
            f"{quoted(str(target))} already exists; the demo store is built in a new file"
        )
    if target is not None:
        store_directory(target)  # the rule of every store path, said of the target
    building = location if target is None else str(target.with_name(target.name + ".building"))
    if target is not None:
        _remove_sqlite(Path(building))
    recorder = open_recorder(building)
    built = False
    try:
        if target is None and next(recorder.started(), None) is not None:
            raise Refused(f"{location} already holds matches; the demo store needs an empty one")
        reports = simulate_all(recorder, demo_plans(), progress="demo store" if progress else False)
        if any(report.interrupted for report in reports):
            raise KeyboardInterrupt
        featured = featured_matches()
        featured += sheet_matches(DEMO_SEED)  # logged from score sheets (demo_sheets.py)
        recorder.save_new(featured)
        built = True
    finally:
        _close(recorder)
        if target is not None and not built:  # interrupted or refused: nothing left behind
            _remove_sqlite(Path(building))
    if target is not None:
        os.replace(building, target)
    summary: Built = {
        "store": location,
        "matches": sum(r.matches for r in reports) + len(featured),
        "events": sum(r.events for r in reports) + sum(m.version for m in featured),
        "games": sorted({r.plan.game for r in reports}),
        "seconds": round(time.perf_counter() - started, 1),
    }
    if log:
        log(
            f"built the demo store {location}: {summary['matches']} matches of "
            f"{len(summary['games'])} games ({summary['events']} events) in "
            f"{summary['seconds']} s"
        )
    return summary


def _close(recorder: Recorder) -> None:
    """Close the store's connections, so that SQLite folds its write-ahead log into the file."""
    close = getattr(recorder, "close", None)
    if close:
        close()


def _remove_sqlite(path: Path) -> None:
    for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        leftover.unlink(missing_ok=True)
