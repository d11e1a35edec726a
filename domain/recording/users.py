"""The people who may write to a store, in tables of the store itself (docs/club-server.md).

A person has a name, one role and, to sign in on the dashboard, a password; the API takes their
bearer tokens. Neither secret is ever stored: a password as its argon2id hash (argon2-cffi), a
token as its SHA-256, which is enough for a token of 256 random bits (no one can guess one, so
there is nothing to slow down), and lets a token be looked up at every request: a revoked or
expired token, or a disabled person's, is refused at its next use, with nothing cached.

The store holds no person until the first is added; accounts are on once it holds an admin who
is not disabled (`accounts_on`), and a server then takes writes from people only.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any, Protocol
from uuid import UUID

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from eventsourcing.application import Application

from ..errors import Refused
from ..matches.values import stored_text
from ..plain import PlainDict
from ..quoting import quoted
from .side_tables import SideTables

VIEWER, RECORDER, UMPIRE, ADMIN = "viewer", "recorder", "umpire", "admin"
ROLES = (VIEWER, RECORDER, UMPIRE, ADMIN)  # each may do what the one before it may, and more
TOKEN_PREFIX = "tlk_"
NAME_LIMIT = 64
PASSWORD_LIMIT = 1024  # argon2 takes any length; a megabyte of "password" is not one
EXPIRY = re.compile(r"([1-9][0-9]{0,4})([dh])")

TABLES = (
    "CREATE TABLE IF NOT EXISTS tablelog_users (user_id TEXT PRIMARY KEY, name TEXT NOT NULL, "
    "name_key TEXT NOT NULL UNIQUE, role TEXT NOT NULL, password TEXT, "
    "limited BIGINT NOT NULL, disabled BIGINT NOT NULL, added_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS tablelog_tokens (token_id TEXT PRIMARY KEY, "
    "user_id TEXT NOT NULL, sha256 TEXT NOT NULL UNIQUE, label TEXT NOT NULL, "
    "created_at TEXT NOT NULL, expires_at TEXT, revoked_at TEXT)",
    "CREATE TABLE IF NOT EXISTS tablelog_assignments (user_id TEXT NOT NULL, "
    "match_id TEXT NOT NULL, PRIMARY KEY (user_id, match_id))",
)
# The public keys the store trusts for a person's signed rulings (domain.matches.rulings); made
# apart (and on the first key), so a store whose people came before it gains it then.
KEYS_TABLE = (
    "CREATE TABLE IF NOT EXISTS tablelog_user_keys (key_id TEXT PRIMARY KEY, "
    "user_id TEXT NOT NULL, public_key TEXT NOT NULL, added_at TEXT NOT NULL)"
)
USER_COLUMNS = "user_id, name, role, limited, disabled, added_at"


@dataclass(frozen=True)
class User:
    id: str
    name: str
    role: str
    limited: bool  # a recorder who may write only in matches they started or are assigned
    disabled: bool
    added_at: str

    def may(self, role: str) -> bool:
        """Whether this person's role is `role` or one above it."""
        return not self.disabled and ROLES.index(self.role) >= ROLES.index(role)

    @property
    def entered_by(self) -> PlainDict:
        return {"id": self.id, "name": self.name}


@dataclass(frozen=True)
class Token:
    id: str
    user_id: str
    label: str
    created_at: str
    expires_at: str | None
    revoked_at: str | None

    def state(self, now: datetime) -> str:
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and datetime.fromisoformat(self.expires_at) <= now:
            return "expired"
        return "active"


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def check_role(role: str) -> str:
    if role not in ROLES:
        raise Refused(f"{quoted(role)} is not a role; roles: {', '.join(ROLES)}")
    return role


def check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise Refused("a person's name must be given")
    name = stored_text(name.strip(), "a person's name")
    if len(name) > NAME_LIMIT or any(not c.isprintable() for c in name):
        raise Refused(f"a person's name is up to {NAME_LIMIT} printable characters")
    return name


def expiry(text: str | None, now: datetime) -> str | None:
    """`30d` or `12h` from now, as an ISO time; None for a token that does not expire."""
    if text is None:
        return None
    found = EXPIRY.fullmatch(text.strip())
    if not found:
        raise Refused(f"--expires {quoted(text)}: give days or hours, e.g. 30d or 12h")
    amount, unit = int(found[1]), found[2]
    return (now + timedelta(**{"days" if unit == "d" else "hours": amount})).isoformat()


def signing_person(user: User) -> User:
    """The person, if they may sign rulings (an umpire or an admin), else Refused."""
    if not user.may(UMPIRE):
        raise Refused(
            f"{user.name} is {'disabled' if user.disabled else 'a ' + user.role}: only an "
            "umpire or an admin resolves disputes, so only they sign rulings"
        )
    return user


