"""Commands for a disputed result: claim, dispute, resolve (all recorded as events) and audit.

Each write prints its entry inside `after_commit`: once stored, nothing it prints can turn it into
a refusal (see `committed.py`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypedDict, TypeVar

import click

from tablelog.domain.commands import command
from tablelog.domain.integrity import audit as auditing
from tablelog.domain.integrity.audit_text import step
from tablelog.domain.matches.match import Match
from tablelog.domain.plain import PlainMapping
from tablelog.domain.wording import outcome_text

from . import main, write_command
from .checkpoints import HeadsSource, audit_checkpoints, echo_signed, ledger_text
from .committed import after_commit
from .options import InputFile, echo_json, entering, json_option, parse_json, store_option
from .stats import open_match, open_queries

if TYPE_CHECKING:
    from tablelog.domain.recording.recorder import Recorder


def _recorded(recorder: Recorder, done: Match, what: Callable[[], str]) -> None:
    """What was stored, the head hash an organiser can keep to check the log later, and the
    signed receipt: printed once the entry is stored, so a failure here still says it is."""
    with after_commit(done):
        click.echo(f"{step(done.version)}: {what()}")
        click.echo(f"receipt: {done.head_hash}")
        echo_signed(recorder, done)


@write_command("claim")
@click.argument("match")
@click.option(
    "--scores",
    "scores_json",
    required=True,
    metavar="JSON",
    help=command("claim").help("scores") + ' E.g. {"Ann": 43, "Ben": 40}.',
)
@click.option("--by", required=True, metavar="NAME", help=command("claim").help("by"))
@store_option
@entering
def claim(match, scores_json, by, store):
    """A claim is pinned to the move it follows: claims entered after every round form a score
    sheet that lets the audit name the move where the table and the rules parted."""
    scores = parse_json(scores_json, "the claimed scores")
    recorder, match_id = open_match(store, match)
    done = recorder.claim(match_id, by, scores)
    _recorded(recorder, done, lambda: _claimed(by, scores, done))


def _claimed(by: str, scores: PlainMapping, done: Match) -> str:
    written = ", ".join(f"{name} {points}" for name, points in scores.items())
    return f"{by} claims {written} (after move {len(done.moves)})"


@write_command("dispute")
@click.argument("match")
@click.option("--by", required=True, metavar="NAME", help=command("dispute").help("by"))
@click.option("--about", required=True, metavar="TEXT", help=command("dispute").help("about"))
@store_option
@entering
def dispute(match, by, about, store):
    recorder, match_id = open_match(store, match)
    done = recorder.dispute(match_id, by, about)
    _recorded(recorder, done, lambda: f"dispute raised by {by}: {about}")


@write_command("resolve")
@click.argument("match")
@click.option("--by", required=True, metavar="NAME", help=command("resolve").help("by"))
@click.option("--ruling", required=True, metavar="TEXT", help=command("resolve").help("ruling"))
@store_option
@entering
def resolve(match, by, ruling, store):
    recorder, match_id = open_match(store, match)
    done = recorder.resolve(match_id, by, ruling)
    signature = getattr(getattr(done, "_head_event", None), "signature", None)
    signed = (
        f" (signed with {signature['user']['name']}'s own key {signature['key']})"
        if signature
        else ""
    )
    _recorded(recorder, done, lambda: f"dispute ruled by {by}: {ruling}{signed}")


@main.command()
@click.argument("match", required=False)
@click.option("--all", "everything", is_flag=True, help="Audit every match in the store.")
@click.option(
    "--head",
    metavar="HASH",
    help="A receipt (head hash) kept earlier: check the log still holds that event.",
)
@click.option(
    "--moves-from",
    type=click.IntRange(min=1),
    metavar="N",
    help="List the running scores from move N (JSON `moves`, 1,000 at a time; "
    "default: the newest 1,000). Every move is checked either way.",
)
@click.option(
    "--against",
    metavar="HEADS",
    type=HeadsSource(),
    help="Signed heads kept outside the store (a folder of `checkpoint --publish` "
    "files, or one file): check the store is consistent with every one.",
)
@click.option(
    "--key",
    "key_files",
    type=InputFile("the public key"),
    multiple=True,
    metavar="PEM",
    help="Trust only this public key for checkpoints (repeatable); default: the "
    "keys the store lists.",
)
@json_option
@store_option
@click.pass_context
def audit(ctx, match, everything, head, moves_from, against, key_files, as_json, store):
    """Replay a match, recompute every score, verify the hash chain, compare claims with the
    rules, and list undos and disputes. Exit status 0 when clean, 1 when anything is wrong."""
    if bool(match) == everything:
        raise click.UsageError("give a MATCH or --all")
    if head and everything:
        raise click.UsageError("--head checks one match: give a MATCH")
    queries = open_queries(store)  # its recorder: a match found damaged is quarantined
    recorder = queries.recorder
    if everything:
        reports = auditing.audit_all(recorder)["matches"]
    else:
        # found through the tables, where a match whose start row is damaged is still named
        reports = [auditing.audit_match(recorder, queries.find(match), head, moves_from)]
    signed = audit_checkpoints(recorder, reports, against, key_files, everything)
    clean = all(report["clean"] for report in reports) and signed["clean"]
    if as_json:
        echo_json(
            {"clean": clean, "matches": reports, "checkpoints": signed}
            if everything
            else {**reports[0], "checkpoints": signed}
        )
    else:
        for report in reports:
            click.echo(text_report(report))
        click.echo(ledger_text(signed), nl=False)
        if everything:
            click.echo(summary_line(reports))
    ctx.exit(0 if clean else 1)


# ---- the report as an organiser reads it -------------------------------------------------------
# The parts of `auditing.audit_match`'s report (JSON: `audit --json`) that the text reads.


class _Finding(TypedDict):
    kind: str
    event: int | None  # None: of the match as a whole
    message: str  # names its steps


class _Head(TypedDict):
    event: int
    hash: str | None  # None: the last event does not decode


class _Scores(TypedDict):
    after_move: int
    totals: dict[str, float] | None  # by name; empty or None when the rules cannot score
    unknown: str | None  # why not


class _Outcomes(TypedDict):
    recorded: Mapping[str, object] | None  # the outcome by name (`views.named_outcome`)
    rules: Mapping[str, object] | None


class _Claim(TypedDict):
    event: int
    by: str
    at: str  # ISO time
    scores: Mapping[str, object]  # the claimed points by name
    after_move: int | None
    agrees: bool | None  # None: cannot be checked


class _Withdrawn(TypedDict):
    move: int
    event: int
    seat: str
    described: str


class _Undo(TypedDict):
    event: int
    by: str
    at: str
    reason: str
    withdrew: _Withdrawn | None


class _OpenDispute(TypedDict):
    event: int
    by: str
    at: str
    about: str
    after_move: int | None
    raised_by: str  # who entered it
    move_entered_by: str | None  # who entered the disputed move (None: no move yet)
    ruling: None
    resolved_by: None
    resolved_at: None
    resolved_event: None
    ruling_entered_by: None
    signed: None


class _ResolvedDispute(TypedDict):
    event: int
    by: str
    at: str
    about: str
    after_move: int | None
    raised_by: str
    move_entered_by: str | None
    ruling: str
    resolved_by: str
    resolved_at: str
    resolved_event: int
    ruling_entered_by: str
    signed: str | None  # an umpire's signed ruling, in words


class _Abandoned(TypedDict):
    event: int
    by: str
    at: str
    reason: str


class AuditReport(TypedDict):
    match: str
    game: str | None
    seats: list[str]
    started_at: str | None
    status: str
    clean: bool
    events: int
    head: _Head
    findings: list[_Finding]
    planted: list[_Finding]  # the demo store's examples: they fail nothing
    notes: list[str]
    scores: _Scores | None  # None: not replayed
    claims: list[_Claim]
    undos: list[_Undo]
    disputes: list[_OpenDispute | _ResolvedDispute]
    outcome: _Outcomes
    abandoned: _Abandoned | None


PLANTED = (
    "the log is intact; what follows is an example the demo store planted to show what the "
    "audit finds (recorded by a name marked (demo)), not a fault in this store"
)


def summary_line(reports: list[AuditReport]) -> str:
    """`audit --all`'s last line: how many are clean, which fail, which hold the demo's
    planted examples (clean all the same)."""
    failing = [r["match"][:8] for r in reports if not r["clean"]]
    planted = [r["match"][:8] for r in reports if r["clean"] and r.get("planted")]
    line = (
        f"{len(reports)} match{'es' if len(reports) != 1 else ''} audited: "
        f"{len(reports) - len(failing)} clean"
    )
    if planted:
        line += (
            f" ({len(planted)} of them holding the demo's planted examples, "
            f"{', '.join(planted)}: not faults)"
        )
    if failing:
        line += f", {len(failing)} with findings ({', '.join(failing)})"
    return line


def text_report(report: AuditReport) -> str:
    lines = [
        f"{report['game'] or 'unknown game'} match {report['match']}  "
        f"{', '.join(report['seats'])}  [{report['status']}]"
        + (f"  started {_time(report['started_at'])}" if report["started_at"] else "")
    ]
    findings, planted = report["findings"], report.get("planted", [])
    if not report["clean"]:
        lines.append(f"  FAILS: {len(findings)} finding{'s' if len(findings) > 1 else ''}")
    elif planted:
        lines.append(f"  DEMO: {PLANTED}")
    else:
        lines.append("  CLEAN: the log is intact and every result holds")
    lines += [f"  ! {finding['message']}" for finding in findings]  # each names its steps
    lines += [f"  ! (the demo's example) {finding['message']}" for finding in planted]
    for note in report["notes"]:
        lines.append(f"  note: {note}")
    head = report["head"]
    lines.append(
        f"  log: {report['events']} events; the last, {step(head['event'])}, hashes to "
        f"{head['hash'] or '(undecodable)'} (keep it as a receipt: audit --head HASH)"
    )
    lines += _result_lines(report)
    lines += _section("claims", report["claims"], _claim_line)
    lines += _section("undos", report["undos"], _undo_line)
    lines += _section("disputes", report["disputes"], _dispute_line)
    if report["abandoned"]:
        gone = report["abandoned"]
        lines.append(
            f"  abandoned by {gone['by']} at {_time(gone['at'])} ({step(gone['event'])}): "
            f"{gone['reason']}"
        )
    return "\n".join(lines) + "\n"


def _result_lines(report: AuditReport) -> list[str]:
    lines = []
    scores = report["scores"]
    if scores and scores["totals"]:
        totals = ", ".join(f"{name} {points}" for name, points in scores["totals"].items())
        lines.append(f"  scores by the rules after move {scores['after_move']}: {totals}")
    elif scores:
        lines.append(f"  scores cannot be recomputed: {scores['unknown']}")
    outcome = report["outcome"]
    if outcome["rules"]:
        lines.append(f"  result by the rules: {outcome_text(outcome['rules'])}")
    if outcome["recorded"]:
        lines.append(f"  result recorded at the end: {outcome_text(outcome['recorded'])}")
    return lines


T = TypeVar("T")  # an entry of the report: a claim, an undo, a dispute


def _section(title: str, entries: list[T], line: Callable[[T], str]) -> list[str]:
    return [f"  {title}:", *(f"    {line(entry)}" for entry in entries)] if entries else []


def _claim_line(claim: _Claim) -> str:
    written = ", ".join(f"{name} {points}" for name, points in claim["scores"].items())
    verdict = {
        True: "agrees with the rules",
        False: "DIFFERS from the rules",
        None: "cannot be checked",
    }[claim["agrees"]]
    after = f", after move {claim['after_move']}" if claim["after_move"] is not None else ""
    return (
        f"{step(claim['event'])}, {claim['by']} at {_time(claim['at'])}{after}: "
        f"{written} - {verdict}"
    )


def _undo_line(undo: _Undo) -> str:
    withdrew = undo["withdrew"]
    what = (
        f"withdrew move {withdrew['move']} ({withdrew['seat']} {withdrew['described']})"
        if withdrew
        else "withdrew a move"
    )
    return f"{step(undo['event'])}, {undo['by']} at {_time(undo['at'])}: {what}: {undo['reason']}"


def _dispute_line(dispute: _OpenDispute | _ResolvedDispute) -> str:
    after = f", after move {dispute['after_move']}" if dispute["after_move"] is not None else ""
    entered = (
        f" (move entered by {dispute['move_entered_by']})" if dispute["move_entered_by"] else ""
    )
    raised = (
        f"{step(dispute['event'])}, {dispute['by']} at {_time(dispute['at'])}{after}{entered}: "
        f"{dispute['about']} [raised by {dispute['raised_by']}]"
    )
    if dispute["ruling"] is None:
        return raised + " - STILL OPEN"
    return (
        f"{raised} - ruled by {dispute['resolved_by']} at {_time(dispute['resolved_at'])} "
        f"({step(dispute['resolved_event'])}): {dispute['ruling']} "
        f"[entered by {dispute['ruling_entered_by']}"
        + (f"; {dispute['signed']}]" if dispute.get("signed") else "]")
    )


def _time(iso: str) -> str:
    return iso.replace("T", " ").replace("+00:00", " UTC")
