"""An umpire's ruling signed with her own key (`keys init --user`), on SQLite and PostgreSQL: it
verifies beside the store's checkpoint, in the store and on another machine from an export and
the public keys; a changed decision, a wrong key or a key of another log fails with one line."""

from __future__ import annotations

import json
from uuid import UUID

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablelog.cli import main
from tablelog.domain.integrity.audit import audit_match
from tablelog.domain.integrity.checkpoints import Signer, public_pem
from tablelog.domain.matches import rulings
from tablelog.store import open_recorder

DISPUTE = ("--by", "Ben", "--about", "Ann's bucket was lifted")
RULING = "the bucket stays where it is"


def run(store: str, *args: str):
    return CliRunner().invoke(main, [*args, "--store", store])


def ok(store: str, *args: str) -> str:
    done = run(store, *args)
    assert done.exit_code == 0, done.output + done.stderr
    return done.output


@pytest.fixture
def club(any_store, tmp_path, monkeypatch):
    """A club store: an admin, a recorder and an umpire with her own key; the store signs
    checkpoints with its key. Every key file lives in tmp_path."""
    monkeypatch.setenv("TABLELOG_KEY_FILE", str(tmp_path / "store-key.pem"))
    monkeypatch.setenv("TABLELOG_PEOPLE_KEYS", str(tmp_path / "people"))
    ok(any_store, "users", "add", "Ada", "--role", "admin")
    ok(any_store, "users", "add", "Rita", "--role", "recorder")
    ok(any_store, "users", "add", "Uma", "--role", "umpire")
    ok(any_store, "keys", "init", "--origin", "club.example.org/tablelog")
    made = ok(any_store, "keys", "init", "--user", "Uma")
    assert "Uma" in made and "person/" in made
    match_id = ok(any_store, "new", "topitop", "--players", "Ann,Ben", "--as", "Rita").strip()
    ok(any_store, "dispute", match_id, *DISPUTE, "--as", "Rita")
    resolved = ok(any_store, "resolve", match_id, "--by", "Uma", "--ruling", RULING, "--as", "Uma")
    assert "(signed with Uma's own key " in resolved
    (tmp_path / "store.pub").write_text(ok(any_store, "keys", "show", "--public"))
    (tmp_path / "uma.pub").write_text(ok(any_store, "keys", "show", "--user", "Uma", "--public"))
    (tmp_path / "match.json").write_text(ok(any_store, "export", match_id))
    return any_store, UUID(match_id), tmp_path


def test_the_umpires_ruling_carries_her_signature_over_the_dispute_and_its_decision(club):
    store, match_id, _ = club
    recorder = open_recorder(store)
    try:
        resolved = recorder.stored_events(match_id)[-1]
        report = audit_match(recorder, match_id)
    finally:
        recorder.close()
    signature = resolved.signature
    assert signature["user"]["name"] == "Uma"
    note = signature["note"]
    assert f"match {match_id}" in note and json.dumps(RULING) in note
    assert json.dumps("Ann's bucket was lifted") in note
    assert report["clean"], report["findings"]
    (dispute,) = report["disputes"]
    assert dispute["signed"].startswith("signed by Uma") and dispute["signed"].endswith("verifies")
    audit = ok(store, "audit", str(match_id))
    assert "signed by Uma with their own key" in audit
    log = ok(store, "show", str(match_id), "--log")
    assert "signed by Uma with their own key" in log


def test_verify_checks_the_signed_ruling_beside_the_checkpoint_in_the_store(club):
    store, match_id, tmp_path = club
    receipt = tmp_path / "receipt.json"
    receipt.write_text(ok(store, "receipt", str(match_id), "--json"))
    done = ok(store, "verify", str(receipt))
    assert "VERIFIED" in done and "signed by Uma" in done
    assert "over the dispute and its decision" in done


def test_verify_checks_it_on_another_machine_from_the_export_and_the_public_keys(club):
    _, _, tmp_path = club
    keys = ["--key", str(tmp_path / "store.pub"), "--key", str(tmp_path / "uma.pub")]
    done = CliRunner().invoke(main, ["verify", "--record", str(tmp_path / "match.json"), *keys])
    assert done.exit_code == 0, done.output
    assert done.output.startswith("VERIFIED")
    assert "the ruling at step 2 is signed by Uma" in done.output


def test_a_wrong_key_for_the_umpire_fails_with_one_line(club, tmp_path_factory):
    _, _, tmp_path = club
    other = tmp_path_factory.mktemp("other") / "other.pem"
    other.write_text(public_pem(Signer(Ed25519PrivateKey.generate()).public_raw))
    keys = ["--key", str(tmp_path / "store.pub"), "--key", str(other)]
    done = CliRunner().invoke(main, ["verify", "--record", str(tmp_path / "match.json"), *keys])
    assert done.exit_code == 1
    (line,) = done.output.splitlines()
    assert line.startswith("NOT VERIFIED: the ruling at step 2 is signed by Uma's key")


def test_a_changed_decision_fails_with_one_line(club):
    store, match_id, _ = club
    recorder = open_recorder(store)
    try:
        events = recorder.stored_events(match_id)
        keys = rulings_keys(recorder)
    finally:
        recorder.close()
    (signed,) = rulings.signed_rulings([(e.originator_version, e) for e in events])
    assert rulings.verify(signed, keys).endswith("over the dispute and its decision")
    changed = rulings.SignedRuling(
        signed.step, signed.signature, signed.expected.replace(RULING, "Ann's move is undone")
    )
    with pytest.raises(rulings.RulingNotVerified) as refused:
        rulings.verify(changed, keys)
    assert str(refused.value) == (
        "the ruling at step 2 is not what Uma signed: the dispute or its decision was changed "
        "after it was signed"
    )