def hash_password(password: str) -> str:
    if not isinstance(password, str) or len(password) < 8 or len(password) > PASSWORD_LIMIT:
        raise Refused(f"a password is 8 to {PASSWORD_LIMIT} characters")
    return PasswordHasher().hash(password)  # argon2id with the library's current parameters


class Users(SideTables):
    """The people of one recorder's store. Their tables are made by the first change, so that
    reading, or a refused command, leaves a store without people exactly as it was."""

    def __init__(self, recorder: Application[UUID]) -> None:
        super().__init__(recorder)
        self._made = False
        self._keys = False  # True once the keys' table is seen (it is never dropped)

    def _select(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        if not self._made:
            self._made = self._table_exists("tablelog_users")
            if not self._made:
                return []  # no people yet: every read finds none
        return super()._select(sql, params)

    # ---- reading -----------------------------------------------------------------------------

    def accounts_on(self) -> bool:
        """Whether the store has an admin who is not disabled: from then on, people sign in."""
        return bool(
            self._select(
                "SELECT 1 FROM tablelog_users WHERE role = ? AND disabled = 0 LIMIT 1", (ADMIN,)
            )
        )

    def all(self) -> list[User]:
        return [
            _user(r)
            for r in self._select(f"SELECT {USER_COLUMNS} FROM tablelog_users ORDER BY added_at")
        ]

    def find(self, name: str) -> User | None:
        rows = self._select(
            f"SELECT {USER_COLUMNS} FROM tablelog_users WHERE name_key = ?", (_key(name),)
        )
        return _user(rows[0]) if rows else None

    def named(self, name: str) -> User:
        found = self.find(name)
        if found is None:
            raise Refused(f"no person {quoted(name)} in this store (`tablelog users list`)")
        return found

    def by_id(self, user_id: str) -> User | None:
        rows = self._select(
            f"SELECT {USER_COLUMNS} FROM tablelog_users WHERE user_id = ?", (user_id,)
        )
        return _user(rows[0]) if rows else None

    def tokens(self, name: str) -> list[Token]:
        user = self.named(name)
        return [
            Token(*r)
            for r in self._select(
                "SELECT token_id, user_id, label, created_at, expires_at, revoked_at FROM "
                "tablelog_tokens WHERE user_id = ? ORDER BY created_at",
                (user.id,),
            )
        ]

    def holder(self, secret: str, now: datetime | None = None) -> tuple[User | None, str]:
        """The person a bearer token belongs to, read now (nothing cached), or None and why."""
        rows = self._select(
            "SELECT token_id, user_id, label, created_at, expires_at, revoked_at FROM "
            "tablelog_tokens WHERE sha256 = ?",
            (token_digest(secret),),
        )
        if not rows:
            return None, "the bearer token is wrong"
        token = Token(*rows[0])
        state = token.state(now or datetime.now(UTC))
        if state != "active":
            return None, f"the bearer token {token.id} is {state}"
        user = self.by_id(token.user_id)
        if user is None or user.disabled:
            return None, "the bearer token's holder is disabled"
        return user, ""

    def check_password(self, name: str, password: str) -> User | None:
        """The person, when the password is theirs (argon2-cffi's verifier); None otherwise,
        the same for a wrong name and a wrong password."""
        rows = self._select(
            f"SELECT {USER_COLUMNS}, password FROM tablelog_users WHERE name_key = ?",
            (_key(name),),
        )
        stored = rows[0][-1] if rows else None
        try:
            PasswordHasher().verify(stored or _dummy(), password[:PASSWORD_LIMIT])
        except (VerificationError, InvalidHashError):
            return None
        user = _user(rows[0][:-1])
        return None if user.disabled else user

    def assigned(self, user_id: str, match_id: str) -> bool:
        return bool(
            self._select(
                "SELECT 1 FROM tablelog_assignments WHERE user_id = ? AND match_id = ?",
                (user_id, match_id),
            )
        )

    def person_keys(self, user_id: str | None = None) -> dict[str, bytes]:
        """The public keys the store trusts for people's rulings (key id -> raw key); with
        `user_id`, that person's only."""
        if not self._keys_made():
            return {}
        sql = "SELECT key_id, public_key FROM tablelog_user_keys"
        rows = (
            self._select(sql + " WHERE user_id = ?", (user_id,))
            if user_id is not None
            else self._select(sql)
        )
        return {key: base64.b64decode(public) for key, public in rows}

    def _keys_made(self) -> bool:
        if not self._keys:  # asked again until made: another process may make it
            self._keys = self._table_exists("tablelog_user_keys")
        return self._keys

    def key_owners(self) -> dict[str, str]:
        """Key id -> the id of the person the store trusts it for."""
        if not self._keys_made():
            return {}
        return dict(self._select("SELECT key_id, user_id FROM tablelog_user_keys"))

    # ---- changing ----------------------------------------------------------------------------

    def trust_key(
        self, name: str, key: str, public_raw: bytes, now: datetime | None = None
    ) -> User:
        """Trust a public key for the person's signed rulings (an umpire or above)."""
        user = signing_person(self.named(name))
        self._make((KEYS_TABLE,))
        self._write(
            "INSERT INTO tablelog_user_keys (key_id, user_id, public_key, added_at) "
            "VALUES (?, ?, ?, ?)",
            (
                key,
                user.id,
                base64.b64encode(public_raw).decode(),
                (now or datetime.now(UTC)).isoformat(),
            ),
        )
        return user

    def add(self, name: str, role: str, limited: bool = False, now: datetime | None = None) -> User:
        name, role = check_name(name), check_role(role)
        if self.find(name) is not None:
            raise Refused(f"{quoted(name)} is already a person of this store")
        user = User(
            secrets.token_hex(8), name, role, limited, False, (now or datetime.now(UTC)).isoformat()
        )
        self._write(
            f"INSERT INTO tablelog_users ({USER_COLUMNS}, name_key) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (user.id, name, role, int(limited), 0, user.added_at, _key(name)),
        )
        return user

    def set_role(self, name: str, role: str, limited: bool | None = None) -> User:
        user = self.named(name)
        role = check_role(role)
        limited = user.limited if limited is None else limited
        self._write(
            "UPDATE tablelog_users SET role = ?, limited = ? WHERE user_id = ?",
            (role, int(limited), user.id),
        )
        return self.named(name)

    def set_disabled(self, name: str, disabled: bool = True) -> User:
        user = self.named(name)
        self._write(
            "UPDATE tablelog_users SET disabled = ? WHERE user_id = ?", (int(disabled), user.id)
        )
        return self.named(name)

    def set_password(self, name: str, password: str) -> None:
        user = self.named(name)
        self._write(
            "UPDATE tablelog_users SET password = ? WHERE user_id = ?",
            (hash_password(password), user.id),
        )

    def issue_token(
        self, name: str, expires: str | None = None, label: str = "", now: datetime | None = None
    ) -> tuple[Token, str]:
        """A new token for the person: its row, and the token itself, to be shown once."""
        user = self.named(name)
        now = now or datetime.now(UTC)
        label = stored_text(label.strip(), "the token's label")[:NAME_LIMIT]
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = Token(
            secrets.token_hex(6), user.id, label, now.isoformat(), expiry(expires, now), None
        )
        self._write(
            "INSERT INTO tablelog_tokens (token_id, user_id, sha256, label, created_at, "
            "expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                token.id,
                user.id,
                token_digest(secret),
                label,
                token.created_at,
                token.expires_at,
                None,
            ),
        )
        return token, secret

    def revoke(self, token_id: str, now: datetime | None = None) -> None:
        found = self._select(
            "SELECT revoked_at FROM tablelog_tokens WHERE token_id = ?", (token_id,)
        )
        if not found:
            raise Refused(
                f"no token {quoted(token_id)} in this store (`tablelog users tokens NAME`)"
            )
        if found[0][0] is not None:
            raise Refused(f"token {token_id} was revoked already, at {found[0][0]}")
        self._write(
            "UPDATE tablelog_tokens SET revoked_at = ? WHERE token_id = ?",
            ((now or datetime.now(UTC)).isoformat(), token_id),
        )

    def assign(self, name: str, match_id: str) -> None:
        user = self.named(name)
        if not self.assigned(user.id, match_id):
            self._write(
                "INSERT INTO tablelog_assignments (user_id, match_id) VALUES (?, ?)",
                (user.id, match_id),
            )

    def _write(self, sql: str, params: tuple[object, ...]) -> None:
        if not self._made:
            self._make(TABLES)
            self._made = True
        with self._tx(commit=True) as c:
            self._run(c, sql, params)


@cache
def _dummy() -> str:
    """A hash to verify against when the name is unknown, so that a wrong name takes as long as
    a wrong password (no telling which names exist by the time an answer takes)."""
    return PasswordHasher().hash(secrets.token_urlsafe(16))


def _key(name: str) -> str:
    return name.strip().casefold()


def _user(row: tuple[Any, ...]) -> User:
    user_id, name, role, limited, disabled, added_at = row
    return User(user_id, name, role, bool(limited), bool(disabled), added_at)


class HasPeople(Protocol):
    """A recorder, as far as its people go (`Recorder.people`)."""

    @property
    def people(self) -> Users: ...


def users_of(recorder: HasPeople) -> Users:
    """The recorder's people, made once per recorder (`Recorder.people`)."""
    return recorder.people
