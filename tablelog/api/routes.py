"""The route table: every endpoint of /api/v1, declared once, with what it does.

Each `@endpoint(...)` declares the method, the path (an OpenAPI path template), its parameters,
the request schema it takes, the answers it gives and whether it writes; the OpenAPI document
(`openapi.py`) and the Flask routes (`server.py`) are both generated from this table. A handler
receives the `Service` and the parsed parameters (and `body`), and returns the JSON value of its
answer, or a `Reply` when the status is not 200. It raises the recorder's and the rules' own
refusals; `errors.py` turns them into answers. A handler that writes returns `Written` as soon as
the store has committed: the answer is made from it afterwards (`server.py`), so that nothing
failing then can turn a stored entry into an error.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Required, TypedDict, TypeVar, Unpack
from uuid import UUID

from tablelog.domain.commands import command, said
from tablelog.domain.games import GAMES
from tablelog.domain.integrity import audit as auditing
from tablelog.domain.integrity.audit_ledger import attach
from tablelog.domain.integrity.audit_match_ledger import audit_match_ledger
from tablelog.domain.integrity.signed import with_receipt
from tablelog.domain.matches import views
from tablelog.domain.matches.match import RUNNING, SHEET, Match
from tablelog.domain.plain import PlainDict, PlainMapping, PlainValue
from tablelog.domain.recording.recorder import Recorder
from tablelog.domain.recording.stored import not_signed
from tablelog.projections.queries import Queries

from .errors import ApiError
from .schemas import Schema, match_move_schema
from .validation import check, move_validator

PREFIX = "/api/v1"
AT_MOST = 1_000_000_000  # a bound for counts in queries (the store's integers are 64-bit)


@dataclass(frozen=True)
class Param:
    name: str
    where: str  # "path" or "query"
    schema: Schema
    description: str
    required: bool = False  # a path parameter always is


@dataclass(frozen=True)
class Reply:
    status: int
    body: PlainValue | PlainMapping  # a JSON value, or a JSON object only read
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Written:
    """A write the store has committed: the match it wrote (`done`; None for a new match, read
    back to answer), the status to answer with, and what already went wrong after the commit.
    Whatever fails while the answer is made from it still answers this status, saying what
    failed (`warnings`): the entry is stored, and an error would have the client enter it
    again."""

    match_id: UUID
    done: Match | None = None
    status: int = 200
    warnings: tuple[str, ...] = ()

    def headers(self) -> dict[str, str]:
        return {"Location": f"{PREFIX}/matches/{self.match_id}"} if self.status == 201 else {}

    def state(self, service: Service) -> PlainDict:
        """The full answer: the match's state after the entry, with its signed receipt."""
        match = self.done if self.done is not None else service.recorder.get(self.match_id)
        return match_state(with_receipt(service.recorder, match))

    def certain(self) -> PlainDict:
        """What is known without reading or rendering anything: the id, and for an entry the
        match's version and receipt (the hash of the event just stored)."""
        if self.done is None:
            return {"id": str(self.match_id)}
        return {
            "id": str(self.match_id),
            "version": self.done.version,
            "receipt": self.done.head_hash,
        }


@dataclass(frozen=True)
class Answer:
    """A documented answer: its status, the schema of its body, what it means."""

    status: int
    schema: str
    description: str
    headers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str
    operation_id: str
    tag: str
    summary: str
    description: str
    handler: Callable[..., Handled]
    params: tuple[Param, ...]
    body: str | None
    answers: tuple[Answer, ...]
    write: bool
    command: str | None = None  # the write command it runs (tablelog.domain.commands)


Handled = PlainMapping | Written | Reply
"""What a handler returns: its answer's JSON object, or a committed write, or another status."""
H = TypeVar("H", bound=Callable[..., Handled])

ENDPOINTS: list[Endpoint] = []


class Answers(TypedDict, total=False):
    """What a write endpoint declares besides its command (`endpoint`'s keywords)."""

    ok: Required[Answer]
    params: tuple[Param, ...]
    refusals: tuple[Answer, ...]


