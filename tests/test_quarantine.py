"""Quarantine: damaged stored rows, on SQLite and PostgreSQL, harm only their own match.

Each test stores three clean matches and damages three more the way a failing disk or a forger
would (straight in the database): a move cut short, a start with a field renamed, a row
inserted at version 0, a start cut short. Every command, the API and the dashboard's data must
go on serving the clean matches, name the damaged ones, and never crash.
"""

from __future__ import annotations

import json
import sqlite3
from uuid import UUID

import pytest

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.domain.integrity.audit import audit_match
from tablelog.store import is_postgres, open_recorder
from tests.audit.helpers import played_with_everything
from tests.test_cli import run


def execute(location: str, statement: str, params: list) -> None:
    """Run one statement on the store's events table ({events}), with the id spelled as the
    store spells it ({id} is the first parameter)."""
    if is_postgres(location):
        import psycopg

        with psycopg.connect(location) as db:
            db.execute(statement.format(events="tablelog_events").replace("?", "%s"), params)
        return
    params = [p.hex if isinstance(p, UUID) else p for p in params]
    with sqlite3.connect(location) as db:
        db.execute(statement.format(events="stored_events"), params)


def cut_short(location: str, match_id: UUID, position: int, keep: int = 40) -> None:
    """The row's stored bytes truncated (a torn write)."""
    if is_postgres(location):
        execute(
            location,
            "UPDATE {events} SET state = substring(state from 1 for ?) WHERE "
            "originator_id = ? AND originator_version = ?",
            [keep, match_id, position],
        )
    else:
        execute(
            location,
            "UPDATE {events} SET state = substr(state, 1, ?) WHERE "
            "originator_id = ? AND originator_version = ?",
            [keep, match_id, position],
        )


def replace_in_row(location: str, match_id: UUID, position: int, old: str, new: str) -> None:
    """Text in a stored row replaced (the row still decodes when both are JSON alike)."""
    if is_postgres(location):
        execute(
            location,
            "UPDATE {events} SET state = convert_to(replace(convert_from(state, 'UTF8'), ?, ?), "
            "'UTF8') WHERE originator_id = ? AND originator_version = ?",
            [old, new, match_id, position],
        )
    else:
        execute(
            location,
            "UPDATE {events} SET state = replace(state, ?, ?) WHERE originator_id = ? AND "
            "originator_version = ?",
            [old, new, match_id, position],
        )


def rename_in_start(location: str, match_id: UUID) -> None:
    """The start row still decodes, but its `seats` field is renamed."""
    replace_in_row(location, match_id, 1, '"seats"', '"sits"')


def insert_at_zero(location: str, match_id: UUID, copy_of: int = 3) -> None:
    execute(
        location,
        "INSERT INTO {events} (originator_id, originator_version, topic, state) "
        "SELECT originator_id, 0, topic, state FROM {events} WHERE originator_id = ? AND "
        "originator_version = ?",
        [match_id, copy_of],
    )


@pytest.fixture
def damaged_store(any_store):
    """(store, clean ids, {damage: id}) with every damage done after the matches were stored."""
    recorder = open_recorder(any_store)
    ids = [played_with_everything(recorder) for _ in range(6)]
    clean, (truncated, renamed, inserted) = [ids[0], ids[2], ids[4]], ids[1::2]
    truncated_start = recorder.start("topitop", ["Cat", "Dan"])
    recorder.close()
    cut_short(any_store, truncated, 5)
    rename_in_start(any_store, renamed)
    insert_at_zero(any_store, inserted)
    cut_short(any_store, truncated_start, 1, keep=30)
    return (
        any_store,
        clean,
        {
            "truncated": truncated,
            "renamed": renamed,
            "inserted": inserted,
            "truncated start": truncated_start,
        },
    )


def test_every_command_serves_the_clean_matches_and_names_the_damaged(damaged_store):
    store, clean, damaged = damaged_store
    for args in (["project"], ["list"], ["stats", "topitop"], ["export", "--all"]):
        result = run(store, *args)
        assert result.returncode == 0, (args, result.stderr)
        assert "Traceback" not in result.stderr
        for match_id in damaged.values():
            assert f"left out match {match_id}" in result.stderr, (args, result.stderr)
    listed = json.loads(run(store, "list", "--json").stdout)
    assert [row["id"] for row in listed] == [str(m) for m in clean]
    exported = run(store, "export", "--all").stdout.splitlines()
    assert [json.loads(line)["id"] for line in exported] == [str(m) for m in clean]
    figures = json.loads(run(store, "stats", "topitop", "--json").stdout)["topitop"]
    assert figures["by_status"].get("ended") == 3


