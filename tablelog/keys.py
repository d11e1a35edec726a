"""Where a recorder's signing key lives: never in the store.

In order: `$TABLELOG_SIGNING_KEY` (the private key's PEM text itself, for a server whose secrets
come from its environment), `$TABLELOG_KEY_FILE` (a path), or `signing-key.pem` in the user's
config directory (`~/.config/tablelog/` on Linux), written with mode 0600. No key anywhere means
the recorder does not sign; a key that is there but unreadable is a refusal, before anything is
stored.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import platformdirs
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablelog.domain.errors import Refused
from tablelog.domain.integrity.checkpoints import Signer
from tablelog.files import read_file

ENV_KEY = "TABLELOG_SIGNING_KEY"
ENV_FILE = "TABLELOG_KEY_FILE"
ENV_PEOPLE = "TABLELOG_PEOPLE_KEYS"


def key_path() -> Path:
    given = os.environ.get(ENV_FILE)
    return (
        Path(given).expanduser()
        if given
        else (platformdirs.user_config_path("tablelog") / "signing-key.pem")
    )


def load_signer() -> Signer | None:
    """This recorder's key, or None when it has none."""
    text = os.environ.get(ENV_KEY)
    where = f"${ENV_KEY}"
    if not text:
        path = key_path()
        if not os.path.exists(path):  # (a name too long for a path is absent too)
            return None
        where = str(path)
        text = read_file(path, "the signing key").text()
    return Signer(_private_key(text, where))


def _private_key(text: str, where: str) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(text.strip().encode(), password=None)
    except (ValueError, TypeError) as err:
        reason = str(err).splitlines()[0] if str(err) else "unreadable"
        raise Refused(f"the signing key {where} is not a PEM private key ({reason})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise Refused(f"the signing key {where} is not an Ed25519 key")
    return key


def create_key(replace: bool = False) -> tuple[Signer, Path | None]:
    """A new key pair written to the key file (mode 0600); with `replace`, the old file is kept
    beside it as signing-key-<key id>.pem (its heads still verify with its public key)."""
    if os.environ.get(ENV_KEY):
        raise Refused(
            f"the signing key comes from ${ENV_KEY}: make a new one with "
            "`tablelog keys init` elsewhere and set the variable to it"
        )
    path = key_path()
    old = load_signer() if path.exists() else None
    if old is not None and not replace:
        raise Refused(
            f"{path} already holds key {old.key_id}: `tablelog keys trust` trusts it "
            "in another store, `tablelog keys rotate` makes a new one"
        )
    if old is None and replace:
        raise Refused(f"no key to rotate at {path}: `tablelog keys init` makes one")
    signer = Signer(Ed25519PrivateKey.generate())
    path.parent.mkdir(parents=True, exist_ok=True)
    kept = None
    if old is not None:
        kept = path.with_name(f"{path.stem}-{old.key_id}{path.suffix}")
        path.rename(kept)
    _write_key(path, signer)
    return signer, kept


def _write_key(path: Path, signer: Signer) -> None:
    pem = signer.private_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(pem)


# ---- a person's own key (an umpire's, for signed rulings: domain.matches.rulings) ----------------


def person_key_path(user_id: str) -> Path:
    """Where a person's key lives on this machine: `$TABLELOG_PEOPLE_KEYS/<their id>.pem`, by
    default `people/` in the user's config directory; the machine that enters their rulings
    (their own laptop, or the club server they resolve through) holds it."""
    given = os.environ.get(ENV_PEOPLE)
    folder = (
        Path(given).expanduser() if given else platformdirs.user_config_path("tablelog") / "people"
    )
    return folder / f"{user_id}.pem"


def load_person_signer(user_id: str) -> Signer | None:
    """The person's key on this machine, or None where it has none."""
    path = person_key_path(user_id)
    if not os.path.exists(path):
        return None
    return Signer(_private_key(read_file(path, "the person's key").text(), str(path)))


def create_person_key(user_id: str, name: str) -> tuple[Signer, Path]:
    """A new key pair for a person, written to their key file (mode 0600)."""
    path = person_key_path(user_id)
    if path.exists():
        raise Refused(f"{path} already holds {name}'s key: the store trusts it already")
    signer = Signer(Ed25519PrivateKey.generate())
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_key(path, signer)
    return signer, path


def label() -> str:
    """How the store remembers who added a key: the user and the day."""
    who = os.environ.get("USER") or "unknown"
    return f"added by {who} on {datetime.now(UTC).date().isoformat()}"
