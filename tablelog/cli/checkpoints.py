"""Signing keys, signed checkpoints, receipts and their verification (docs/audit.md).

    tablelog keys init|show|rotate|trust      this recorder's key pair, the store's trusted keys
    tablelog checkpoint [--publish DIR]       sign a C2SP checkpoint of the store now (and keep it)
    tablelog receipt MATCH [--json|--qr PNG]  the match's signed receipt
    tablelog verify RECEIPT [--store|--record FILE --key PEM]

`verify` exits 0 when the receipt verifies, 1 when it does not, 2 when something given cannot be
read (a malformed receipt, a wrong key file).
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast
from uuid import UUID

import click

from tablelog import keys as keyfiles
from tablelog.domain.integrity import receipt_text, signed_note
from tablelog.domain.integrity.checkpoints import (
    BadReceipt,
    NotVerified,
    check_head_shape,
    checkpoint_head,
    key_id,
    public_pem,
    public_raw_from_text,
    verifier_key_name,
)
from tablelog.domain.integrity.signed import SigningRecorder
from tablelog.domain.matches import rulings
from tablelog.domain.plain import PlainDict
from tablelog.domain.quoting import quoted
from tablelog.domain.recording.stored import not_signed
from tablelog.domain.recording.users import signing_person, users_of
from tablelog.files import LARGE, Given, filled, read_file, written
from tablelog.store import open_recorder

from . import main
from .options import (
    InputFile,
    OutputFile,
    OutputFolder,
    echo_json,
    json_option,
    parse_json,
    store_option,
)
from .stats import open_match

if TYPE_CHECKING:
    from tablelog.domain.matches.match import Match
    from tablelog.domain.recording.recorder import Recorder
    from tablelog.domain.recording.users import User

origin_option = click.option(
    "--origin",
    metavar="NAME",
    help="The name of the store's log, on the first line of every checkpoint and as the "
    "signatures' key name (e.g. club.example.org/tablelog); only before the store's first "
    "C2SP checkpoint, which keeps it for good (default: tablelog/ and 16 random hex digits).",
)

user_option = click.option(
    "--user",
    metavar="NAME",
    help="A person of the store (an umpire): their own key, which signs their rulings.",
)


@main.group()
def keys() -> None:
    """This recorder's Ed25519 signing key (kept outside the store) and the keys a store trusts."""


@keys.command()
@click.option(
    "--label",
    metavar="TEXT",
    help="Who holds the key, as the store shows it "
    "(e.g. 'club server', 'umpire's laptop'); default: the user and the day.",
)
@origin_option
@user_option
@store_option
def init(label, origin, user, store):
    """Make a key pair, trust its public key in the store, and sign a first checkpoint; with
    --user, a person's own key, for their signed rulings."""
    recorder = open_recorder(store)
    if user is not None:
        init_person(recorder, user)
        return
    signer, _ = keyfiles.create_key()
    recorder.ledger.trust(signer.key_id, signer.public_raw, label or keyfiles.label())
    head = recorder.checkpoint(origin)
    click.echo(
        f"key {signer.key_id} written to {keyfiles.key_path()} (mode 0600: keep it "
        "there, never in the store)"
    )
    click.echo(f"the store trusts it; checkpoint 1 signs its {head['size']} events")
    echo_public(signer, head.get("origin"))


def init_person(recorder: Recorder, name: str) -> None:
    """`keys init --user NAME`: a key pair for the person, the store trusting it for them."""
    people = users_of(recorder)
    user = signing_person(people.named(name))
    signer, path = keyfiles.create_person_key(user.id, user.name)
    people.trust_key(name, signer.key_id, signer.public_raw)
    click.echo(
        f"key {signer.key_id} for {user.name} written to {path} (mode 0600: it signs their "
        "rulings where they enter them; keep it there, never in the store)"
    )
    click.echo(f"the store trusts it for {user.name}'s rulings; their public key, for verifiers:")
    echo_person_public(user, signer.public_raw)


def echo_person_public(user: User, public_raw: bytes) -> None:
    click.echo(public_pem(public_raw), nl=False)
    click.echo(signed_note.verifier_key(rulings.key_name(user.id), public_raw))