@pytest.mark.parametrize("damage", ["truncated", "renamed", "inserted", "truncated start"])
def test_show_and_score_of_a_damaged_match_give_one_line(damaged_store, damage):
    store, clean, damaged = damaged_store
    for command in ("show", "score", "export"):
        result = run(store, command, str(damaged[damage])[:8])
        assert result.returncode == 2, result.stderr
        (line,) = result.stderr.splitlines()
        assert line.startswith(f"tablelog: match {damaged[damage]} is damaged: ")
    assert run(store, "show", str(clean[0])[:8]).returncode == 0


def test_the_audit_names_each_damage_precisely(damaged_store):
    store, _, damaged = damaged_store
    recorder = open_recorder(store)

    def findings(match_id):
        return [(f["event"], f["kind"]) for f in audit_match(recorder, match_id)["findings"]]

    assert findings(damaged["truncated"])[0] == (5, "undecodable")
    assert (1, "replay") in findings(damaged["renamed"])
    assert findings(damaged["truncated start"])[0] == (1, "undecodable")
    # A row at version 0 is an insertion before the start; event 1 and the rest are intact.
    report = audit_match(recorder, damaged["inserted"])
    assert findings(damaged["inserted"]) == [(0, "inserted")]
    assert "inserted at position 0, before the match's start" in report["findings"][0]["message"]
    assert report["events"] == 22 and report["status"] == "ended"


def test_the_api_serves_the_clean_matches_and_names_the_damaged(damaged_store):
    store, clean, damaged = damaged_store
    client = create_app(open_recorder(store), WritePolicy()).test_client()
    listed = client.get("/api/v1/matches").get_json()
    assert [row["id"] for row in listed["matches"]] == [str(m) for m in clean]
    for match_id in clean:
        assert client.get(f"/api/v1/matches/{match_id}").status_code == 200
        assert client.get(f"/api/v1/matches/{match_id}/events").status_code == 200
    for match_id in damaged.values():
        for path in ("", "/score", "/events", "/legal-moves"):
            answer = client.get(f"/api/v1/matches/{match_id}{path}")
            assert answer.status_code == 422, (path, answer.get_json())
            assert answer.get_json()["error"] == "damaged"
        assert client.get(f"/api/v1/matches/{match_id}/audit").get_json()["clean"] is False
    assert client.get("/api/v1/stats/topitop").get_json()["by_status"]["ended"] == 3


def test_the_dashboard_starts_and_names_the_damaged_matches_in_a_banner(damaged_store):
    from tablelog.dashboard.app import create_app as dashboard

    store, clean, damaged = damaged_store
    app = dashboard(store, refresh_every=None)
    source = app.server.extensions["tablelog"]
    assert {row["match_id"] for row in source.damaged()} == {str(m) for m in damaged.values()}
    layout = app.server.test_client().get("/_dash-layout").get_data(as_text=True)
    assert "damaged-banner" in layout and "4 damaged matches left out" in layout
    for match_id in damaged.values():
        assert str(match_id)[:8] in layout
    assert source.match(clean[0]).status == "ended"


def test_a_damage_found_later_quarantines_only_that_match(any_store):
    """The tables were up to date before the damage: the next events of the damaged match are
    skipped, and the projection goes on with the others."""
    recorder = open_recorder(any_store)
    first, second = (recorder.start("topitop", ["Ann", "Ben"]) for _ in range(2))
    for match_id in (first, second):
        recorder.record(match_id, "Ann", {"place": "large", "to": "b2"})
    assert run(any_store, "project").returncode == 0
    recorder.record(first, "Ben", {"place": "small", "to": "a1"})  # not projected yet
    cut_short(any_store, first, 2)  # a row the tables already took in
    insert_at_zero(any_store, second, copy_of=2)  # a new row: the next catch-up reads it
    result = run(any_store, "list", "--json")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert f"left out match {first}" in result.stderr
    assert f"left out match {second}" in result.stderr
    assert json.loads(result.stdout) == []


