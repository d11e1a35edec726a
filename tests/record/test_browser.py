"""Logging whole games on the Record page in headless Chromium, by tapping, on a phone-sized
screen; the stored events must equal those of the same game entered at the command line. And
a server bound to a non-loopback address refuses a write without its token, storing nothing.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import json

import pytest

from tablelog.access import WritePolicy
from tablelog.domain.matches.entering import os_user
from tablelog.store import open_recorder
from tests.cli_runs import invoked
from tests.conftest import stored_rows
from tests.packaged import data_path

from .conftest import enter_move, held, shot, start_match

pytestmark = pytest.mark.browser

EXAMPLES = data_path("examples")
# A Topas solitaire column: the start card R2-B1 and seven placements (77 points, see below).
TOPAS_COLUMN = [
    {"card": "R3-B2", "at": [0, -1], "dir": "E"},
    {"card": "R2-B3", "at": [0, 1], "dir": "E"},
    {"card": "Y3-B1", "at": [0, 2], "dir": "E"},
    {"card": "R3-Y2", "at": [-1, 1], "dir": "S"},
    {"card": "R2-Y1", "at": [-2, 1], "dir": "S"},
    {"card": "R3-G1", "at": [-1, 0], "dir": "N"},
    {"card": "R2-G3", "at": [-2, 0], "dir": "N"},
]


def cli(store: str, *args: str) -> str:
    """A command as typed at the command line, run in this process (tests/cli_runs.py)."""
    done = invoked(*args, env={"TABLELOG_STORE": store})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def cli_game(store: str, new: list[str], steps: list[list[str]]) -> str:
    """Log the same game at the command line: `new` starts it; each step's "ID" is the match
    id. Returns the id."""
    match_id = cli(store, "new", *new)
    for step in steps:
        cli(store, *[match_id if arg == "ID" else arg for arg in step])
    return match_id


def logged(recorder, match_id: str) -> dict:
    """A match's record without what differs between two loggings (ids, times, and how the
    entries came in: `entered_by` names the same person, via the dashboard or the command
    line)."""
    record = recorder.export(match_id)
    for key in ("id", "started_at", "hash"):  # the hashes are taken over ids and times
        record.pop(key)
    assert record.pop("entered_by")["name"] == os_user()
    for entry in record["events"]:
        entry.pop("at")
        entry.pop("hash")
        assert entry.pop("entered_by")["name"] == os_user()
    return record


def example_moves(game: str) -> tuple[dict, list[dict]]:
    record = json.loads((EXAMPLES / f"{game}.json").read_text())
    return record, [e for e in record["events"] if e["type"] == "move"]


def test_a_topitop_game_to_a_win_by_tapping_equals_the_command_line(serve, phone, tmp_path):
    served = serve()
    _record, moves = example_moves("topitop")
    cli_store = str(tmp_path / "cli.sqlite")
    cli_id = cli_game(
        cli_store,
        ["topitop", "--players", "Ann,Ben"],
        [
            ["move", "ID", "--seat", "Ann", '{"place": "small", "to": "b2"}'],
            ["undo", "ID", "--by", "Ben", "--reason", "wrong pile entered"],
            *[["move", "ID", "--seat", e["seat"], json.dumps(e["move"])] for e in moves],
            ["claim", "ID", "--by", "Ann", "--scores", '{"Ann": 2, "Ben": 0}'],
            ["end", "ID"],
        ],
    )
    start_match(phone, served.url, "topitop", "Topitop", "Ann, Ben", [["small", 4], ["large", 4]])
    match_id = phone.url.split("match=")[1]
    shot(phone, "topitop-start")

    # A slip: Ann taps a small pile instead of the large one, and takes it back.
    enter_move(phone, served.recorder, match_id, {"place": "small", "to": "b2"})
    phone.get_by_text("Undo the last move", exact=True).first.click()
    phone.get_by_label("Ben").check()
    phone.fill("#record-undo-reason", "wrong pile entered")
    phone.get_by_role("button", name="Undo the last move").click()
    phone.wait_for_selector("#record-message:has-text('withdrew')")
    for entry in moves:
        enter_move(phone, served.recorder, match_id, entry["move"])
    phone.wait_for_selector("text=The game is over")
    shot(phone, "topitop-won")
    phone.get_by_role("button", name="Claim this result").click()
    phone.wait_for_selector("#record-message:has-text('claimed: Ann 2, Ben 0')")
    phone.get_by_role("button", name="End the match").click()
    phone.wait_for_selector("#record-message:has-text('the match has ended: Ann wins')")
    assert phone.get_attribute("#record-replay", "href") == f"/match?id={match_id}"
    assert not phone.errors

    page_logged = logged(served.recorder, match_id)
    assert page_logged == logged(open_recorder(cli_store), cli_id)
    assert page_logged["events"][-1]["outcome"]["winners"] == [0]


def test_a_topas_solitaire_column_by_tapping_equals_the_command_line(serve, phone, tmp_path):
    served = serve()
    cli_store, setup = str(tmp_path / "cli.sqlite"), tmp_path / "setup.json"
    setup.write_text(json.dumps({"start": "R2-B1"}))
    cli_id = cli_game(
        cli_store,
        ["topas", "--players", "Sol", "--setup", str(setup)],
        [["move", "ID", "--seat", "Sol", json.dumps(m)] for m in TOPAS_COLUMN],
    )
    start_match(phone, served.url, "topas", "Topas", "Sol", [["expert", False], ["start", "R2-B1"]])
    match_id = phone.url.split("match=")[1]
    for move in TOPAS_COLUMN:
        enter_move(phone, served.recorder, match_id, move)
    # Seven cards close the column: the next start card is what is asked for now.
    phone.wait_for_selector("text=Which card starts the next column?")
    # The column by hand (lines of 2+ halves through each new half): R3-B2 red 3+2, blue 2+1
    # = 8; R2-B3 red 3+2+2, blue 2+1+3 = 13; Y3-B1 blue 2+1+3+1 = 7; R3-Y2 red 3+2, yellow
    # 2+3 = 10; R2-Y1 red 2+3+2, yellow 1+2+3 = 13; R3-G1 red 3+2 across, 3+3 down = 11;
    # R2-G3 red 2+3+2 across, 2+2 down, green 3+1 = 15. The column: 77.
    score = phone.inner_text("#record-score")
    assert "77" in score
    shot(phone, "topas-column")
    assert not phone.errors

    assert logged(served.recorder, match_id) == logged(open_recorder(cli_store), cli_id)


def test_a_topiary_game_by_tapping_equals_the_command_line(serve, phone, tmp_path):
    served = serve()
    record, moves = example_moves("topiary")
    cli_store, setup = str(tmp_path / "cli.sqlite"), tmp_path / "setup.json"
    setup.write_text(json.dumps(record["setup"]))
    cli_id = cli_game(
        cli_store,
        ["topiary", "--players", "Ann,Ben", "--setup", str(setup)],
        [
            *[["move", "ID", "--seat", e["seat"], json.dumps(e["move"])] for e in moves],
            ["claim", "ID", "--by", "Ann", "--scores", '{"Ann": 65, "Ben": 65}'],
            ["end", "ID"],
        ],
    )
    start_match(
        phone,
        served.url,
        "topiary",
        "Topiary",
        "Ann, Ben",
        [["last_player_chooses", False], ["removed", "Elephant"], ["c3", "Pom Pom 4"]],
    )
    match_id = phone.url.split("match=")[1]
    for number, entry in enumerate(moves):
        enter_move(phone, served.recorder, match_id, entry["move"])
        if number == 5:  # Ben's take names the tile the table saw: Whale 4
            shot(phone, "topiary-midgame")
    phone.wait_for_selector("text=The game is over")
    phone.get_by_role("button", name="Claim this result").click()
    phone.wait_for_selector("#record-message:has-text('claimed: Ann 65, Ben 65')")
    phone.get_by_role("button", name="End the match").click()
    phone.wait_for_selector("#record-message:has-text('Ann wins')")
    shot(phone, "topiary-ended")
    assert not phone.errors

    assert logged(served.recorder, match_id) == logged(open_recorder(cli_store), cli_id)


def use_token(page, token: str) -> None:
    """Type the token and tap "Use token", then wait until the session keeps it."""
    page.fill("#record-token-input", token)
    page.get_by_role("button", name="Use token").click()
    page.wait_for_function(
        "([token]) => JSON.parse(sessionStorage.getItem('record-token') || 'null') === token",
        arg=[token],
    )


def test_off_loopback_a_write_without_the_token_is_refused_and_stores_nothing(
    serve, phone, browser
):
    served = serve(WritePolicy.for_bind("0.0.0.0", "s3cret-token"))
    slow = held(served, "record-token.data", "(no other call held)", 2.0, 0)
    phone.goto(f"{served.url}/record")
    phone.wait_for_selector("#record-token-input")  # the page asks for the token
    phone.fill("#record-players", "Ann, Ben")
    phone.locator("#record-start").get_by_role("button", name="Topitop", exact=True).click()
    for _question in ("small", "large"):
        phone.locator("#record-setup").get_by_role(
            "button", name="4 (standard)", exact=True
        ).click()
        phone.wait_for_timeout(300)
    phone.wait_for_selector("text=The setup is complete")
    phone.get_by_role("button", name="Start the match").click()
    phone.wait_for_selector("#record-message:has-text('write token')")
    assert "nothing was recorded" in phone.inner_text("#record-message")
    assert stored_rows(served.store) == []
    shot(phone, "token-refused")

    use_token(phone, "not-the-token")
    phone.get_by_role("button", name="Start the match").click()
    phone.wait_for_selector("#record-message:has-text('the write token is wrong')")
    assert stored_rows(served.store) == []

    # With the token, the same tap starts the match; reads never needed it. Start is tapped at
    # once after "Use token", before the session keeps the new token: the write goes with the
    # token in the box (it went with the wrong one kept before, and was refused).
    slow.set()  # "Use token"'s answer held: the session surely keeps the old token meanwhile
    phone.fill("#record-token-input", "s3cret-token")
    phone.get_by_role("button", name="Use token").click()
    phone.get_by_role("button", name="Start the match").click()
    phone.wait_for_selector("#record-summary:has-text('move 0')")
    assert len(stored_rows(served.store)) == 1
    assert not phone.errors

    # A second device (its own session, no token) reads the match but cannot move in it.
    other = browser.new_page(viewport={"width": 390, "height": 844})
    other.goto(phone.url)
    other.wait_for_selector("#record-summary:has-text('move 0')")
    other.locator("#record-picker").get_by_role(
        "button", name="Ann's bucket from the supply", exact=True
    ).click()
    other.locator("#record-picker").get_by_role("button", name="b2", exact=True).click()
    other.get_by_role("button", name="Record this move").click()
    other.wait_for_selector("#record-message:has-text('write token')")
    assert len(stored_rows(served.store)) == 1
    other.close()