def test_a_decision_changed_in_the_store_is_reported_by_the_audit(club):
    store, match_id, _ = club
    recorder = open_recorder(store)
    try:
        forge_ruling(recorder, match_id, RULING, "Ann's move is undone")
        report = audit_match(recorder, match_id)
    finally:
        recorder.close()
    assert not report["clean"]
    ruling = [f for f in report["findings"] if f["kind"] == "ruling"]
    assert [f["message"] for f in ruling] == [
        "the ruling at step 2 is not what Uma signed: the dispute or its decision was changed "
        "after it was signed"
    ]


def test_a_verifier_key_of_another_log_verifies_nothing(club):
    _, _, tmp_path = club
    text = (tmp_path / "store.pub").read_text()
    renamed = text.replace("club.example.org/tablelog+", "another.example.org/tablelog+")
    assert renamed != text
    pem = text.split("-----END PUBLIC KEY-----")[0] + "-----END PUBLIC KEY-----\n"
    from tablelog.domain.integrity.signed_note import read_verifier_key, verifier_key

    raw = read_verifier_key(text.split("-----END PUBLIC KEY-----")[1])[1]
    (tmp_path / "other-log.pub").write_text(pem + verifier_key("another.example.org/tl", raw))
    keys = ["--key", str(tmp_path / "other-log.pub"), "--key", str(tmp_path / "uma.pub")]
    done = CliRunner().invoke(main, ["verify", "--record", str(tmp_path / "match.json"), *keys])
    assert done.exit_code == 1
    assert done.output.splitlines() == [
        "NOT VERIFIED: the key given for the log another.example.org/tl is not this log's: "
        "the checkpoint's origin is club.example.org/tablelog"
    ]


def test_only_an_umpire_or_an_admin_gets_a_ruling_key(club):
    store, _, _ = club
    refused = run(store, "keys", "init", "--user", "Rita")
    assert refused.exit_code != 0
    assert "only an umpire or an admin resolves disputes" in refused.output + refused.stderr


def rulings_keys(recorder):
    from tablelog.domain.recording.users import users_of

    return users_of(recorder).person_keys()


def forge_ruling(recorder, match_id, old: str, new: str) -> None:
    """Change the stored ruling's text in the store's own row, as someone with the database's
    credentials could."""
    stored = recorder.recorder
    table = stored.events_table_name
    postgres = "postgres" in type(stored).__module__
    mark = "%s" if postgres else "?"
    key = match_id if postgres else match_id.hex
    with stored.datastore.transaction(commit=True) as cursor:
        cursor.execute(
            f"SELECT originator_version, state FROM {table} WHERE originator_id = {mark}",
            (key,),
        )
        for row in cursor.fetchall():
            version, state = (
                (row["originator_version"], row["state"]) if isinstance(row, dict) else row
            )
            state = bytes(state)
            field = f'"ruling":"{old}"'.encode()
            if field in state:
                cursor.execute(
                    f"UPDATE {table} SET state = {mark} WHERE originator_id = {mark} AND "
                    f"originator_version = {mark}",
                    (state.replace(field, f'"ruling":"{new}"'.encode()), key, version),
                )
                return
    raise AssertionError("no stored ruling to change")


def test_an_umpire_ruling_through_the_api_with_her_token_is_signed_with_her_key(
    any_recorder, tmp_path, monkeypatch
):
    """The server holds her key (`keys init --user` run there): her ruling through the API is
    signed with it; a recorder's token cannot rule at all (the role matrix)."""
    from tablelog import keys as keyfiles
    from tablelog.access import WritePolicy
    from tablelog.api import create_app
    from tablelog.domain.recording.users import Users

    monkeypatch.setenv("TABLELOG_PEOPLE_KEYS", str(tmp_path / "people"))
    people = Users(any_recorder)
    people.add("Ada", "admin")
    uma = people.add("Uma", "umpire")
    signer, _ = keyfiles.create_person_key(uma.id, uma.name)
    people.trust_key("Uma", signer.key_id, signer.public_raw)
    token = people.issue_token("Uma")[1]
    client = create_app(any_recorder, WritePolicy.for_bind("0.0.0.0", None)).test_client()
    headers = {"Authorization": f"Bearer {token}"}
    match_id = client.post(
        "/api/v1/matches", json={"game": "topitop", "players": ["Ann", "Ben"]}, headers=headers
    ).get_json()["id"]
    for path, body in (
        ("disputes", {"by": "Ben", "about": "who starts"}),
        ("disputes/resolve", {"by": "Uma", "ruling": "Ann starts"}),
    ):
        answer = client.post(f"/api/v1/matches/{match_id}/{path}", json=body, headers=headers)
        assert answer.status_code in (200, 201), answer.get_json()
    resolved = any_recorder.stored_events(match_id)[-1]
    assert resolved.signature["user"] == {"id": uma.id, "name": "Uma"}
    assert resolved.signature["key"] == signer.key_id
    report = audit_match(any_recorder, UUID(match_id))
    assert report["clean"] and report["disputes"][0]["signed"].endswith(": verifies")
