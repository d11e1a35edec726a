"""Export and import of match records (JSON Lines, one match per line)."""

from __future__ import annotations

import json

import click
from tqdm import tqdm

from tablelog.domain.errors import BadRecord
from tablelog.domain.records import check_all
from tablelog.store import open_recorder

from . import main
from .options import store_option


@main.command()
@click.argument("match", required=False)
@click.option("--all", "everything", is_flag=True, help="Export every match in the store.")
@click.option("--output", "-o", type=click.File("w"), default="-", help="File (default stdout).")
@click.option("--to", "tool", type=click.Choice(["tablelog", "bgstats", "bgg"]),
              default="tablelog", help="tablelog records (default), a BG Stats file or BGG "
              "plays XML (docs/interop.md).")
@click.option("--game", help="Only matches of this game.")
@click.option("--since", metavar="DATE", help="Only matches played on or after DATE.")
@click.option("--until", metavar="DATE", help="Only matches played on or before DATE.")
@click.option("--zone", metavar="ZONE", help="bgstats/bgg: the time zone their local "
              "times are written in (default: this machine's).")
@store_option
def export(match, everything, output, tool, game, since, until, zone, store):
    """Write match records as JSON Lines (see docs/records.md), or with --to a BG Stats
    file or BGG plays XML of one match, a game, a date range or all."""
    selection = game or since or until
    if bool(match) + everything + bool(selection) != 1:
        raise click.UsageError("give a MATCH, --all, or --game/--since/--until")
    recorder = open_recorder(store)
    if selection:
        from .sheets import select

        ids = select(recorder, game, since, until)
    else:
        ids = ([s.originator_id for s in recorder.started()] if everything
               else [recorder.find(match)])
    if tool != "tablelog":
        from .sheets import export_plays

        export_plays(tool, ids, zone, output, store)
        return
    for match_id in tqdm(ids, desc="export", unit="match", disable=len(ids) < 50):
        output.write(json.dumps(recorder.export(match_id), ensure_ascii=False) + "\n")


def read_records(text: str) -> list:
    """The records of a file: JSON Lines (None for blank lines, so line numbers hold), or one
    whole JSON document holding a record or a list of records."""
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        pass
    else:
        return whole if isinstance(whole, list) else [whole]
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            records.append(json.loads(line) if line.strip() else None)
        except json.JSONDecodeError as err:
            raise BadRecord(f"line {number}: not valid JSON ({err.msg})") from None
    return records


@main.command(name="import")
@click.argument("source", type=click.File("r"))
@click.option("--from", "tool", type=click.Choice(["tablelog", "bgstats", "bgg"]),
              default="tablelog", help="tablelog records (default), a BG Stats export/backup "
              "or BGG plays XML (docs/interop.md).")
@click.option("--map", "mapping", multiple=True, metavar="NAME=GAME", help="bgstats/bgg: "
              "their game NAME (or bgg:ID) is GAME here.")
@click.option("--zone", metavar="ZONE", help="bgstats/bgg: the time zone of their local "
              "times (default: this machine's).")
@store_option
def import_(source, tool, mapping, zone, store):
    """Replay each record in SOURCE (JSON Lines, or one JSON record) through the rules and
    store it, with its id, times and hashes.

    Every record is checked before anything is stored, and the file is stored in one
    transaction: one bad record refuses the import, naming its line and the entry that broke,
    and the store keeps nothing of the file. Records already stored exactly so are skipped, so an
    import that was cut short can be run again.
    """
    if tool != "tablelog":
        from .sheets import import_plays

        import_plays(tool, source.read(), mapping, zone, store)
        return
    records = read_records(source.read())
    recorder = open_recorder(store)
    numbered = [(n, r) for n, r in enumerate(records, start=1) if r is not None]
    with tqdm(total=len(numbered), desc="check", unit="match",
              disable=len(numbered) < 50) as bar:
        matches = check_all((r for _, r in numbered), on_each=bar.update,
                            lines=(n for n, _ in numbered))
    if len(matches) >= 50:
        click.echo(f"storing {len(matches)} matches in one transaction", err=True)
    stored, skipped = recorder.save_imported(list(zip((n for n, _ in numbered), matches)))
    click.echo(f"imported {stored} match{'es' if stored != 1 else ''}"
               + (f"; {skipped} already in this store, skipped" if skipped else ""))
