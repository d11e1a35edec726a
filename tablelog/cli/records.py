"""Export and import of match records (JSON Lines, one match per line)."""

from __future__ import annotations

import json

import click
from tqdm import tqdm

from tablelog.domain.errors import BadRecord, Damaged
from tablelog.domain.records import check_all
from tablelog.store import open_recorder

from . import main
from .options import store_option

SAVE_BATCH = 200  # matches per transaction when importing


@main.command()
@click.argument("match", required=False)
@click.option("--all", "everything", is_flag=True, help="Export every match in the store.")
@click.option("--output", "-o", type=click.File("w"), default="-", help="File (default stdout).")
@store_option
def export(match, everything, output, store):
    """Write match records as JSON Lines (see docs/records.md)."""
    if bool(match) == everything:
        raise click.UsageError("give a MATCH or --all")
    recorder = open_recorder(store)
    if not everything:
        output.write(json.dumps(recorder.export(recorder.find(match)), ensure_ascii=False) + "\n")
        return
    ids = recorder.match_ids()  # from the raw log: a match with a damaged start is named too
    for match_id in tqdm(ids, desc="export", unit="match", disable=len(ids) < 50):
        try:
            record = recorder.export(match_id)
        except Damaged as err:  # left out and named; every other match is exported
            click.echo(f"tablelog: left out {err}", err=True)
            continue
        output.write(json.dumps(record, ensure_ascii=False) + "\n")


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
@store_option
def import_(source, store):
    """Replay each record in SOURCE (JSON Lines, or one JSON record) through the rules and
    store it.

    Every record is checked before anything is stored: one bad record refuses the import, naming
    its line and the move that broke it, and the store keeps nothing of the file.
    """
    records = read_records(source.read())
    recorder = open_recorder(store)
    with tqdm(total=len(records), desc="check", unit="match", disable=len(records) < 50) as bar:
        numbered = [(n, r) for n, r in enumerate(records, start=1) if r is not None]
        try:
            matches = check_all((r for _, r in numbered), on_each=bar.update)
        except BadRecord as err:
            # check_all counts the records it saw; report the file's own line number.
            seen, _, rest = str(err).partition(": ")
            raise BadRecord(f"line {numbered[int(seen.split()[1]) - 1][0]}: {rest}") from None
    for start in tqdm(range(0, len(matches), SAVE_BATCH), desc="store", unit="batch",
                      disable=len(matches) < 50):
        recorder.save_new(matches[start:start + SAVE_BATCH])
    click.echo(f"imported {len(matches)} match{'es' if len(matches) != 1 else ''}")