def test_the_postgresql_runner_quarantines_a_damaged_row_and_follows_the_rest(postgres_store):
    from tablelog.projections.postgres import follow
    from tablelog.projections.runner import TablesProjection

    recorder = open_recorder(postgres_store)
    first, second = (played_with_everything(recorder) for _ in range(2))
    cut_short(postgres_store, first, 5)
    insert_at_zero(postgres_store, second)
    with follow(recorder) as runner:
        runner.wait(recorder.recorder.max_notification_id(), timeout=120)
        later = played_with_everything(recorder)  # the runner goes on after the damage
        runner.wait(recorder.recorder.max_notification_id(), timeout=120)
    projection = TablesProjection(recorder)
    assert {row["match_id"] for row in projection.damaged()} == {str(first), str(second)}
    statuses = {row["match_id"]: row["status"] for row in projection.view.select("matches")}
    assert statuses[str(later)] == "ended" and statuses[str(second)] == "damaged"


def test_serve_starts_on_a_damaged_store_and_warns(damaged_store):
    """`tablelog serve` itself (a real process): it starts, and the dashboard's layout carries
    the banner; the API lists the clean matches."""
    import os
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    store, clean, damaged = damaged_store
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tablelog",
            "serve",
            "--store",
            store,
            "--port",
            str(port),
            "--refresh",
            "0",
        ],
        env={**os.environ},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(120):
            try:
                layout = urllib.request.urlopen(f"{url}/_dash-layout", timeout=5).read().decode()
                break
            except OSError:
                assert server.poll() is None, server.stderr and server.stderr.read()
                time.sleep(0.5)
        else:
            pytest.fail("serve did not answer")
        assert "damaged-banner" in layout and "4 damaged matches left out" in layout
        listed = json.loads(urllib.request.urlopen(f"{url}/api/v1/matches", timeout=5).read())
        assert [row["id"] for row in listed["matches"]] == [str(m) for m in clean]
    finally:
        server.terminate()
        _, errors = server.communicate(timeout=30)
    assert "Traceback" not in errors
    for match_id in damaged.values():
        assert f"left out match {match_id}" in errors


def test_a_match_read_from_its_snapshot_is_quarantined_alike(any_recorder, any_store, monkeypatch):
    from tablelog.domain.errors import Damaged
    from tablelog.domain.recording.recorder import Recorder
    from tests.long_matches import shuffled_moves

    monkeypatch.setattr(Recorder, "snapshot_every", 5)
    match_id = any_recorder.start("topitop", ["Ann", "Ben"])
    for seat, move in shuffled_moves(12):
        any_recorder.record(match_id, seat, move)
    insert_at_zero(any_store, match_id)
    with pytest.raises(Damaged, match="inserted at position 0"):
        open_recorder(any_store).get(match_id)


# ---- damage found after the tables took the match in ------------------------------------------
# No event comes of such damage, so no catch-up sees it: the first reader to meet the match
# quarantines it in the tables in the same step, and every list and statistic drops it at once.


@pytest.fixture
def damaged_after_projection(any_store):
    """(store, clean id, damaged id): both matches ended and in the tables, then an event of
    the second cut short in the store."""
    from tablelog.projections.runner import TablesProjection

    recorder = open_recorder(any_store)
    clean, victim = played_with_everything(recorder), played_with_everything(recorder)
    TablesProjection(recorder).catch_up()
    recorder.close()
    cut_short(any_store, victim, 5)
    return any_store, clean, victim


def test_show_finds_the_damage_and_list_stats_and_the_api_drop_the_match_at_once(
    damaged_after_projection,
):
    store, clean, victim = damaged_after_projection
    shown = run(store, "show", str(victim)[:8])
    assert shown.returncode == 2
    (line,) = shown.stderr.splitlines()
    assert line.startswith(f"tablelog: match {victim} is damaged: step 4 no longer decodes")
    listed = run(store, "list", "--json")
    assert [row["id"] for row in json.loads(listed.stdout)] == [str(clean)]
    assert f"tablelog: left out match {victim}, damaged: step 4 no longer decodes" in (
        listed.stderr
    )
    stats = run(store, "stats", "topitop", "--json")
    figures = json.loads(stats.stdout)["topitop"]
    assert figures["matches"] == 1 and figures["by_status"] == {"ended": 1, "damaged": 1}
    assert f"left out match {victim}" in stats.stderr
    answer = create_app(open_recorder(store), WritePolicy()).test_client().get("/api/v1/matches")
    body = answer.get_json()
    assert body["count"] == 1 and [row["id"] for row in body["matches"]] == [str(clean)]
    assert [row["id"] for row in body["damaged"]] == [str(victim)]