@keys.command()
@click.option(
    "--public",
    "public_only",
    is_flag=True,
    help="Print only this recorder's public key (PEM), to hand to verifiers.",
)
@user_option
@store_option
def show(public_only, user, store):
    """This recorder's key id and public key, and the keys the store trusts; with --user, the
    public keys the store trusts for that person's rulings."""
    if user is not None:
        people = users_of(open_recorder(store))
        found = people.named(user)
        trusted = people.person_keys(found.id)
        if not trusted:
            raise BadReceipt(f"the store trusts no key for {found.name} (`keys init --user`)")
        for key, raw in trusted.items():
            if not public_only:
                click.echo(f"key {key}, trusted for {found.name}'s rulings")
            echo_person_public(found, raw)
        return
    signer = keyfiles.load_signer()
    if public_only and signer is None:
        raise BadReceipt(f"no signing key at {keyfiles.key_path()} (`tablelog keys init`)")
    ledger = open_recorder(store).ledger
    if public_only:
        echo_public(signer, ledger.origin())
        return
    click.echo(
        f"this recorder: key {signer.key_id} ({keyfiles.key_path()})"
        if signer
        else f"this recorder: no key ({keyfiles.key_path()} does not exist)"
    )
    if signer:
        echo_public(signer, ledger.origin())
    rows = ledger.key_rows()
    click.echo("the store trusts: " + ("nothing yet" if not rows else ""))
    for row in rows:
        click.echo(f"  {row['key']}  {row['label']}")


@keys.command()
@click.option(
    "--label",
    metavar="TEXT",
    help="Who holds the key, as the store shows it "
    "(e.g. 'club server', 'umpire's laptop'); default: the user and the day.",
)
@store_option
def rotate(label, store):
    """Replace this recorder's key with a new one (the old file is kept beside it), trust the
    new one in the store and sign a checkpoint with it; old checkpoints keep verifying."""
    recorder = open_recorder(store)
    recorder.signer()  # the old key must be one the store trusts, or nothing changes
    signer, kept = keyfiles.create_key(replace=True)
    recorder.ledger.trust(signer.key_id, signer.public_raw, label or keyfiles.label())
    head = recorder.checkpoint()
    click.echo(f"new key {signer.key_id}; the old one is kept in {kept}")
    click.echo(f"checkpoint of {head['size']} events signed with the new key")
    echo_public(signer, head.get("origin"))


def echo_public(signer: Any, origin: str | None) -> None:
    """The public key as PEM, then as the note verifier key of the store's log (NAME+ID+KEY:
    what golang.org/x/mod/sumdb/note and witnesses take), once the log has a name."""
    click.echo(public_pem(signer.public_raw), nl=False)
    if origin is None:
        click.echo(
            "(no verifier key yet: this store has signed no C2SP checkpoint; "
            "`tablelog checkpoint` signs one)",
            err=True,
        )
    else:
        click.echo(signer.verifier_key(origin))


@keys.command()
@click.argument("public_key", type=InputFile("the public key"), required=False)
@click.option(
    "--label",
    metavar="TEXT",
    help="Who holds the key, as the store shows it "
    "(e.g. 'club server', 'umpire's laptop'); default: the user and the day.",
)
@store_option
def trust(public_key, label, store):
    """Trust another recorder's public key (a PEM file from `keys show --public`) in the store;
    without a file, this recorder's own."""
    recorder = open_recorder(store)
    if public_key is None:
        signer = keyfiles.load_signer()
        if signer is None:
            raise BadReceipt("this recorder has no key: give a PUBLIC_KEY file")
        raw = signer.public_raw
    else:
        raw = public_raw_from_text(public_key.text(), f"the public key {quoted(public_key.name)}")
    added = recorder.ledger.trust(key_id(raw), raw, label or keyfiles.label())
    click.echo(f"the store {'now trusts' if added else 'already trusted'} key {key_id(raw)}")


@main.command()
@click.option(
    "--publish",
    "directory",
    type=OutputFolder("the heads folder"),
    metavar="DIR",
    help="Also write the checkpoint to DIR as head-<size>.checkpoint (a folder the club "
    "mails around or commits to a git repository).",
)
@origin_option
@json_option
@store_option
def checkpoint(directory, origin, as_json, store):
    """Sign a checkpoint over every event stored now (the latest if nothing is new): a C2SP
    tlog-checkpoint, signed as a C2SP note with Ed25519."""
    recorder = open_recorder(store)
    if directory:
        with filled(directory, "the signed head") as scratch:
            head = recorder.checkpoint(origin)
            path = directory / f"head-{head['size']:012d}.checkpoint"
            (scratch / path.name).write_text(head["checkpoint"], encoding="utf-8")
    else:
        head = recorder.checkpoint(origin)
    if as_json:
        echo_json(head)
        return
    click.echo(
        f"checkpoint of {head['size']} events, signed {head['time']} by key {head['key']}"
        + (f"; written to {path}" if directory else "")
    )
    click.echo()
    click.echo(head["checkpoint"], nl=False)


