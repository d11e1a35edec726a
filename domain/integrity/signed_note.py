"""C2SP signed notes with Ed25519 (c2sp.org/signed-note): a text, a blank line, and signature
lines `— <key name> base64(4-byte key ID || signature)`; and verifier keys
`<key name>+<key ID in hex>+base64(0x01 || public key)`.

It is the format of the Go checksum database (golang.org/x/mod/sumdb/note), sigsum and the
transparency-dev witnesses; the tests check this module against the vectors both publish and
against Go's own package. Hand-written over `cryptography`'s Ed25519 because no maintained Python
package fits: aics-tlog needs Python 3.12 (Tablelog supports 3.11), tlog-scales 0.0.3 calls
itself "very much WIP, expect churn and breakage", and sigstore's note code is private to it.
Only what a log needs: Ed25519 (type 0x01) signatures; others are kept but never verified.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ED25519 = b"\x01"
DASH = "\u2014 "
# Go's note package refuses a note with more signatures; the spec asks for at least 16.
MAX_SIGNATURES = 100
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f]")  # every ASCII control but the newline


class MalformedNote(ValueError):
    """Text that is not a signed note, or a verifier key that is not one."""


class BadSignature(ValueError):
    """A signature by a known key that does not verify: the spec rejects the whole note."""


def valid_name(name: str) -> bool:
    """A key name: non-empty, no Unicode space, no `+` (nor a control character)."""
    return (
        bool(name)
        and "+" not in name
        and not any(c.isspace() for c in name)
        and (not CONTROL.search(name))
    )


def key_id(name: str, public_raw: bytes) -> bytes:
    """SHA-256(key name || 0x0A || 0x01 || 32-byte Ed25519 public key)[:4]."""
    return hashlib.sha256(name.encode() + b"\n" + ED25519 + public_raw).digest()[:4]


def verifier_key(name: str, public_raw: bytes) -> str:
    if not valid_name(name):
        raise MalformedNote(f"{name!r} is not a key name (no spaces, no '+')")
    typed = base64.b64encode(ED25519 + public_raw).decode()
    return f"{name}+{key_id(name, public_raw).hex()}+{typed}"


def read_verifier_key(text: str) -> tuple[str, bytes]:
    """(key name, 32-byte public key) of an Ed25519 verifier key, or MalformedNote."""
    name, _, rest = text.strip().partition("+")
    hashed, _, typed = rest.partition("+")
    try:
        key = base64.b64decode(typed, validate=True)
    except (binascii.Error, ValueError):
        key = b""
    if not valid_name(name) or not re.fullmatch(r"[0-9a-f]{8}", hashed) or not key:
        raise MalformedNote("a verifier key reads NAME+KEYID+BASE64 (8 hex digits of key ID)")
    if key[:1] != ED25519 or len(key) != 33:
        raise MalformedNote(f"the verifier key {name} is not an Ed25519 key (type 0x01, 32 bytes)")
    if key_id(name, key[1:]).hex() != hashed:
        raise MalformedNote(f"the verifier key {name}'s key ID is not the hash of its key")
    return name, key[1:]


@dataclass(frozen=True)
class Signature:
    name: str
    key_id: bytes  # 4 bytes
    signature: bytes

    def line(self) -> str:
        return f"{DASH}{self.name} {base64.b64encode(self.key_id + self.signature).decode()}\n"


@dataclass(frozen=True)
class Note:
    text: str  # ends with its newline
    signatures: tuple[Signature, ...]

    def message(self) -> str:
        return self.text + "\n" + "".join(s.line() for s in self.signatures)


def sign(text: str, name: str, private_key: Ed25519PrivateKey) -> str:
    """The signed note of `text` (which ends with a newline) under key `name`."""
    if not text.endswith("\n") or CONTROL.search(text) or not valid_name(name):
        raise MalformedNote("a note's text ends with a newline and holds no control character")
    public_raw = private_key.public_key().public_bytes_raw()
    signature = Signature(name, key_id(name, public_raw), private_key.sign(text.encode()))
    return Note(text, (signature,)).message()


def parse(message: str) -> Note:
    """The text and signature lines of a signed note (nothing verified), or MalformedNote. As
    golang.org/x/mod/sumdb/note reads it: the signatures follow the last blank line."""
    try:
        message.encode()
    except UnicodeEncodeError:
        raise MalformedNote("a signed note is valid UTF-8") from None
    if CONTROL.search(message):
        raise MalformedNote("a signed note holds no control character but newlines")
    split = message.rfind("\n\n")
    text, block = message[: split + 1], message[split + 2 :]
    if split < 0 or not block.endswith("\n"):
        raise MalformedNote("a signed note is its text, a blank line, then signature lines")
    lines = block[:-1].split("\n")
    if len(lines) > MAX_SIGNATURES:
        raise MalformedNote(f"a signed note carries at most {MAX_SIGNATURES} signatures")
    return Note(text, tuple(_signature(line) for line in lines))


def _signature(line: str) -> Signature:
    name, _, encoded = line.removeprefix(DASH).partition(" ")
    try:
        raw = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if not line.startswith(DASH) or not valid_name(name) or len(raw) < 5:
        raise MalformedNote(f"not a signature line: {line[:60]!r}")
    return Signature(name, raw[:4], raw[4:])


def verified_by(note: Note, verifiers: Iterable[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """The verifiers (key name, Ed25519 public key) whose signature on the note verifies. A
    signature from a key no verifier knows (another name or key ID) is ignored; one from a known
    key that does not verify raises BadSignature (the spec rejects the whole note)."""
    known = {(name, key_id(name, raw)): (name, raw) for name, raw in verifiers}
    found: list[tuple[str, bytes]] = []
    for signature in note.signatures:
        verifier = known.get((signature.name, signature.key_id))
        if verifier is None or verifier in found:
            continue
        try:
            Ed25519PublicKey.from_public_bytes(verifier[1]).verify(
                signature.signature, note.text.encode()
            )
        except InvalidSignature:
            raise BadSignature(
                f"the signature of key {signature.name}+{signature.key_id.hex()} does not verify"
            ) from None
        found.append(verifier)
    return found
