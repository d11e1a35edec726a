"""An SQLite store file damaged inside (a disk fault, pages overwritten; its header intact, so it
opens) is one clear answer when a command or a request first reads a damaged page: one
`tablelog:` line and exit 2 from the command line, a JSON 503 from the API, never a traceback or
a 500; and the file is left as it was. Found by the hostile re-run (tests/rerun/): `list`, `new`,
`move` and `audit` ended in `DatabaseError: database disk image is malformed`. SQLite only: a
PostgreSQL store has no file a user can damage (its server dropping away is
tests/test_store_unreachable.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.cli import main
from tablelog.store import open_recorder
from tests.test_recorder import OPENING, play

MOVE = '{"place": "large", "to": "a3"}'


@pytest.fixture
def damaged(tmp_path) -> tuple[str, str]:
    """(the store, a match in it): every page but the first (the schema) overwritten here and
    there, as a failing disk leaves a file."""
    store = str(tmp_path / "store.sqlite")
    recorder = open_recorder(store)
    match_id = str(play(recorder, OPENING))
    recorder.close()
    data = bytearray(Path(store).read_bytes())
    for index in range(4096, len(data), 97):
        data[index] = 0xAB
    Path(store).write_bytes(bytes(data))
    return store, match_id


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["show", "M"],
        ["new", "topitop", "--players", "Ann,Ben"],
        ["move", "M", "--seat", "Ann", MOVE],
        ["audit", "--all"],
    ],
)
def test_a_command_on_a_damaged_store_is_one_line(damaged, args):
    store, match_id = damaged
    before = Path(store).read_bytes()
    spelled = [match_id if a == "M" else a for a in args]
    result = CliRunner().invoke(main, [*spelled, "--store", store], prog_name="tablelog")
    assert result.exit_code == 2, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit)
    assert result.stderr.splitlines() == [
        "tablelog: the store file is damaged (database disk image is malformed); "
        "restore it from a copy"
    ]
    assert Path(store).read_bytes() == before


def test_the_api_on_a_damaged_store_answers_503(damaged):
    store, match_id = damaged
    before = Path(store).read_bytes()
    recorder = open_recorder(store)
    client = create_app(recorder, WritePolicy()).test_client()
    for answer in (
        client.get(f"/api/v1/matches/{match_id}"),
        client.post(
            f"/api/v1/matches/{match_id}/moves", json={"seat": "Ann", "move": json.loads(MOVE)}
        ),
    ):
        assert answer.status_code == 503, answer.get_data(as_text=True)[:300]
        assert answer.get_json() == {
            "error": "store-damaged",
            "message": "the store file is damaged (database disk image is malformed); "
            "restore it from a copy",
        }
    recorder.close()
    assert Path(store).read_bytes() == before