@main.command()
@click.argument("match")
@click.option(
    "--qr",
    "qr_file",
    type=OutputFile("the QR code"),
    metavar="FILE",
    help="Also write the short receipt as a QR code (.png or .svg).",
)
@click.option("--short", is_flag=True, help="Leave the proof out (a store supplies it).")
@json_option
@store_option
def receipt(match, qr_file, short, as_json, store):
    """The match's signed receipt: the newest signed head and the proof that the match's newest
    signed event is in it. Keep it (text, JSON or a photo); `tablelog verify` checks it."""
    recorder, match_id = open_match(store, match)
    assert isinstance(recorder, SigningRecorder)  # what open_recorder opens
    found = recorder.receipt(match_id, proof=not short)
    if found is None:
        raise BadReceipt(
            f"no checkpoint covers match {str(match_id)[:8]} yet (`tablelog checkpoint` signs one)"
        )
    if qr_file:
        _write_qr(receipt_text.to_text(found), qr_file)
    if as_json:
        echo_json(found)
    else:
        click.echo(receipt_text.to_text(found, proof=not short), nl=False)


def _write_qr(text: str, name: str) -> None:
    import segno

    kind = "svg" if name.lower().endswith(".svg") else "png"
    if name != "-" and not name.lower().endswith((".png", ".svg")):
        raise BadReceipt(f"--qr {quoted(name)}: a QR code is written as .png or .svg")
    with written(name, "the QR code", binary=True) as out:
        segno.make(text, error="m").save(out, kind=kind, scale=4)


def read_receipt(text: str) -> PlainDict:
    """A receipt file's content: JSON, or the text `receipt` prints."""
    if text.lstrip().startswith("{"):
        return parse_json(text, "the receipt", BadReceipt)
    return receipt_text.from_text(text)


def read_keys(files: tuple[Given, ...]) -> dict[str, bytes] | None:
    named = read_named_keys(files)
    return None if named is None else {key: raw for key, (_, raw) in named.items()}


def read_named_keys(files: tuple[Given, ...]) -> dict[str, tuple[str | None, bytes]] | None:
    """Key id -> (the name a verifier key gives it, None for a PEM; its raw public key)."""
    if not files:
        return None
    found = {}
    for given in files:
        text = given.text()
        raw = public_raw_from_text(text, f"the public key {quoted(given.name)}")
        found[key_id(raw)] = (verifier_key_name(text), raw)
    return found


@main.command()
@click.argument("receipt_file", type=InputFile("the receipt"), required=False, metavar="RECEIPT")
@click.option(
    "--record",
    "record_file",
    type=InputFile("the record", LARGE),
    metavar="FILE",
    help="Verify against an exported match record instead of a store (needs --key).",
)
@click.option(
    "--key",
    "key_files",
    type=InputFile("the public key"),
    multiple=True,
    metavar="PEM",
    help="Trust only this public key (repeatable): the store's, and an umpire's for a signed "
    "ruling; default: the store's keys. A verifier key (NAME+ID+KEY) must name this log.",
)
@store_option
@click.pass_context
def verify(ctx, receipt_file, record_file, key_files, store):
    """Check a receipt: the head's signature, the inclusion proof, and that the store (or an
    exported record) still holds the events it signed. Exit 0 verified, 1 not."""
    from tablelog.domain.integrity import verify as verifying

    given = read_receipt(receipt_file.text()) if receipt_file else None
    named = read_named_keys(key_files)
    trusted = None if named is None else {key: raw for key, (_, raw) in named.items()}
    names = {key: name for key, (name, _) in (named or {}).items()}
    try:
        if record_file is not None:
            if trusted is None:
                raise BadReceipt(
                    "verifying against a record needs the recorder's public key (--key PEM)"
                )
            record = _one_record(record_file.text())
            checked = verifying.against_record(record, given, trusted, names)
        else:
            if given is None:
                raise BadReceipt("give a RECEIPT file (or --record FILE)")
            checked = verifying.against_store(open_recorder(store), given, trusted, names)
    except NotVerified as err:
        click.echo(f"NOT VERIFIED: {err}")
        ctx.exit(1)
    click.echo("VERIFIED")
    for line in checked:
        click.echo(f"  {line}")


def _one_record(text: str) -> PlainDict:
    lines = [line for line in text.splitlines() if line.strip()]
    value = parse_json(text if len(lines) != 1 else lines[0], "the record", BadReceipt)
    if not isinstance(value, dict):
        raise BadReceipt("give one exported match record (a JSON object)")
    return value


# ---- what other commands print -------------------------------------------------------------------


