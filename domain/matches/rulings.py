"""An umpire's signed ruling: the resolution of a dispute signed with the umpire's own key.

`tablelog keys init --user NAME` gives a person an Ed25519 key (`checkpoints.Signer`, kept
outside the store like the recorder's) whose public key the store trusts for that person
(`users.Users.trust_key`). When that person resolves a dispute, the DisputeResolved event
carries `signature`: `{"user": {"id", "name"}, "key": KEY ID, "note": A C2SP SIGNED NOTE}`,
whose text names the match, the dispute (its step, who raised it and what about), the ruling
and who gave it, and the hash of the match's event before the ruling (which chains back through
the dispute to the start). The note is signed as the store's checkpoints are (`signed_note`),
under the key name `person/USER-ID`. The field is part of the event's hash, so the chain and
the store's checkpoints cover it too; a ruling without it (every ruling stored before) is
upcast with None and hashes as it did.

Verifying rebuilds the text from the events as stored (or as an exported record rebuilds them)
and checks the note's text and signature against a public key: a ruling changed after it was
signed, or a key that is not the umpire's, fails with one line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..integrity import signed_note
from ..plain import PlainDict


class Signer(Protocol):
    """What a ruling is signed with: a key (checkpoints.Signer is one). Described here, not
    imported: the checkpoints import the match, which signs its rulings with this module."""

    key_id: str
    private_key: Ed25519PrivateKey


NAME_PREFIX = "person/"
FIELDS = {"user", "key", "note"}


class RulingNotVerified(Exception):
    """A signed ruling that does not verify: one line saying why."""


@dataclass(frozen=True)
class PersonSigner:
    """A person's key, able to sign their rulings."""

    user: PlainDict  # {"id": ..., "name": ...} (`User.entered_by`)
    signer: Signer

    @property
    def key_name(self) -> str:
        return key_name(str(self.user["id"]))


def key_name(user_id: str) -> str:
    return f"{NAME_PREFIX}{user_id}"


def ruling_text(
    match_id: UUID | str,
    dispute: Mapping[str, Any],
    by: str,
    ruling: str,
    after: str,
) -> str:
    """What an umpire signs: the dispute and its decision, one fact a line (free text quoted as
    JSON, so a line break in a ruling cannot forge a line)."""

    def quoted(text: object) -> str:
        return json.dumps(text, ensure_ascii=False)

    return (
        "tablelog ruling\n"
        f"match {match_id}\n"
        f"dispute at step {dispute['raised_version'] - 1} raised by {quoted(dispute['by'])}: "
        f"{quoted(dispute['about'])}\n"
        f"ruling by {quoted(by)}: {quoted(ruling)}\n"
        f"after {after}\n"
    )


def sign(person: PersonSigner, text: str) -> PlainDict:
    return {
        "user": {"id": person.user["id"], "name": person.user["name"]},
        "key": person.signer.key_id,
        "note": signed_note.sign(text, person.key_name, person.signer.private_key),
    }


def check_shape(value: object) -> dict[str, Any]:
    """A signature as a record carries it, or RulingNotVerified."""
    user = value.get("user") if isinstance(value, Mapping) else None
    if (
        not isinstance(value, Mapping)
        or set(value) != FIELDS
        or not isinstance(user, Mapping)
        or not isinstance(user.get("id"), str)
        or not isinstance(user.get("name"), str)
        or not isinstance(value.get("key"), str)
        or not isinstance(value.get("note"), str)
    ):
        raise RulingNotVerified(
            'a ruling\'s signature is {"user": {"id", "name"}, "key": KEY ID, "note": NOTE}'
        )
    return {
        "user": {"id": user["id"], "name": user["name"]},
        **{k: value[k] for k in ("key", "note")},
    }


@dataclass(frozen=True)
class SignedRuling:
    """A signed ruling found in a match's events, with the text its note must hold."""

    step: int  # the ruling's step (its stored position - 1)
    signature: dict[str, Any]
    expected: str

    @property
    def who(self) -> str:
        return str(self.signature.get("user", {}).get("name", "unknown"))

    def words(self) -> str:
        return (
            f"the ruling at step {self.step} is signed by {self.who} (key {self.signature['key']})"
        )


def signed_rulings(events: Iterable[tuple[int, Any]]) -> list[SignedRuling]:
    """The signed rulings among a match's events (stored position, event), in order, each with
    the text rebuilt from the events: the dispute it resolves is the oldest one still open."""
    found: list[SignedRuling] = []
    open_disputes: list[PlainDict] = []
    match_id = None
    for position, event in events:
        kind = type(event).__name__
        match_id = match_id or getattr(event, "originator_id", None)
        if kind == "DisputeRaised":
            open_disputes.append({"raised_version": position, "by": event.by, "about": event.about})
        elif kind == "DisputeResolved" and open_disputes:
            dispute = open_disputes.pop(0)
            signature = getattr(event, "signature", None)
            if signature is not None:
                text = ruling_text(match_id or "", dispute, event.by, event.ruling, event.prev_hash)
                found.append(SignedRuling(position - 1, signature, text))
    return found


def verify(ruling: SignedRuling, keys: Mapping[str, bytes]) -> str:
    """The line saying the ruling verifies with one of `keys` (key id -> raw public key, as
    `checkpoints.key_id` names them), or RulingNotVerified with the line saying why not."""
    try:
        signature = check_shape(ruling.signature)
        note = signed_note.parse(signature["note"])
    except (RulingNotVerified, signed_note.MalformedNote) as err:
        raise RulingNotVerified(
            f"the ruling at step {ruling.step} carries no readable signature: {err}"
        ) from None
    raw = keys.get(signature["key"])
    if raw is None:
        raise RulingNotVerified(
            f"the ruling at step {ruling.step} is signed by {ruling.who}'s key "
            f"{signature['key']}, which is not a key given or trusted here"
        )
    name = key_name(signature["user"]["id"])
    try:
        found = signed_note.verified_by(note, [(name, raw)])
    except signed_note.BadSignature:
        found = []
    if not found:
        raise RulingNotVerified(
            f"the signature on the ruling at step {ruling.step} does not verify with "
            f"{ruling.who}'s key {signature['key']}: it was not made with that key"
        )
    if note.text != ruling.expected:
        raise RulingNotVerified(
            f"the ruling at step {ruling.step} is not what {ruling.who} signed: the dispute "
            "or its decision was changed after it was signed"
        )
    return f"{ruling.words()}: the signature verifies over the dispute and its decision"
