"""Score-sheet matches on the command line (`tablelog sheet`), and the BG Stats / BGG side of
`tablelog import --from` and `tablelog export --to` (see docs/interop.md)."""

from __future__ import annotations

import json
import sys
from datetime import datetime, tzinfo
from types import ModuleType
from typing import TYPE_CHECKING

import click
from tqdm import tqdm

from tablelog.domain.commands import command
from tablelog.domain.errors import BadRecord, Conflict, Refused
from tablelog.domain.matches.times import local_unless_zoned, parse_bound
from tablelog.domain.quoting import quoted
from tablelog.files import Given, written
from tablelog.store import open_recorder

from . import write_command
from .options import entering, parse_json, parse_options, read_text, store_option

if TYPE_CHECKING:
    from tablelog.domain.matches.match import Match
    from tablelog.domain.recording.recorder import Recorder
    from tablelog.interop.common import Imported


@write_command("start_sheet")
@click.argument("game")
@click.option(
    "--players",
    required=True,
    metavar="A,B,...",
    help=command("start_sheet").help("players") + " Comma separated.",
)
@click.option(
    "--score",
    "scores",
    multiple=True,
    metavar="NAME=POINTS",
    help="A seat's final total (repeat per seat; leave out where the sheet has none).",
)
@click.option(
    "--category",
    "categories",
    multiple=True,
    metavar="NAME:CATEGORY=POINTS",
    help="Points of one scoring category, e.g. 'Ann:type bonus=4'.",
)
@click.option(
    "--winner",
    "winners",
    multiple=True,
    metavar="NAME",
    help="A winner (repeat for a shared win; none for a draw where the game allows one).",
)
@click.option("--first", metavar="NAME", help="Who started.")
@click.option(
    "--played-at", metavar="TIME", help="When it was played (local time unless a zone is given)."
)
@click.option("--duration", type=click.IntRange(0, 100_000), metavar="MINUTES")
@click.option("--location", metavar="TEXT")
@click.option("--option", "option_pairs", multiple=True, metavar="K=V", help="A game option.")
@click.option(
    "--sheet",
    "sheet_json",
    metavar="JSON",
    help="The whole sheet as JSON (docs/interop.md) instead of the options above.",
)
@store_option
@entering
def sheet(
    game,
    players,
    scores,
    categories,
    winners,
    first,
    played_at,
    duration,
    location,
    option_pairs,
    sheet_json,
    store,
):
    """GAME is the game's id; prints the new match's id."""
    seats = [name.strip() for name in players.split(",")]
    if sheet_json is not None:
        value = parse_json(sheet_json, "the sheet")
    else:
        value = {
            "scores": _entries(seats, scores, categories),
            "winners": list(winners),
            "first": first,
            "duration_min": duration,
            "location": location,
        }
    recorder = open_recorder(store)
    click.echo(
        recorder.start_sheet(
            game, seats, value, parse_options(option_pairs), played_at=local_unless_zoned(played_at)
        )
    )


def _entries(seats: list[str], scores: tuple[str, ...], categories: tuple[str, ...]) -> list:
    entries: dict[str, dict] = {}
    for pair in scores:
        name, sep, points = pair.rpartition("=")
        entries.setdefault(_seat(name, seats, "--score"), {})["total"] = _number(points, pair)
    for triple in categories:
        name, sep, rest = triple.partition(":")
        category, sep2, points = rest.rpartition("=")
        if not sep or not sep2:
            raise Refused(f"--category takes NAME:CATEGORY=POINTS, got {quoted(triple)}")
        entry = entries.setdefault(_seat(name, seats, "--category"), {})
        entry.setdefault("categories", {})[category.strip()] = _number(points, triple)
    return [entries.get(name) for name in seats]


def _seat(name: str, seats: list[str], option: str) -> str:
    if name.strip() not in seats:
        raise Refused(
            f"{option}: {quoted(name.strip())} is not one of --players ({', '.join(seats)})"
        )
    return name.strip()


def _number(text: str, given: str) -> int | float:
    try:
        value = float(text)
    except ValueError:
        raise Refused(f"{quoted(given)}: {quoted(text.strip())} is not a number") from None
    return int(value) if value.is_integer() else value


# ---- import --from / export --to (called by cli/records.py) -----------------------------------


# The largest BG Stats or BGG file imported, refused unread beyond it: some 40,000 plays (BG
# Stats writes about 500 bytes a play, BGG's API 100 plays a page), where a club's year is well
# under 1 MB. A file at the cap imports in 40 to 80 s and 400 to 650 MB (docs/interop.md);
# `common.MOST_MATCHES` bounds what it may build.
MOST_BYTES = 20 * 1024 * 1024


