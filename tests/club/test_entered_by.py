"""`entered_by` on every new event, on SQLite and PostgreSQL: set at the command line (the OS
user or --as), shown in `show --log`, the audit and exports, kept by an import with its hash,
and covered by the hash chain: changed in the store, the audit reports it."""

from __future__ import annotations

import json

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.cli import main
from tablelog.domain.integrity.audit import audit_match
from tablelog.domain.matches.entering import entering_as, os_user, person
from tablelog.domain.matches.match import event_hash
from tablelog.domain.matches.records import from_record
from tablelog.store import open_recorder


def run(store: str, *args: str):
    return CliRunner().invoke(main, [*args, "--store", store])


def cli_match(store: str) -> str:
    started = run(store, "new", "topitop", "--players", "Ann,Ben", "--as", "Rita")
    assert started.exit_code == 0, started.output + started.stderr
    return started.output.strip()


def test_the_command_line_enters_as_the_os_user_or_as_given(any_store):
    match_id = cli_match(any_store)
    assert (
        run(any_store, "dispute", match_id, "--by", "Ben", "--about", "who starts").exit_code == 0
    )
    recorder = open_recorder(any_store)
    try:
        started, disputed = recorder.stored_events(match_id)
    finally:
        recorder.close()
    assert started.entered_by == {"id": None, "name": "Rita", "via": "command line"}
    assert disputed.entered_by["name"] == os_user()
    log = run(any_store, "show", match_id, "--log")
    assert "(entered by Rita)" in log.output and f"(entered by {os_user()})" in log.output


def test_an_event_without_anyone_entering_hashes_as_it_always_did(any_recorder):
    match_id = any_recorder.start("topitop", ["Ann", "Ben"])
    (started,) = any_recorder.stored_events(match_id)
    assert "entered_by" not in vars(started) and started.entered_by is None
    assert "entered_by" not in any_recorder.export(match_id)
    log = audit_match(any_recorder, match_id)
    assert log["clean"]


def test_export_and_import_keep_who_entered_each_event_and_its_hash(any_recorder, tmp_path):
    with entering_as(person("Rita", "r1", "api")):
        match_id = any_recorder.start("topitop", ["Ann", "Ben"])
        any_recorder.dispute(match_id, "Ben", "who starts")
    with entering_as(person("Uma", "u1", "api")):
        any_recorder.resolve(match_id, "Uma", "Ann starts")
    record = any_recorder.export(match_id)
    assert record["entered_by"]["name"] == "Rita"
    assert [e["entered_by"]["name"] for e in record["events"]] == ["Rita", "Uma"]
    with entering_as(person("Someone else", None, "command line")):
        rebuilt = from_record(json.loads(json.dumps(record)))
    assert [event_hash(e) for e in rebuilt.pending_events][1:] == [
        e["hash"] for e in record["events"]
    ]
    forged = json.loads(json.dumps(record))
    forged["events"][1]["entered_by"]["name"] = "Rita"
    try:
        from_record(forged)
    except ValueError as err:
        assert "changed after it was exported" in str(err)
    else:
        raise AssertionError("a record whose entered_by was changed imported")


def test_the_audit_names_who_entered_the_disputed_move_and_the_dispute(any_recorder):
    with entering_as(person("Rita", "r1", "api")):
        match_id = any_recorder.start("topitop", ["Ann", "Ben"])
        any_recorder.record(match_id, "Ann", {"place": "bucket", "to": "a1"})
    with entering_as(person("Uma", "u1", "api")):
        any_recorder.dispute(match_id, "Ben", "that bucket was lifted")
    (dispute,) = audit_match(any_recorder, match_id)["disputes"]
    assert dispute["move_entered_by"] == "Rita" and dispute["raised_by"] == "Uma"


def test_entered_by_changed_in_the_store_is_reported_by_the_audit(any_recorder):
    with entering_as(person("Rita", "r1", "api")):
        match_id = any_recorder.start("topitop", ["Ann", "Ben"])
        any_recorder.dispute(match_id, "Ben", "who starts")
        any_recorder.resolve(match_id, "Uma", "Ann starts")
    assert audit_match(any_recorder, match_id)["clean"]
    stored = any_recorder.recorder
    table = stored.events_table_name
    postgres = "postgres" in type(stored).__module__
    with stored.datastore.transaction(commit=True) as cursor:
        mark = "%s" if postgres else "?"
        cursor.execute(
            f"SELECT state FROM {table} WHERE originator_id = {mark} AND originator_version = 1",
            (match_id if postgres else match_id.hex,),
        )
        row = cursor.fetchone()
        state = bytes(row["state"] if isinstance(row, dict) else row[0])
        forged = state.replace(b'"name":"Rita"', b'"name":"Uma"')
        assert forged != state
        cursor.execute(
            f"UPDATE {table} SET state = {mark} WHERE originator_id = {mark} AND "
            "originator_version = 1",
            (forged, match_id if postgres else match_id.hex),
        )
    report = audit_match(any_recorder, match_id)
    assert not report["clean"]
    assert any(f["event"] in (1, 2) for f in report["findings"])


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.text(min_size=1, max_size=40).filter(lambda t: t.strip()),
    user_id=st.none() | st.text(alphabet="0123456789abcdef", min_size=16, max_size=16),
)
def test_any_person_round_trips_through_a_record_with_its_hash(recorder, name, user_id):
    try:
        with entering_as(person(name, user_id, "api")):
            match_id = recorder.start("topitop", ["Ann", "Ben"])
    except ValueError:
        return  # a name the store cannot keep (a lone surrogate, a NUL): refused, nothing stored
    record = recorder.export(match_id)
    rebuilt = from_record(json.loads(json.dumps(record)))
    assert event_hash(rebuilt.pending_events[0]) == record["hash"]
    started = rebuilt.pending_events[0]
    assert vars(started)["entered_by"] == {"id": user_id, "name": name, "via": "api"}