def _read(recorder, match_id):
    recorder.get(match_id)


def _audit(recorder, match_id):
    assert audit_match(recorder, match_id)["clean"] is False


def _api(recorder, match_id):
    client = create_app(recorder, WritePolicy()).test_client()
    assert client.get(f"/api/v1/matches/{match_id}/score").status_code == 422


def _dashboard(recorder, match_id):
    from tablelog.dashboard.data import Source

    Source(recorder).events(match_id)  # the Match page's event log


FINDERS = {
    "show or score": _read,
    "export": lambda recorder, match_id: recorder.export(match_id),
    "audit": _audit,
    "the API": _api,
    "the Match page": _dashboard,
}


@pytest.mark.parametrize("finder", FINDERS)
def test_whoever_finds_the_damage_first_quarantines_the_match(damaged_after_projection, finder):
    from tablelog.domain.errors import Damaged
    from tablelog.projections.queries import Queries

    store, clean, victim = damaged_after_projection
    reader = open_recorder(store)
    Queries(reader)  # the read side watches its recorder (every front end has one)
    try:
        FINDERS[finder](reader, victim)
    except Damaged:
        pass
    queries = Queries(open_recorder(store))  # another process, later
    assert [row["id"] for row in queries.matches()] == [str(clean)]
    assert [(row["match_id"], row["event"]) for row in queries.damaged()] == [(str(victim), 5)]
    assert queries.report("topitop")["topitop"]["matches"] == 1


def test_the_dashboard_drops_a_match_its_own_page_found_damaged(damaged_after_projection):
    from tablelog.dashboard.app import create_app as dashboard
    from tablelog.domain.errors import Damaged

    store, clean, victim = damaged_after_projection
    app = dashboard(store, refresh_every=None)
    source = app.server.extensions["tablelog"]
    client = app.server.test_client()
    assert "damaged match" not in client.get("/_dash-layout").get_data(as_text=True)
    before = source.version()
    with pytest.raises(Damaged):
        source.match(victim)  # the Record and Match pages read it so
    assert source.version() != before  # every page works its figures out again
    layout = client.get("/_dash-layout").get_data(as_text=True)
    assert "1 damaged match left out" in layout and str(victim)[:8] in layout
    statuses = source.table("matches", ["match_id", "status"])
    assert dict(zip(statuses.match_id, statuses.status)) == {
        str(clean): "ended",
        str(victim): "damaged",
    }


def test_an_audit_of_a_start_that_lost_a_field_quarantines_it(any_store):
    """A start that still decodes but no longer replays: the audit's finding is the replay's,
    and the recorder, asked to read the match, finds it damaged."""
    from tablelog.projections.queries import Queries

    recorder = open_recorder(any_store)
    match_id = played_with_everything(recorder)
    assert [row["id"] for row in Queries(recorder).matches()] == [str(match_id)]
    rename_in_start(any_store, match_id)
    audit_match(recorder, match_id)
    assert Queries(open_recorder(any_store)).matches() == []


def test_an_audit_quarantines_no_match_that_still_reads(any_store):
    """A claim's score changed in the store breaks the hash chain (the audit fails it) but the
    match still reads: it stays in the list, as `show` still shows it."""
    from tablelog.projections.queries import Queries

    recorder = open_recorder(any_store)
    match_id = played_with_everything(recorder)
    (claim,) = [
        event.originator_version
        for event in recorder.stored_events(match_id)
        if type(event).__name__ == "ResultClaimed"
    ]
    assert [row["id"] for row in Queries(recorder).matches()] == [str(match_id)]  # watching
    replace_in_row(any_store, match_id, claim, '"Ann":2', '"Ann":3')
    report = audit_match(recorder, match_id)
    assert ("chain", claim) in [(f["kind"], f["event"]) for f in report["findings"]]
    assert open_recorder(any_store).get(match_id).status == "ended"
    queries = Queries(open_recorder(any_store))
    assert [row["id"] for row in queries.matches()] == [str(match_id)]
    assert queries.damaged() == []
