"""Verifying a receipt: against a store (any copy), or against an exported match record with
only the public key (no store at all).

Each check raises NotVerified naming what failed; a receipt, record or key that cannot even be
read is BadReceipt (a usage error). What a verified receipt proves: the head was signed by the
key; the event's hash is the leaf the proof names in the signed tree; and the event (with,
through its hash chain, every earlier event of the match) is what the store or record holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from ..errors import BadRecord, MatchNotFound, Refused
from ..matches import rulings
from ..matches.match import Match, event_hash
from ..matches.records import from_record
from ..quoting import quoted
from ..recording.recorder import Recorder
from ..recording.users import users_of
from .checkpoints import NotVerified, check_receipt_shape, verify_receipt
from .ledger import Ledger
from .merkle import ProofError, Tree, verify_consistency

CHAIN_KINDS = ("chain", "missing", "undecodable", "receipt", "checkpoint")


def against_store(
    recorder: Recorder,
    receipt: object,
    keys: Mapping[str, bytes] | None = None,
    names: Mapping[str, str | None] | None = None,
) -> list[str]:
    """Verify a receipt against a store; returns what was checked, line by line. `keys` (key id
    -> raw public key, by default the store's) check the checkpoint and any signed rulings;
    `names` are the names the keys were given under (a verifier key's), checked against the
    log's origin."""
    from .audit import audit_match  # the audit imports the recorder: only when verifying

    receipt = check_receipt_shape(receipt)
    check_key_names(receipt, names or {})
    ledger = Ledger(recorder)
    given = keys
    keys = ledger.trusted_keys() if keys is None else keys
    head, tree = receipt["head"], ledger.tree()
    if receipt.get("proof") is None:  # the short text: the store supplies the proof
        if head["size"] > tree.size or receipt["leaf"] >= head["size"]:
            raise NotVerified(
                f"this store's checkpoints cover {tree.size} events, not the "
                f"{head['size']} the receipt's head signed"
            )
        receipt["proof"] = [p.hex() for p in tree.inclusion_proof(receipt["leaf"], head["size"])]
    verify_receipt(receipt, keys)
    done = [
        f"the head of {head['size']} events is signed by key {head['key']} ({head['time']})",
        f"event {receipt['event']} of match {receipt['match']} is leaf {receipt['leaf']} "
        "of the signed tree",
    ]
    match_id = _uuid(receipt["match"])
    try:
        report = audit_match(recorder, match_id, head=receipt["hash"])
    except MatchNotFound:
        raise NotVerified(f"match {match_id} is not in this store: deleted") from None
    broken = [
        f["message"]
        for f in report["findings"]
        if f["kind"] in CHAIN_KINDS and (f["event"] is None or f["event"] <= receipt["event"])
    ]
    if broken:
        raise NotVerified(f"the store no longer holds what the receipt signed: {broken[0]}")
    _check_event_number(recorder, match_id, receipt)
    done.append(f"the store holds that event and the {receipt['event'] - 1} before it, chained")
    people = users_of(recorder)
    stored = recorder.events.get(match_id, lte=receipt["event"] - 1 + Match.INITIAL_VERSION)
    done += signed_rulings_verify(
        [(e.originator_version, e) for e in stored],
        people.person_keys() if given is None else given,
        people.key_owners() if given is None else None,
    )
    done += _consistent(ledger, tree, head)
    return done


def _consistent(ledger: Ledger, tree: Tree, head: Mapping[str, Any]) -> list[str]:
    """The line saying the store's newest checkpoint extends the receipt's head (none when the
    head is the newest), or NotVerified: the log was rewritten."""
    latest = ledger.latest()
    if latest is None or latest[1]["size"] <= head["size"]:
        return []
    newest = latest[1]
    try:
        verify_consistency(
            head["size"],
            newest["size"],
            bytes.fromhex(head["root"]),
            bytes.fromhex(newest["root"]),
            tree.consistency_proof(head["size"], newest["size"]),
        )
    except ProofError:
        raise NotVerified(
            f"the store's newest checkpoint ({newest['size']} events, "
            f"{newest['time']}) does not extend the history the receipt "
            "signed: the log was rewritten"
        ) from None
    return [
        f"the newest checkpoint ({newest['size']} events, {newest['time']}) "
        "extends it (consistency proof)"
    ]


def against_record(
    record: Mapping[str, Any],
    receipt: Mapping[str, Any] | None,
    keys: Mapping[str, bytes],
    names: Mapping[str, str | None] | None = None,
) -> list[str]:
    """Verify a receipt (by default the one the record carries) against an exported record,
    with only the public keys (the store's, and the umpire's for a signed ruling): no store."""
    carried = record.get("receipt") if isinstance(record, Mapping) else None
    if receipt is None:
        if carried is None:
            raise Refused(
                "the record carries no receipt (it was exported before any "
                "checkpoint covered it): give a RECEIPT"
            )
        receipt = carried
    receipt = check_receipt_shape(receipt)
    check_key_names(receipt, names or {})
    if (
        receipt.get("proof") is None
        and isinstance(carried, Mapping)
        and all(carried.get(k) == receipt[k] for k in ("leaf", "hash", "head"))
    ):
        receipt["proof"] = carried.get("proof")
    verify_receipt(receipt, keys)
    try:
        match = from_record(record)
    except BadRecord as err:
        raise NotVerified(f"the record does not hold together: {err}") from None
    events = match.pending_events
    if str(match.id) != receipt["match"]:
        raise NotVerified(f"the receipt is for match {receipt['match']}, the record is {match.id}")
    if (
        len(events) < receipt["event"]
        or event_hash(events[receipt["event"] - 1]) != receipt["hash"]
    ):
        raise NotVerified(
            f"the record's event {receipt['event']} is not the one the receipt "
            "signed: the record was changed"
        )
    head = receipt["head"]
    signed = [(e.originator_version, e) for e in events[: receipt["event"]]]
    return [
        f"the head of {head['size']} events is signed by key {head['key']} ({head['time']})",
        f"event {receipt['event']} of match {receipt['match']} is leaf {receipt['leaf']} "
        "of the signed tree",
        f"the record replays by the rules and its events 1 to {receipt['event']} hash to "
        "that event",
        *signed_rulings_verify(signed, keys, None),
    ]


def check_key_names(receipt: Mapping[str, Any], names: Mapping[str, str | None]) -> None:
    """A key given as a verifier key (`NAME+ID+KEY`) names the log it verifies: a name that is
    neither the checkpoint's origin nor a person's (`person/...`, for rulings) is another log's
    key, so it verifies nothing here, whatever its bytes."""
    origin = receipt["head"].get("origin")
    for name in names.values():
        if name and origin and name != origin and not name.startswith(rulings.NAME_PREFIX):
            raise NotVerified(
                f"the key given for the log {name} is not this log's: the checkpoint's "
                f"origin is {origin}"
            )


def signed_rulings_verify(
    events: Sequence[tuple[int, object]],
    keys: Mapping[str, bytes],
    owners: Mapping[str, str] | None,
) -> list[str]:
    """A line for each signed ruling among the events, checked with `keys` (and, against a
    store, with the key trusted for the person the signature names); NotVerified otherwise."""
    lines = []
    for ruling in rulings.signed_rulings(events):
        try:
            lines.append(rulings.verify(ruling, keys))
        except rulings.RulingNotVerified as err:
            raise NotVerified(str(err)) from None
        owner = None if owners is None else owners.get(ruling.signature["key"])
        if owners is not None and owner != ruling.signature["user"]["id"]:
            raise NotVerified(
                f"the key {ruling.signature['key']} is not one this store trusts for "
                f"{ruling.who}: the ruling at step {ruling.step} is signed by someone else"
            )
    return lines


def _check_event_number(recorder: Recorder, match_id: UUID, receipt: Mapping[str, Any]) -> None:
    """The receipt's event number names the event whose hash it signed: the audit checked that
    the hash is in the match, and this that it is the event at that number (a receipt with
    another number would otherwise verify, printing a false count of events before it)."""
    number = receipt["event"]
    version = number - 1 + Match.INITIAL_VERSION
    at = recorder.events.get(match_id, gt=version - 1, lte=version) if number >= 1 else []
    found = next(iter(at), None)
    if found is None or event_hash(found) != receipt["hash"]:
        raise NotVerified(
            f"the store's event {number} of match {match_id} is not the one the receipt "
            "signed: the receipt names another event"
        )


def _uuid(text: str) -> UUID:
    try:
        return UUID(text)
    except ValueError:
        raise Refused(f"the receipt's match {quoted(text)} is not a match id") from None
