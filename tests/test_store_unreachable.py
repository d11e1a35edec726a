"""A store that stops answering while it is open (its server went down) is one clear answer:
a JSON 503 from the API and one `tablelog:` line from the command line, never a 500 or a
traceback. Here the PostgreSQL database is dropped under an open recorder."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.cli import main
from tablelog.domain.errors import Damaged
from tablelog.store import UNREACHABLE, open_recorder
from tests.conftest import _pg_admin
from tests.test_recorder import OPENING

# A read or write waits one connect timeout (5 s) for a connection the server no longer gives,
# then answers (the library would have tried ten times over): as a user waits, so do these.
pytestmark = pytest.mark.slow


def drop(store: str) -> None:
    """The store's database gone, as a server that went down: every connection ends."""
    name = store.rsplit("/", 1)[1]
    with _pg_admin() as admin:
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def test_the_api_answers_503_when_the_store_stops_answering(postgres_store):
    recorder = open_recorder(postgres_store)
    client = create_app(recorder, WritePolicy()).test_client()
    started = client.post("/api/v1/matches", json={"game": "topitop", "players": ["Ann", "Ben"]})
    match_id = started.get_json()["id"]
    drop(postgres_store)
    seat, move = OPENING[0]
    for answer in (
        client.get(f"/api/v1/matches/{match_id}"),
        client.post(f"/api/v1/matches/{match_id}/moves", json={"seat": seat, "move": move}),
    ):
        assert answer.status_code == 503, answer.get_data(as_text=True)
        body = answer.get_json()
        assert body["error"] == "store-unavailable"
        assert "stopped answering" in body["message"] and "\n" not in body["message"]


def test_the_command_line_says_one_line_when_the_store_stops_answering(postgres_store, monkeypatch):
    """The CLI opens its store per command, so the database goes between opening and use."""
    import tablelog.store as store_module

    opened = store_module.open_recorder

    def open_then_lose(location=None):
        recorder = opened(location)
        drop(postgres_store)
        return recorder

    match_id = str(open_recorder(postgres_store).start("topitop", ["Ann", "Ben"]))
    monkeypatch.setattr(store_module, "open_recorder", open_then_lose)
    for module in ("tablelog.cli.matches", "tablelog.cli.stats"):
        monkeypatch.setattr(f"{module}.open_recorder", open_then_lose)
    result = CliRunner().invoke(
        main, ["show", match_id, "--store", postgres_store], prog_name="tablelog"
    )
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tablelog: the store stopped answering")


def test_a_match_read_while_the_store_is_down_is_not_called_damaged(postgres_store):
    """The server's silence is no damaged row: the read fails as the store's, and nobody is
    told to quarantine the match (the read side would take it out of every list)."""
    recorder = open_recorder(postgres_store)
    told: list[object] = []
    recorder.watch_damage(told.append)
    match_id = recorder.start("topitop", ["Ann", "Ben"])
    drop(postgres_store)
    try:
        for read in (lambda: recorder.get(match_id), lambda: recorder.stored_events(match_id)):
            with pytest.raises(UNREACHABLE) as raised:
                read()
            assert not isinstance(raised.value, Damaged)
    finally:
        recorder.close()
    assert told == []