def endpoint(
    method: str,
    path: str,
    tag: str,
    summary: str,
    *,
    ok: Answer,
    params: tuple[Param, ...] = (),
    body: str | None = None,
    refusals: tuple[Answer, ...] = (),
    command: str | None = None,
) -> Callable[[H], H]:
    """Declare the decorated handler as the endpoint `method path`; with `command`, the write
    command it runs, whose line begins its description."""

    def register(handler: H) -> H:
        doc = (handler.__doc__ or summary).strip()
        ENDPOINTS.append(
            Endpoint(
                method=method,
                path=path,
                operation_id=handler.__name__,
                tag=tag,
                summary=summary,
                description=doc if command is None else said(command, handler.__doc__),
                handler=handler,
                params=params,
                body=body,
                answers=(ok, *refusals),
                write=body is not None,
                command=command,
            )
        )
        return handler

    return register


def write_endpoint(
    name: str, path: str, tag: str, *, body: str, **answers: Unpack[Answers]
) -> Callable[[H], H]:
    """Declare the decorated handler as the POST that runs write command `name`: its summary
    and the first line of its description are the command table's."""
    return endpoint("POST", path, tag, command(name).title, body=body, command=name, **answers)


# ---- what the handlers share ---------------------------------------------------------------------


class Service:
    """One store's recorder (the write side) and its query service (the read side: finding a
    match by prefix, the list and the statistics, from the projection tables)."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.queries = Queries(recorder)

    def match_id(self, text: str) -> UUID:
        return self.queries.find(text)

    def get(self, text: str, at: int | None = None) -> Match:
        return with_receipt(self.recorder, self.recorder.get(self.match_id(text), at))

    def write(self, text: str, version: int | None, command: str, *args: object) -> Written:
        """Run one recorder command (`record`, `undo`, ... `abandon`) on the match named by
        `text`; with `version`, only if the match is still at that version."""
        done = getattr(self.recorder, command)(self.match_id(text), *args, expected_version=version)
        unsigned = not_signed(done)
        return Written(done.id, done, warnings=(unsigned,) if unsigned else ())

    def stats(
        self, game: str, players: int | None, variant: str | None, kind: str | None = None
    ) -> PlainDict:
        return {"game": game, **_finite(self.queries.game_report(game, players, variant, kind))}


def _finite(value: object) -> Any:
    """JSON has no NaN or infinity: a figure that does not exist is null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def match_state(match: Match, step: int | None = None) -> PlainDict:
    return {
        **views.state_view(match, step),
        "version": match.version,
        "receipt": match.head_hash,
        "signed_receipt": getattr(match, "signed_receipt", None),
    }


def _step(match: Match) -> int:
    return match.version - Match.INITIAL_VERSION


# ---- request bodies (as checked against their schemas, schemas.REQUESTS) ----------------------


class NewMatch(TypedDict, total=False):
    game: Required[str]
    players: Required[list[str]]
    options: PlainDict
    setup: PlainDict
    manifest: PlainDict  # {"name", "content"}
    played_at: str


class NewSheet(TypedDict, total=False):
    game: Required[str]
    players: Required[list[str]]
    sheet: Required[PlainDict]
    options: PlainDict
    played_at: str


class Versioned(TypedDict, total=False):
    version: int  # the match version the entry was made against


class NewMove(Versioned, total=False):
    seat: Required[str]
    move: Required[PlainDict]


class Undo(Versioned, total=False):
    by: Required[str]
    reason: Required[str]


class Claim(Versioned, total=False):
    by: Required[str]
    scores: Required[dict[str, float]]


class Dispute(Versioned, total=False):
    by: Required[str]
    about: Required[str]


class Resolve(Versioned, total=False):
    by: Required[str]
    ruling: Required[str]


class End(Versioned, total=False):
    draw: bool


Abandon = Undo  # the same fields: who, and why


