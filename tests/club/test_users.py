"""People in the store (domain.recording.users, `tablelog users`), on SQLite and PostgreSQL: roles,
tokens kept only as hashes and refused from their next use once revoked or expired, passwords
as argon2id hashes that argon2-cffi's own verifier accepts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from argon2.exceptions import VerificationError
from click.testing import CliRunner

from tablelog.cli import main
from tablelog.domain.errors import Refused
from tablelog.domain.recording.users import Users, token_digest

PASSWORD = "correct horse battery staple"


def raw(people: Users, sql: str) -> list[tuple]:
    return people._select(sql)


def test_the_first_admin_turns_accounts_on(any_recorder):
    people = Users(any_recorder)
    assert not people.accounts_on()
    people.add("Rita", "recorder")
    assert not people.accounts_on()  # a recorder alone changes nothing
    people.add("Ada", "admin")
    assert people.accounts_on()
    people.set_disabled("Ada")
    assert not people.accounts_on()


def test_a_token_is_stored_only_as_its_sha256_and_shown_once(any_recorder):
    people = Users(any_recorder)
    people.add("Rita", "recorder")
    row, secret = people.issue_token("Rita", label="phone")
    stored = raw(people, "SELECT token_id, sha256, label FROM tablelog_tokens")
    assert stored == [(row.id, token_digest(secret), "phone")]
    assert all(secret not in str(value) for value in stored[0])
    assert len(secret) >= 40  # 256 random bits, url-safe
    holder, _ = people.holder(secret)
    assert holder is not None and holder.name == "Rita"


def test_a_revoked_token_is_refused_at_its_next_use(any_recorder):
    people = Users(any_recorder)
    people.add("Rita", "recorder")
    row, secret = people.issue_token("Rita")
    assert people.holder(secret)[0] is not None
    people.revoke(row.id)
    holder, why = people.holder(secret)
    assert holder is None and "revoked" in why and secret not in why
    with pytest.raises(Refused, match="revoked already"):
        people.revoke(row.id)


def test_an_expired_token_and_a_disabled_persons_token_are_refused(any_recorder):
    people = Users(any_recorder)
    people.add("Rita", "recorder")
    now = datetime.now(UTC)
    _, secret = people.issue_token("Rita", expires="1d", now=now)
    assert people.holder(secret, now + timedelta(hours=23))[0] is not None
    assert "expired" in people.holder(secret, now + timedelta(hours=25))[1]
    _, other = people.issue_token("Rita")
    people.set_disabled("Rita")
    assert people.holder(other)[0] is None


def test_a_password_is_an_argon2id_hash_the_librarys_verifier_accepts(any_recorder):
    people = Users(any_recorder)
    people.add("Ada", "admin")
    people.set_password("Ada", PASSWORD)
    (stored,) = raw(people, "SELECT password FROM tablelog_users")[0]
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert PasswordHasher().verify(stored, PASSWORD)
    with pytest.raises(VerificationError):
        PasswordHasher().verify(stored, PASSWORD + "!")
    signed_in = people.check_password("ada", PASSWORD)
    assert signed_in is not None and signed_in.name == "Ada"
    assert people.check_password("Ada", "wrong password") is None
    assert people.check_password("Nobody", PASSWORD) is None


@pytest.mark.parametrize(
    "name, role, message",
    [
        ("", "recorder", "must be given"),
        ("Rita", "king", "not a role"),
        ("x" * 65, "recorder", "up to 64"),
        ("Ri\nta", "recorder", "printable"),
    ],
)
def test_bad_input_is_one_line_and_the_store_unchanged(any_recorder, name, role, message):
    people = Users(any_recorder)
    with pytest.raises(Refused, match=message):
        people.add(name, role)
    assert people.all() == []


def test_a_name_is_one_person_whatever_its_case(any_recorder):
    people = Users(any_recorder)
    people.add("Rita", "recorder")
    with pytest.raises(Refused, match="already"):
        people.add("RITA", "umpire")
    assert [u.role for u in people.all()] == ["recorder"]


def run(store: str, *args: str, input: str | None = None):
    return CliRunner().invoke(main, [*args, "--store", store], input=input)


def test_the_users_commands_on_both_stores(any_store):
    added = run(any_store, "users", "add", "Ada", "--role", "admin")
    assert added.exit_code == 0 and "accounts are on" in added.output
    assert run(any_store, "users", "add", "Rita", "--role", "recorder").exit_code == 0
    assert run(any_store, "users", "role", "Rita", "umpire").exit_code == 0
    listed = run(any_store, "users", "list")
    assert "Ada  admin" in listed.output and "Rita  umpire" in listed.output
    made = run(any_store, "users", "token", "Rita", "--expires", "30d", "--label", "phone")
    assert made.exit_code == 0, made.output
    token_id, secret = made.output.split()[1], made.output.strip().splitlines()[-1]
    tokens = run(any_store, "users", "tokens", "Rita")
    assert f"{token_id}  active  phone" in tokens.output and secret not in tokens.output
    assert run(any_store, "users", "revoke", token_id).exit_code == 0
    assert f"{token_id}  revoked" in run(any_store, "users", "tokens", "Rita").output
    typed = run(any_store, "users", "password", "Rita", input=f"{PASSWORD}\n{PASSWORD}\n")
    assert typed.exit_code == 0 and PASSWORD not in typed.output
    assert run(any_store, "users", "disable", "Rita").exit_code == 0
    assert "disabled" in run(any_store, "users", "list").output


def test_a_refused_users_command_is_one_line_and_stores_nothing(any_store):
    refused = run(any_store, "users", "token", "Nobody")
    assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "no person" in refused.stderr
    short = run(any_store, "users", "add", "Rita", "--role", "recorder")
    assert short.exit_code == 0
    too_short = run(any_store, "users", "password", "Rita", input="short\nshort\n")
    assert too_short.exit_code == 2 and "8 to" in too_short.stderr
    assert "short" not in too_short.stderr.replace("8 to", "")


def test_reading_and_refusals_leave_a_store_without_people_as_it_was(any_store):
    from tablelog.store import is_postgres, open_recorder

    recorder = open_recorder(any_store)
    recorder.start("topitop", ["Ann", "Ben"])
    before = None if is_postgres(any_store) else Path(any_store).read_bytes()
    for args in (("users", "list"), ("users", "token", "Nobody"), ("users", "revoke", "x")):
        run(any_store, *args)
    people = Users(recorder)
    assert not people.accounts_on() and not people._table_exists("tablelog_users")
    if before is not None:
        assert Path(any_store).read_bytes() == before
    recorder.close()


def test_a_recorder_has_one_people_and_each_sees_keys_trusted_by_another(any_store):
    """`users_of` is the recorder's own `people`, made once; a people that found no keys' table
    asks again, so a key another process trusts later is seen (an umpire's, for her ruling)."""
    from tablelog.domain.recording.users import users_of
    from tablelog.store import open_recorder

    first, second = open_recorder(any_store), open_recorder(any_store)
    try:
        people = users_of(first)
        assert users_of(first) is people is first.people
        assert users_of(second) is not people
        assert people.person_keys() == {} and people.key_owners() == {}
        other = users_of(second)
        uma = other.add("Uma", "umpire")
        other.trust_key("Uma", "uma-key", b"\x01" * 32)
        assert people.person_keys() == {"uma-key": b"\x01" * 32}
        assert people.key_owners() == {"uma-key": uma.id}
    finally:
        first.close()
        second.close()