def echo_signed(recorder: Any, done: Match) -> None:
    """After end, claim, dispute, resolve: the short signed receipt, or why there is none."""
    unsigned = not_signed(done)
    if unsigned:
        click.echo(f"tablelog: {unsigned}", err=True)
        return
    if getattr(done, "checkpoint", None) is None:
        return
    found = recorder.receipt(done.id, proof=False)
    click.echo(
        "signed receipt (keep it, or `tablelog receipt` it later; `tablelog verify` checks it):"
    )
    click.echo(textwrap.indent(receipt_text.to_text(found), "  "), nl=False)


def read_heads(location: str) -> list[Mapping[str, object]]:
    """Heads kept elsewhere: a folder of head files, or one file (a C2SP checkpoint, a head, a
    JSON list of heads, or JSON Lines); each file read with a bound, every head's shape checked."""
    path = Path(location).expanduser()
    files = (
        sorted([*path.glob("*.json"), *path.glob("*.checkpoint")])
        if os.path.isdir(path)
        else [path]
    )
    heads: list[object] = []
    for file in files:
        text = read_file(file, "the heads file").text()
        what = f"the heads file {quoted(str(file))}"
        if not text.lstrip().startswith(("{", "[")):  # a C2SP checkpoint (a signed note)
            heads.append(checkpoint_head(text))
            continue
        try:
            value = parse_json(text, what, BadReceipt)
        except BadReceipt:
            lines = [line for line in text.splitlines() if line.strip()]
            if len(lines) < 2:
                raise
            value = [
                parse_json(line, f"{what}, line {number},", BadReceipt)
                for number, line in enumerate(lines, start=1)
            ]
        heads.extend(value if isinstance(value, list) else [value])
    return [check_head_shape(head) for head in heads]


class HeadsSource(click.ParamType):
    """`audit --against`: the heads, read when the command line is read."""

    name = "heads"

    def convert(
        self,
        value: str | list[Mapping[str, object]],
        param: click.Parameter | None,
        ctx: click.Context | None,
    ) -> list[Mapping[str, object]]:
        return value if isinstance(value, list) else read_heads(value)


class LedgerFinding(TypedDict):
    event: int | None
    kind: str
    message: str
    match: NotRequired[str]  # the match it is about, when it is about one


class CheckpointRow(TypedDict):
    checkpoint: int  # its number, from 1
    size: int | None  # events it signs
    time: str | None
    key: str | None  # the signing key's id
    verified: bool


class LedgerReport(TypedDict):
    """The checkpoint audit (`audit_ledger`, `audit_match_ledger`) as `audit` reads it."""

    clean: bool
    findings: list[LedgerFinding]
    notes: list[str]
    keys: list[str]
    uncovered: int | None  # events stored after the newest checkpoint
    checkpoints: list[CheckpointRow]


def audit_checkpoints(
    recorder: Recorder,
    reports: list[dict[str, Any]],
    heads: Sequence[object] | None,
    key_files: tuple[Given, ...],
    everything: bool,
) -> LedgerReport:
    """The checkpoint audit (of the whole log, or of one match by inclusion proofs), its
    findings about each match added to that match's report."""
    from tablelog.domain.integrity.audit_ledger import attach, audit_ledger
    from tablelog.domain.integrity.audit_match_ledger import audit_match_ledger

    heads = heads or []
    if everything:
        report = audit_ledger(recorder, heads, read_keys(key_files))
    else:
        report = audit_match_ledger(
            recorder, UUID(reports[0]["match"]), heads, read_keys(key_files)
        )
    attach(reports, report)
    return cast(LedgerReport, report)  # the domain's plain JSON


def against_given(report: LedgerReport) -> bool:
    return any(note.startswith("consistent with") for note in report["notes"])


def ledger_text(report: LedgerReport) -> str:
    checkpoints = report["checkpoints"]
    if not checkpoints and not report["findings"] and not against_given(report):
        return ""  # a store nobody signs: the audit reads as it always did
    newest = (
        f" (newest: {checkpoints[-1]['size']} events, signed {checkpoints[-1]['time']} "
        f"by key {checkpoints[-1]['key']})"
        if checkpoints
        else ""
    )
    verdict = (
        "CLEAN"
        if report["clean"]
        else f"FAILS: {len(report['findings'])} finding{'s' if len(report['findings']) > 1 else ''}"
    )
    lines = [f"signed checkpoints: {len(checkpoints)}{newest}: {verdict}"]
    lines += [
        f"  ! {finding['message']}"
        + (f" (match {finding['match'][:8]})" if finding.get("match") else "")
        for finding in report["findings"]
    ]
    lines += [f"  note: {note}" for note in report["notes"]]
    return "\n".join(lines) + "\n"
