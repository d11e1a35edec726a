"""Export and import of match records (JSON Lines, one match per line)."""

from __future__ import annotations

import json

import click
from tqdm import tqdm

from tablelog.domain.errors import BadRecord, Damaged
from tablelog.domain.matches.records import check_all
from tablelog.domain.plain import PlainValue, read_json
from tablelog.files import LARGE, written
from tablelog.store import open_recorder

from . import main
from .options import InputFile, OutputFile, store_option, zone_option
from .stats import open_queries


@main.command()
@click.argument("match", required=False)
@click.option("--all", "everything", is_flag=True, help="Export every match in the store.")
@click.option(
    "--output",
    "-o",
    type=OutputFile("the export"),
    default="-",
    help="File (default stdout); written whole or not at all.",
)
@click.option(
    "--to",
    "tool",
    type=click.Choice(["tablelog", "bgstats", "bgg"]),
    default="tablelog",
    help="tablelog records (default), a BG Stats file or BGG plays XML (docs/interop.md).",
)
@click.option("--game", help="Only matches of this game.")
@click.option("--since", metavar="DATE", help="Only matches played on or after DATE.")
@click.option("--until", metavar="DATE", help="Only matches played on or before DATE.")
@zone_option(
    "bgstats/bgg: the time zone their local times are written in (default: this machine's)."
)
@store_option
def export(match, everything, output, tool, game, since, until, zone, store):
    """Write match records as JSON Lines (see docs/records.md), or with --to a BG Stats
    file or BGG plays XML of one match, a game, a date range or all."""
    selection = game or since or until
    if bool(match) + everything + bool(selection) != 1:
        raise click.UsageError("give a MATCH, --all, or --game/--since/--until")
    queries = open_queries(store)  # its recorder: a match found damaged is quarantined
    recorder = queries.recorder
    if selection:
        from .sheets import select

        ids = select(recorder, game, since, until)
    elif not everything:
        ids = [queries.find(match)]
    else:
        ids = recorder.match_ids()  # from the raw log: a match with a damaged start is named too
    if tool != "tablelog":
        from .sheets import export_plays

        export_plays(tool, ids, zone, output, store)
        return
    with written(output, "the export") as out:
        for match_id in tqdm(ids, desc="export", unit="match", disable=len(ids) < 50):
            try:
                record = recorder.export(match_id)
            except Damaged as err:  # left out and named; every other match is exported
                if match:
                    raise
                click.echo(f"tablelog: left out {err}", err=True)
                continue
            out.write(json.dumps(record, ensure_ascii=False) + "\n")


def read_records(data: bytes) -> list:
    """The records of a file: JSON Lines (None for blank lines, so line numbers hold), or one
    whole JSON document holding a record or a list of records. A file that is not UTF-8, or a
    line too deep or with too long a number to read, is a BadRecord naming the line."""
    text = utf8(data)
    try:
        whole = _parsed(text)
    except BadRecord:
        pass
    else:
        return whole if isinstance(whole, list) else [whole]
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            records.append(_parsed(line) if line.strip() else None)
        except BadRecord as err:
            raise BadRecord(f"line {number}: {err}") from None
    return records


def utf8(data: bytes) -> str:
    """A file's bytes as text, or a BadRecord naming the line that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise BadRecord(f"line {line}: not UTF-8 text (byte {err.start + 1} of the file)") from None


def _parsed(text: str) -> PlainValue:
    try:
        return read_json(text)
    except json.JSONDecodeError as err:
        raise BadRecord(f"not valid JSON ({err.msg})") from None
    except ValueError:  # Python reads no integer of more than 4,300 digits
        raise BadRecord("holds a number of more than 4,300 digits") from None
    except RecursionError:
        raise BadRecord("nested too deep to read") from None


@main.command(name="import")
@click.argument("source", type=InputFile("the file to import", LARGE))
@click.option(
    "--from",
    "tool",
    type=click.Choice(["tablelog", "bgstats", "bgg"]),
    default="tablelog",
    help="tablelog records (default), a BG Stats export/backup or BGG plays XML (docs/interop.md).",
)
@click.option(
    "--map",
    "mapping",
    multiple=True,
    metavar="NAME=GAME",
    help="bgstats/bgg: their game NAME (or bgg:ID) is GAME here.",
)
@zone_option("bgstats/bgg: the time zone of their local times (default: this machine's).")
@click.option(
    "--skip-invalid",
    is_flag=True,
    help="bgstats/bgg: store the plays that can be, name those that cannot, exit 1.",
)
@store_option
def import_(source, tool, mapping, zone, skip_invalid, store):
    """Replay each record in SOURCE (JSON Lines, or one JSON record) through the rules and
    store it, with its id, times and hashes.

    Every record is checked before anything is stored, and the file is stored in one
    transaction: one bad record refuses the import, naming its line and the entry that broke,
    and the store keeps nothing of the file. Records already stored exactly so are skipped, so an
    import that was cut short can be run again. BG Stats and BGG files (--from) are checked
    whole the same way; --skip-invalid stores their good plays and names the rest.
    """
    if tool != "tablelog":
        from .sheets import import_plays

        import_plays(tool, source, mapping, zone, store, skip_invalid)
        return
    if skip_invalid:
        raise click.UsageError("--skip-invalid is for --from bgstats or bgg")
    records = read_records(source.data)
    recorder = open_recorder(store)
    numbered = [(n, r) for n, r in enumerate(records, start=1) if r is not None]
    with tqdm(total=len(numbered), desc="check", unit="match", disable=len(numbered) < 50) as bar:
        matches = check_all(
            (r for _, r in numbered), on_each=bar.update, lines=(n for n, _ in numbered)
        )
    if len(matches) >= 50:
        click.echo(f"storing {len(matches)} matches in one transaction", err=True)
    stored, skipped = recorder.save_imported(list(zip((n for n, _ in numbered), matches)))
    click.echo(
        f"imported {stored} match{'es' if stored != 1 else ''}"
        + (f"; {skipped} already in this store, skipped" if skipped else "")
    )