def import_plays(
    tool: str,
    source: Given,
    mapping_pairs: tuple[str, ...],
    zone_name: str | None,
    store: str | None,
    skip_invalid: bool = False,
) -> None:
    """Read, check and build every play first (a progress bar), then sort them against the
    store; any bad play refuses the file (one line naming them, exit 2) unless `skip_invalid`,
    which stores the others and exits 1 naming what it skipped. What is stored is stored in
    one transaction; plays already imported are counted, not stored again."""
    from tablelog.interop import bgg, bgstats
    from tablelog.interop.common import parse_map, zone_of

    module = bgstats if tool == "bgstats" else bgg
    mapping, zone = parse_map(mapping_pairs), zone_of(zone_name)
    loaded = module.load(read_text(source, "the file", MOST_BYTES))
    recorder = open_recorder(store)
    imported, new = _checked(tool, module, loaded, mapping, zone, recorder)
    if imported.bad and not skip_invalid:
        raise Refused(imported.refusal())
    if len(new) >= 50:
        click.echo(f"storing {len(new)} matches in one transaction", err=True)
    try:
        stored, raced = recorder.save_imported(new)
    except (BadRecord, Conflict):  # another import stored some of these plays meanwhile
        raise Refused(
            "another import stored some of these plays while this one checked them; nothing "
            "was imported: run it again"
        ) from None
    imported.already += raced  # stored the same by another import meanwhile
    for line in imported.summary(stored):
        click.echo(line)
    if imported.bad:
        click.echo(
            f"tablelog: {len(imported.bad)} of {imported.total} plays refused and skipped "
            "(listed above); the others are stored",
            err=True,
        )
        sys.exit(1)


def _checked(
    tool: str,
    module: ModuleType,
    loaded: object,
    mapping: dict[str, str],
    zone: tzinfo,
    recorder: Recorder,
) -> tuple[Imported, list[tuple[int, Match]]]:
    """(every play read, checked and built; those the store does not hold yet), each step with
    a progress bar."""
    from tablelog.domain.recording.recorder import BULK, cycle_collector_paused
    from tablelog.interop.stored import sort_out

    total = module.count(loaded)

    def bar(what: str, count: int) -> tqdm:
        return tqdm(total=count, desc=what, unit="play", disable=count < 50, file=sys.stderr)

    # Building a match per play allocates much and makes no cycle: the collector would walk
    # every match built so far, again and again (measured on 38,000 plays: 28 s, not 41).
    with cycle_collector_paused(total >= BULK):
        with bar(f"check {tool} plays", total) as progress:
            imported = module.read(loaded, mapping, zone, on_each=progress.update)
        with bar("look for them in the store", len(imported.plays)) as progress:
            new = sort_out(recorder, imported, module.round_trip, zone, progress.update)
    return imported, new


def export_plays(
    tool: str, ids: list, zone_name: str | None, output: str, store: str | None
) -> None:
    from importlib.metadata import version

    from tablelog.interop import bgg, bgstats
    from tablelog.interop.common import zone_of
    from tablelog.interop.ours import sheets

    recorder = open_recorder(store)
    zone = zone_of(zone_name)
    found, left = sheets(
        recorder.get(i)
        for i in tqdm(ids, desc="export", unit="match", disable=len(ids) < 50, file=sys.stderr)
    )
    text = (
        json.dumps(bgstats.write(found, zone, version("tablelog")), ensure_ascii=False, indent=1)
        if tool == "bgstats"
        else bgg.write(found, zone).decode("utf-8")
    )
    with written(output, "the export") as out:
        out.write(text + "\n")
    click.echo(
        f"exported {len(found)} match{'es' if len(found) != 1 else ''}"
        + (f"; {left} not ended, left out" if left else ""),
        err=True,
    )


def select(recorder, game: str | None, since: str | None, until: str | None) -> list:
    """Match ids by game and by when they were played (`--since`/`--until`, dates or times)."""
    low = _bound(since, "--since")
    high = _bound(until, "--until", end=True)
    chosen = []
    for started in recorder.started(game):
        played = (
            datetime.fromisoformat(started.played_at) if started.played_at else started.timestamp
        )
        if (low is None or played >= low) and (high is None or played <= high):
            chosen.append(started.originator_id)
    return chosen


def _bound(text: str | None, what: str, end: bool = False) -> datetime | None:
    if text is None:
        return None
    if len(text.strip()) == 10:  # a date: the whole day
        text = text.strip() + ("T23:59:59.999999" if end else "T00:00:00")
    return parse_bound(local_unless_zoned(text), what)