# ---- parameters and answers ----------------------------------------------------------------------

MATCH = Param(
    "match",
    "path",
    {"type": "string"},
    "The match id, or a unique prefix of 4 or more of its characters.",
)
GAME = Param("game", "path", {"type": "string"}, "A game id (GET /games lists them).")
AT = Param(
    "at",
    "query",
    {"type": "integer", "minimum": 0, "maximum": AT_MOST},
    "Show the match as it was after its first N events (0 = the start); default: now.",
)

STATE = Answer(
    200,
    "Written",
    "The match after the entry: write `version` back with the next entry to detect other "
    "writers. The entry is stored whenever the answer is 2xx; `warnings` says what failed "
    "after it was stored (a checkpoint not signed, or an answer that could not be made: then "
    "only `id`, `version`, `receipt` and `stored` are given).",
)
NOT_FOUND = Answer(404, "Error", "No such match (`match-not-found`).")
REFUSED = Answer(422, "Error", "Refused by the recorder or the rules; nothing was stored.")
CLOSED = Answer(
    409,
    "Error",
    "`conflict`: another writer changed the match first (nothing was "
    "stored; reload and enter it again); `match-closed`: the match has ended or was "
    "abandoned.",
)
OUT_OF_RANGE = Answer(422, "Error", "`refused`: the match has fewer steps than `at`.")


# ---- games ---------------------------------------------------------------------------------------


@endpoint(
    "GET",
    "/games",
    "games",
    "The games this server records",
    ok=Answer(200, "GameList", "Every game: id, name, player counts, options."),
)
def list_games(service: Service) -> Handled:
    """Every game with its id (used everywhere else), player counts and its options with their
    default values."""
    return {
        "games": [
            {
                "id": rules.id,
                "name": rules.name,
                "rules_version": rules.version,
                "min_players": rules.min_players,
                "max_players": rules.max_players,
                "simultaneous": rules.simultaneous,
                "options": rules.options({}),
            }
            for rules in GAMES.values()
        ]
    }


@endpoint(
    "GET",
    "/stats/{game}",
    "games",
    "Balance statistics of one game",
    params=(
        GAME,
        Param(
            "players",
            "query",
            {"type": "integer", "minimum": 1, "maximum": AT_MOST},
            "Only matches with this many players.",
        ),
        Param(
            "variant",
            "query",
            {"type": "string"},
            "Only this variant, by its stored options as the `variant` field of the figures gives "
            "them (`expert=true, manifest=topas`).",
        ),
        Param(
            "kind",
            "query",
            {"type": "string", "enum": ["all", "moves", "sheet"]},
            "All matches (default), those logged move by move, or score sheets only.",
        ),
    ),
    ok=Answer(200, "Stats", "The figures `tablelog stats GAME --json` prints."),
    refusals=(Answer(404, "Error", "No such game (`unknown-game`)."),),
)
def game_stats(
    service: Service, game: str, players: int | None, variant: str | None, kind: str | None = None
) -> Handled:
    """Seat win rates with their Wilson intervals and binomial tests, score distributions per
    category, component strength and match length, over the ended matches without an open
    dispute (see docs/projections.md). A game without such matches has empty figures."""
    if game not in GAMES:
        raise ApiError(
            404, "unknown-game", f"unknown game {game!r}; known games: {', '.join(GAMES)}"
        )
    return service.stats(game, players, variant, None if kind in (None, "all") else kind)


# ---- matches -------------------------------------------------------------------------------------


