"""Times out of range (issue 42: `0001-01-01T00:00:00+05:00` was stored; then `show` crashed,
`list` dropped the match and the API answered 500), at every door a time comes in: `tablelog
new` and `sheet --played-at`, POST /matches and /sheets, and a BG Stats file's play date
imported in a zone. The times: tests/test_times_boundary.py's refused and taken ones, then
times of any year in any offset (or none), and text that is no time at all.

Counted: a traceback or a 5xx; a refusal that is not one line; a refusal that changed the store;
a time taken whose match then does not read back (`show` and `list`, GET of the match and the
list), which is a write said stored that a user cannot have."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

from click.testing import CliRunner
from hypothesis import strategies as st

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.cli import main
from tablelog.store import open_recorder
from tests.conftest import stored_rows
from tests.hostile import TEXT
from tests.interop.helpers import BGSTATS
from tests.rerun.tally import Tally, each_drawn, release
from tests.test_times_boundary import ANY_TIME, OFFSETS, REFUSED, TAKEN

DOORS = ("new", "sheet", "POST /matches", "POST /sheets", "BG Stats import")
ZONES = ("Asia/Kolkata", "America/New_York", "Pacific/Kiritimati", "UTC")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
BODIES = {
    "POST /matches": ("/api/v1/matches", {}),
    "POST /sheets": ("/api/v1/sheets", {"sheet": {"winners": ["Ann"]}}),
}


def run(store: str, folder: Path, size: int) -> Tally:
    tally = Tally("times out of range").measures(
        "server_errors", "tracebacks", "untidy", "stored_but_refused", "said_stored_but_lost"
    )
    recorder = open_recorder(store)
    client = create_app(recorder, WritePolicy()).test_client()
    try:
        for text in [*REFUSED, *TAKEN]:
            for door in DOORS:
                judge(store, folder, client, door, text, tally)
        times = (
            st.tuples(ANY_TIME, OFFSETS).map(lambda t: t[0].replace(tzinfo=t[1]).isoformat())
            | ANY_TIME.map(datetime.isoformat)
            | TEXT
        )
        each_drawn(
            st.tuples(st.sampled_from(DOORS), times),
            size,
            lambda drawn: judge(store, folder, client, drawn[0], drawn[1], tally),
        )
    finally:
        recorder.close()
    return tally


def judge(store: str, folder: Path, client, door: str, text: str, tally: Tally) -> None:
    before = stored_rows(store)
    tally.tried += 1
    said = f"{door} at {text[:60]!r}"
    if door.startswith("POST"):
        _by_api(store, client, door, text, before, said, tally)
        return
    result = CliRunner().invoke(main, [*_command(folder, door, text), "--store", store])
    release(store)
    if not isinstance(result.exception, SystemExit | None):
        tally.add("tracebacks", f"{said}: {result.exception!r}")
    elif result.exit_code != 0:
        lines = result.stderr.splitlines()
        if result.exit_code != 2 or len(lines) != 1 or not lines[0].startswith("tablelog: "):
            tally.add("untidy", f"{said}: exit {result.exit_code} {result.stderr[:200]!r}")
        if stored_rows(store) != before:
            tally.add("stored_but_refused", f"{said}: refused, yet the store changed")
    else:
        _read_back_by_cli(store, said, UUID.findall(result.stdout), tally)


def _command(folder: Path, door: str, text: str) -> list[str]:
    if door == "new":
        return ["new", "topitop", "--players", "Ann,Ben", "--played-at", text]
    if door == "sheet":
        sheet = ["sheet", "topitop", "--players", "Ann,Ben", "--winner", "Ann"]
        return [*sheet, "--played-at", text]
    plays = folder / "plays.json"
    stamp = re.sub(r"T", " ", text)[:19]  # as BG Stats writes it: local, no zone
    plays.write_text(
        BGSTATS.read_text().replace("2024-03-01 19:30:00", stamp, 1), "utf-8", "surrogatepass"
    )
    zone = ZONES[len(text) % len(ZONES)]
    return ["import", "--from", "bgstats", str(plays), "--zone", zone]


def _read_back_by_cli(store: str, said: str, printed: list[str], tally: Tally) -> None:
    listing = CliRunner().invoke(main, ["list", "--json", "--store", store])
    release(store)
    if listing.exit_code != 0:
        tally.add("said_stored_but_lost", f"{said}: taken, then list failed: {listing.output}")
        return
    listed = {row["id"] for row in json.loads(listing.stdout)}
    for match_id in printed:
        shown = CliRunner().invoke(main, ["show", match_id, "--store", store])
        release(store)
        if match_id not in listed or shown.exit_code != 0:
            tally.add("said_stored_but_lost", f"{said}: taken, then unreadable: {shown.output}")


def _by_api(store, client, door, text, before, said, tally) -> None:
    path, extra = BODIES[door]
    body = {"game": "topitop", "players": ["Ann", "Ben"], "played_at": text, **extra}
    answer = client.post(path, json=body)
    if answer.status_code >= 500:
        tally.add("server_errors", f"{said}: {answer.status_code}")
    elif answer.status_code >= 400:
        message = (answer.get_json(silent=True) or {}).get("message", "\n")
        if "\n" in message:
            tally.add("untidy", f"{said}: {answer.get_data(as_text=True)[:200]!r}")
        if stored_rows(store) != before:
            tally.add("stored_but_refused", f"{said}: {answer.status_code}, yet stored")
        return
    match_id = answer.get_json()["id"]
    read = client.get(f"/api/v1/matches/{match_id}")
    listed = client.get("/api/v1/matches?limit=1000").get_data(as_text=True)
    if read.status_code != 200 or match_id not in listed:
        tally.add("said_stored_but_lost", f"{said}: taken, then GET answered {read.status_code}")
