"""The recorder that signs: a checkpoint after every `end`, `claim`, `dispute` and `resolve`,
and on demand.

The key is loaded and checked against the keys the store trusts BEFORE the command runs, so a
missing, unreadable or untrusted key refuses the command with nothing stored. The checkpoint is
signed after the command's events are saved (it signs what the store holds, so it must see them
committed): if signing then fails (a damaged store), the events stay stored, the match carries
`checkpoint_error`, and the caller reports the entry as stored but unsigned.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any, ParamSpec
from uuid import UUID

from eventsourcing.utils import EnvType

from ..errors import Refused
from ..matches.entering import COMMAND_LINE, ENTERED_BY
from ..matches.match import Match
from ..matches.rulings import PersonSigner
from ..recording.recorder import Recorder
from ..recording.users import UMPIRE, users_of
from .checkpoints import Signer
from .ledger import Ledger

P = ParamSpec("P")


class SigningRecorder(Recorder):
    name = "tablelog"  # the library names a subclass's tables after it otherwise: same store

    def __init__(
        self,
        env: EnvType | None = None,
        *,
        key_source: Callable[[], Signer | None] | None = None,
        person_key_source: Callable[[str], Signer | None] | None = None,
    ) -> None:
        super().__init__(env)
        self.key_source = key_source or (lambda: None)
        self.person_key_source = person_key_source or (lambda user_id: None)

    @cached_property
    def ledger(self) -> Ledger:
        return Ledger(self)

    def signer(self) -> Signer | None:
        """This recorder's key, checked to be one the store trusts; None when the recorder has
        no key or the store trusts none (it is not signed)."""
        signer = self.key_source()
        if signer is None:
            return None
        trusted = self.ledger.trusted_keys()
        if not trusted:
            return None  # a store nobody set up for signing (`keys init` trusts a first key)
        if signer.key_id not in trusted:
            raise Refused(
                f"this recorder's key {signer.key_id} is not one the store trusts: "
                "`tablelog keys trust` it there (or `tablelog keys init` on a new "
                "store); nothing was stored"
            )
        return signer

    def checkpoint(self, origin: str | None = None) -> dict[str, Any]:
        """Sign a checkpoint over everything stored now (the latest, if nothing is new); a
        store's first one names its log `origin` (default: a new unique name)."""
        signer = self.signer()
        if signer is None:
            raise Refused(
                "nothing to sign with: this recorder has no key, or the store trusts "
                "none (`tablelog keys init` makes a key and trusts it here)"
            )
        return self.ledger.sign(signer, origin)

    def _signed(self, command: Callable[P, Match], *args: P.args, **kwargs: P.kwargs) -> Match:
        signer = self.signer()
        done = command(*args, **kwargs)
        done.checkpoint, done.checkpoint_error = None, None
        if signer is not None:
            try:
                done.checkpoint = self.ledger.sign(signer)
            except Exception as err:  # noqa: BLE001 - the entry is stored: say so, unsigned
                done.checkpoint_error = str(err) or type(err).__name__
        return done

    def claim(
        self, match_id: UUID | str, by: str, scores: object, expected_version: int | None = None
    ) -> Match:
        return self._signed(super().claim, match_id, by, scores, expected_version)

    def dispute(
        self, match_id: UUID | str, by: str, about: str, expected_version: int | None = None
    ) -> Match:
        return self._signed(super().dispute, match_id, by, about, expected_version)

    def resolve(
        self,
        match_id: UUID | str,
        by: str,
        ruling: str,
        expected_version: int | None = None,
        signer: PersonSigner | None = None,
    ) -> Match:
        """Signed with the key of the umpire entering it, when this machine holds one."""
        signer = signer or self.person_signer()
        return self._signed(super().resolve, match_id, by, ruling, expected_version, signer)

    def person_signer(self) -> PersonSigner | None:
        """The key of the person entering now, when they are an umpire (or admin) of the store
        with a key it trusts for them, and this machine holds it: their rulings are signed with
        it (domain.matches.rulings). A key here that the store does not trust for them refuses."""
        who = ENTERED_BY.get()
        if not who:
            return None
        people = users_of(self)
        user_id, name = who.get("id"), who.get("name")
        user = (
            people.by_id(user_id)
            if isinstance(user_id, str) and user_id
            else people.find(name)
            if isinstance(name, str) and who.get("via") == COMMAND_LINE
            else None
        )
        if user is None or not user.may(UMPIRE):
            return None
        trusted = people.person_keys(user.id)
        signer = self.person_key_source(user.id) if trusted else None
        if signer is None:
            return None
        if signer.key_id not in trusted:
            raise Refused(
                f"{user.name}'s key {signer.key_id} here is not one the store trusts for them "
                "(`tablelog keys init --user` made it for another store?); nothing was stored"
            )
        return PersonSigner(user.entered_by, signer)

    def end(
        self, match_id: UUID | str, agreed_draw: bool = False, expected_version: int | None = None
    ) -> Match:
        return self._signed(super().end, match_id, agreed_draw, expected_version)

    def receipt(self, match_id: UUID | str, proof: bool = True) -> dict[str, Any] | None:
        """The signed receipt of the match's newest event a checkpoint covers."""
        return self.ledger.receipt(match_id, proof)

    def export(self, match_id: UUID | str) -> dict[str, Any]:
        """The record, carrying the receipt of its newest signed event when a checkpoint covers
        it, so it verifies without the store (docs/records.md, `receipt`)."""
        record = super().export(match_id)
        receipt = self.ledger.receipt(match_id) if self.ledger.heads_exist() else None
        if receipt is not None:
            record["receipt"] = receipt
        return record


def with_receipt(recorder: Recorder, match: Match) -> Match:
    """The match, carrying `signed_receipt`: the receipt of its newest signed event (with its
    proof), or None where nothing signs this store or no checkpoint covers the match yet."""
    receipt = None
    if isinstance(recorder, SigningRecorder) and recorder.ledger.heads_exist():
        receipt = recorder.receipt(match.id)
    match.signed_receipt = receipt
    return match
