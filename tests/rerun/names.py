"""Hostile player names (found in this re-run, not in issue 42's list): a name is taken once and
then quoted by every refusal about its turn, so a refusal can only be one short line if the name
was refused or is quoted short. Names of 10,000 characters, with a line break, a carriage return,
an escape sequence, a right-to-left override, NUL, and tests/hostile.py's text; each given to
POST /matches as the first player, and when taken, a move out of turn tried by the API and by
`tablelog move`. Counted: a 5xx or traceback; a refusal that is not one line of at most 400
characters (tests/test_cli_corpus.py's LONGEST); a refusal that stored."""

from __future__ import annotations

from click.testing import CliRunner

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.cli import main
from tablelog.store import open_recorder
from tests.conftest import stored_rows
from tests.hostile import TEXT
from tests.rerun.tally import Tally, each_drawn, release
from tests.test_cli_corpus import LONGEST

NAMES = ["A" * 10_000, "A\nB", "A\rB", "\x1b[31mRed", "\u202eAnn", "A\x00B", "A\u2028B", "A\tB"]
OUT_OF_TURN = {"seat": "Ben", "move": {"place": "large", "to": "a3"}}


def run(store: str, size: int) -> Tally:
    tally = Tally("player names").measures(
        "server_errors", "tracebacks", "untidy", "stored_but_refused"
    )
    recorder = open_recorder(store)
    client = create_app(recorder, WritePolicy()).test_client()
    try:
        for name in NAMES:
            judge(store, client, name, tally)
        each_drawn(TEXT, size, lambda name: judge(store, client, name, tally))
    finally:
        recorder.close()
    return tally


def judge(store: str, client, name: str, tally: Tally) -> None:
    said = f"a player named {name[:40]!r}"
    body = {"game": "topitop", "players": [name, "Ben"]}
    started = client.post("/api/v1/matches", json=body)
    tally.tried += 1
    if not _api_answer(started, said, tally) or started.status_code >= 300:
        return
    match_id = started.get_json()["id"]
    before = stored_rows(store)
    moved = client.post(f"/api/v1/matches/{match_id}/moves", json=OUT_OF_TURN)
    tally.tried += 1
    _api_answer(moved, f"{said}, a move out of turn", tally)
    result = CliRunner().invoke(
        main,
        ["move", match_id, "--seat", "Ben", '{"place": "large", "to": "a3"}', "--store", store],
    )
    release(store)
    tally.tried += 1
    lines = result.stderr.splitlines()
    if not isinstance(result.exception, SystemExit | None):
        tally.add("tracebacks", f"{said}, tablelog move: {result.exception!r}")
    elif result.exit_code != 2 or len(lines) != 1 or len(lines[0]) > LONGEST:
        tally.add(
            "untidy", f"{said}, tablelog move: {result.stderr[:120]!r} ({len(result.stderr)})"
        )
    if stored_rows(store) != before:
        tally.add("stored_but_refused", f"{said}: a move out of turn was stored")


def _api_answer(answer, said: str, tally: Tally) -> bool:
    """Whether the answer is sound (counting what is not)."""
    if answer.status_code >= 500:
        tally.add("server_errors", f"{said}: {answer.status_code}")
        return False
    if answer.status_code < 400:
        return True
    message = (answer.get_json(silent=True) or {}).get("message", "\n")
    if len(message.splitlines()) != 1 or len(message) > LONGEST:
        tally.add("untidy", f"{said}: {answer.status_code} {message[:120]!r} ({len(message)})")
    return True