@endpoint(
    "GET",
    "/matches",
    "matches",
    "List the matches",
    params=(
        Param("game", "query", {"type": "string"}, "Only matches of this game."),
        Param(
            "offset",
            "query",
            {"type": "integer", "minimum": 0, "maximum": AT_MOST},
            "Skip this many matches (oldest first).",
        ),
        Param(
            "limit",
            "query",
            {"type": "integer", "minimum": 0, "maximum": AT_MOST},
            "At most this many matches.",
        ),
    ),
    ok=Answer(
        200,
        "MatchList",
        "The matches, oldest first (`count`: all that match the filter, before offset and limit).",
    ),
)
def list_matches(
    service: Service, game: str | None, offset: int | None, limit: int | None
) -> Handled:
    """The matches in the store, oldest first, as `tablelog list --json` prints them."""
    rows = service.queries.matches(game)  # a quarantined match is left out, and named
    start = offset or 0
    end = None if limit is None else start + limit
    damaged = [
        {"id": row["match_id"], "finding": row["finding"]} for row in service.queries.damaged()
    ]
    return {"count": len(rows), "matches": rows[start:end], "damaged": damaged}


@write_endpoint(
    "start",
    "/matches",
    "matches",
    body="NewMatch",
    ok=Answer(
        201,
        "Written",
        "The new match (its `id` is in the body and its URL in `Location`); `warnings` as for "
        "every write.",
        headers=("Location",),
    ),
    refusals=(
        Answer(
            422,
            "Error",
            "Unknown game, wrong player count, a bad option or setup (`invalid-setup`, `refused`).",
        ),
    ),
)
def create_match(service: Service, body: NewMatch) -> Handled:
    """`players` are names in turn order; `options` and the known `setup` are checked as
    `tablelog new` checks them; a club's own `manifest` is stored in the match, and `played_at`
    says when a game logged afterwards was played."""
    match_id = service.recorder.start(
        body["game"],
        body["players"],
        body.get("options"),
        body.get("setup"),
        components=body.get("manifest"),
        played_at=body.get("played_at"),
    )
    return Written(match_id, status=201)


@write_endpoint(
    "start_sheet",
    "/sheets",
    "matches",
    body="NewSheet",
    ok=Answer(
        201,
        "Written",
        "The new, ended match (its URL in `Location`); `warnings` as for every write.",
        headers=("Location",),
    ),
    refusals=(
        Answer(
            422,
            "Error",
            "Unknown game, wrong player count, or a sheet the "
            "game's sheet rules refuse (the message names the seat and field); "
            "nothing was stored.",
        ),
    ),
)
def create_sheet(service: Service, body: NewSheet) -> Handled:
    """As `tablelog sheet` does: players in seat order, each seat's total and categories where
    the sheet has them, winners, who started, when, how long, where (docs/interop.md). It can
    be claimed, disputed and audited like any match."""
    match_id = service.recorder.start_sheet(
        body["game"],
        body["players"],
        body["sheet"],
        body.get("options"),
        played_at=body.get("played_at"),
    )
    return Written(match_id, status=201)


@endpoint(
    "GET",
    "/matches/{match}",
    "matches",
    "A match's state, now or at any step",
    params=(MATCH, AT),
    ok=Answer(200, "MatchState", "The match at that step."),
    refusals=(NOT_FOUND, OUT_OF_RANGE),
)
def get_match(service: Service, match: str, at: int | None) -> Handled:
    """The match as `tablelog show --json` prints it, plus its `version` and `receipt`."""
    return match_state(service.get(match, at), at)


@endpoint(
    "GET",
    "/matches/{match}/score",
    "matches",
    "The score breakdown",
    params=(MATCH, AT),
    ok=Answer(200, "Score", "Per seat: total, categories and details; the outcome by the rules."),
    refusals=(
        NOT_FOUND,
        Answer(
            422,
            "Error",
            "`unknown-information`: the score needs a "
            "hidden identity the table never revealed; `refused`: "
            "the match has fewer steps than `at`.",
        ),
    ),
)
def get_score(service: Service, match: str, at: int | None) -> Handled:
    """The score per seat and per scoring category, as `tablelog score --json` prints it."""
    found = service.get(match, at)
    return {**views.score_view(found), "step": _step(found)}


@endpoint(
    "GET",
    "/matches/{match}/legal-moves",
    "matches",
    "The moves the rules accept now",
    params=(MATCH, AT),
    ok=Answer(200, "LegalMoves", "Per awaited seat, the moves the rules accept."),
    refusals=(NOT_FOUND, OUT_OF_RANGE),
)
def get_legal_moves(service: Service, match: str, at: int | None) -> Handled:
    """Per seat whose input is awaited, the moves the rules accept now (at step `at`, if given).
    In a simultaneous game (Total Landscaping) these are each seat's own choices: the recorded
    move holds one choice per seat, in the shape docs/games/<game>.md gives. Where the full list
    is too large to offer (GeoShapes' trades of up to three shapes each way) the rules offer a
    documented subset, and any legal move is still accepted."""
    found = service.get(match, at)
    rules, state = found.rules, found.state
    open_ = found.status == RUNNING
    awaited = rules.to_move(state) if open_ else ()
    return {
        "id": str(found.id),
        "game": found.game,
        "step": _step(found),
        "version": found.version,
        "simultaneous": rules.simultaneous,
        # As a person types them (GeoShapes: players by name), so a client can send one back.
        "moves": {
            found.seats[seat]: [
                rules.shown_move(m, found.seats) for m in rules.choices(state, seat)
            ]
            for seat in awaited
        },
    }


@endpoint(
    "GET",
    "/matches/{match}/schema",
    "matches",
    "The JSON Schema of the match's moves",
    params=(MATCH,),
    ok=Answer(
        200,
        "MoveSchema",
        "A JSON Schema (Draft 2020-12): the game's move schema with the names of the "
        "match's own manifest and its number of players.",
    ),
    refusals=(NOT_FOUND,),
)
def get_move_schema(service: Service, match: str) -> Handled:
    """The moves this match takes, as POST .../moves checks them (a move outside it is a 400):
    its game's moves, the names its own manifest gives (tiles, cards, shapes, places), in any
    case, and no others, and players by name or by number up to its own."""
    return match_move_schema(service.get(match))


@endpoint(
    "GET",
    "/matches/{match}/events",
    "matches",
    "The event log (the match record)",
    params=(MATCH,),
    ok=Answer(
        200,
        "MatchRecord",
        "The match record (docs/records.md): what `tablelog "
        "export` writes and `tablelog import` reads.",
    ),
    refusals=(NOT_FOUND,),
)
def get_events(service: Service, match: str) -> Handled:
    """Every stored event of the match in order, withdrawn moves, claims and disputes included,
    as a match record."""
    return service.recorder.export(service.match_id(match))


@endpoint(
    "GET",
    "/matches/{match}/audit",
    "matches",
    "Audit the match",
    params=(
        MATCH,
        Param(
            "head",
            "query",
            {"type": "string"},
            "A receipt (a head hash, 8 or more of its characters) kept "
            "earlier: check the log still holds that event.",
        ),
        Param(
            "moves_from",
            "query",
            {"type": "integer", "minimum": 1, "maximum": AT_MOST},
            "List the running scores (`moves`) from this move, 1,000 at a time "
            "(`moves_page` says which); default: the newest 1,000.",
        ),
    ),
    ok=Answer(
        200, "Audit", "The audit report (docs/audit.md); `clean` says whether anything is wrong."
    ),
    refusals=(NOT_FOUND,),
)
def get_audit(service: Service, match: str, head: str | None, moves_from: int | None) -> Handled:
    """Replay the match from its stored rows, verify the hash chain, recompute every score and
    compare the claims, as `tablelog audit --json` does."""
    recorder = service.recorder
    match_id = service.match_id(match)  # named through the tables even if its start is damaged
    report = auditing.audit_match(recorder, match_id, head, moves_from)
    signed = audit_match_ledger(recorder, match_id)  # signed checkpoints (docs/audit.md)
    attach([report], signed)
    return {**report, "clean": report["clean"] and signed["clean"], "checkpoints": signed}


# ---- entries -------------------------------------------------------------------------------------

WRITE_REFUSALS = (NOT_FOUND, CLOSED, REFUSED)


@write_endpoint(
    "record",
    "/matches/{match}/moves",
    "entries",
    params=(MATCH,),
    body="NewMove",
    ok=STATE,
    refusals=(
        NOT_FOUND,
        CLOSED,
        Answer(
            422,
            "Error",
            "`illegal-move` (the message names "
            "the rule), `not-your-turn`, `refused` (not a seat of this match); nothing "
            "was stored.",
        ),
    ),
)
def record_move(service: Service, match: str, body: NewMove) -> Handled:
    """By `seat`, checked as `tablelog move` checks it: the move as a person types it (players
    by name or number from 1, names in any case) is read into its stored form against the
    position it was read from, as the command line does."""
    found = service.get(match)
    check(move_validator(found), body)  # the match's own schema: its manifest's names
    move, version = body["move"], body.get("version")
    if found.kind != SHEET:  # a sheet has no moves: record refuses it in its own words
        move = found.rules.typed_move(found.state, body["move"], found.seats)
        if move != body["move"] and version is None:
            version = found.version  # read against this position: a race is a 409, not a misreading
    return service.write(match, version, "record", body["seat"], move)


@write_endpoint(
    "undo",
    "/matches/{match}/undo",
    "entries",
    params=(MATCH,),
    body="Undo",
    ok=STATE,
    refusals=WRITE_REFUSALS,
)
def undo_move(service: Service, match: str, body: Undo) -> Handled:
    return service.write(match, body.get("version"), "undo", body["by"], body["reason"])


@write_endpoint(
    "claim",
    "/matches/{match}/claims",
    "entries",
    params=(MATCH,),
    body="Claim",
    ok=STATE,
    refusals=WRITE_REFUSALS,
)
def claim_result(service: Service, match: str, body: Claim) -> Handled:
    """`scores` by player name; the audit compares them with the rules."""
    return service.write(match, body.get("version"), "claim", body["by"], body["scores"])


@write_endpoint(
    "dispute",
    "/matches/{match}/disputes",
    "entries",
    params=(MATCH,),
    body="Dispute",
    ok=STATE,
    refusals=(
        NOT_FOUND,
        Answer(409, "Error", "`conflict`: another writer changed the match first."),
        REFUSED,
    ),
)
def raise_dispute(service: Service, match: str, body: Dispute) -> Handled:
    return service.write(match, body.get("version"), "dispute", body["by"], body["about"])


@write_endpoint(
    "resolve",
    "/matches/{match}/disputes/resolve",
    "entries",
    params=(MATCH,),
    body="Resolve",
    ok=STATE,
    refusals=(
        NOT_FOUND,
        Answer(409, "Error", "`conflict`: another writer changed the match first."),
        REFUSED,
    ),
)
def resolve_dispute(service: Service, match: str, body: Resolve) -> Handled:
    return service.write(match, body.get("version"), "resolve", body["by"], body["ruling"])


@write_endpoint(
    "end",
    "/matches/{match}/end",
    "entries",
    params=(MATCH,),
    body="End",
    ok=STATE,
    refusals=WRITE_REFUSALS,
)
def end_match(service: Service, match: str, body: End) -> Handled:
    """With `draw`, a draw by agreement."""
    return service.write(match, body.get("version"), "end", bool(body.get("draw", False)))


@write_endpoint(
    "abandon",
    "/matches/{match}/abandon",
    "entries",
    params=(MATCH,),
    body="Abandon",
    ok=STATE,
    refusals=WRITE_REFUSALS,
)
def abandon_match(service: Service, match: str, body: Abandon) -> Handled:
    return service.write(match, body.get("version"), "abandon", body["by"], body["reason"])


# Every write endpoint, and the write it is in the role matrix (tablelog/gate.py ACTIONS): a
# command's is the command table's, the lab's are its own.
WRITE_ACTIONS = {
    **{e.operation_id: command(e.command).action for e in ENDPOINTS if e.command},
    "start_experiment": "start an experiment",
    "cancel_experiment": "cancel an experiment",
}
