"""The JSON Schemas of the API's bodies (OpenAPI 3.1, i.e. JSON Schema 2020-12).

The server validates every request body against these same schema objects before acting
(`validation.py`), and the OpenAPI document publishes them, so the document cannot drift from
what is checked. A body that breaks its schema is a 400 with the schema's own words: the shape
of a request (types, required fields, no unknown fields) and the game's vocabulary (the names a
move may use). What a request MEANS (a known game, a legal move, a seat of this match) is for
the recorder and the rules, exactly as at the command line: those refusals are 422 with the
command line's reason.

A move and a match's options are in the game's own vocabulary: the document publishes each
game's schemas (`TopitopMove`, `TopitopOptions`...), generated from the game's declaration
(`domain/games/<game>/declaration.py`), and the request bodies name them; a new match's options
are checked against the Options of the game it names. The names a move may use come from the
declaration (cards, cells, gardens) or, for a game played with a manifest, from the manifest
(tiles, cards, shapes): the game's schema gives its default manifest's as examples, and each
match publishes its own (`match_move_schema`, GET /matches/{match}/schema), which a move to
that match is checked against.
"""

from __future__ import annotations

import functools
import random
from typing import TYPE_CHECKING, Any

from tablelog.domain.commands import command
from tablelog.domain.games import GAMES, declarations
from tablelog.domain.games.declaring import Vocabulary, move_schema, options_schema

if TYPE_CHECKING:
    from tablelog.domain.matches.match import Match

Schema = dict[str, Any]

TEXT: Schema = {"type": "string"}
COUNT: Schema = {"type": "integer", "minimum": 0}
NAMES: Schema = {"type": "array", "items": TEXT}
ANY_OBJECT: Schema = {"type": "object"}
NUMBER_OR_NULL: Schema = {"type": ["number", "null"]}
UUID_TEXT: Schema = {"type": "string", "format": "uuid"}
TIME_TEXT: Schema = {"type": "string", "description": "ISO 8601, UTC"}
HASH_TEXT: Schema = {"type": "string", "pattern": "^[0-9a-f]{64}$"}


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def closed(
    properties: dict[str, Schema], required: tuple[str, ...] = (), description: str | None = None
) -> Schema:
    """An object with exactly these fields (those in `required` must be present)."""
    schema: Schema = {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }
    if description:
        schema["description"] = description
    return schema


# A command parameter's schema by its kind (tablelog.domain.commands).
KIND_SCHEMAS: dict[str, Schema] = {
    "text": TEXT,
    "names": NAMES,
    "json": ANY_OBJECT,
    "flag": {"type": "boolean", "default": False},
    "time": {"type": "string"},
}


def command_body(name: str, **more: Schema) -> Schema:
    """The body of the write command `name`: its parameters as the command table says them
    (each of its kind, with its help; `more` adds or overrides what the API says of its own),
    and the version an entry was made against."""
    said = command(name)
    properties = {
        p.name: {**KIND_SCHEMAS[p.kind], "description": p.help, **more.get(p.name, {})}
        for p in said.params
    }
    required = tuple(p.name for p in said.params if p.required)
    return closed({**properties, "version": VERSION}, required)


def documented(properties: dict[str, Schema], required: tuple[str, ...]) -> Schema:
    """A response object: these fields always, more may be added in later versions."""
    return {"type": "object", "properties": properties, "required": list(required)}


VERSION: Schema = {
    "type": "integer",
    "minimum": 1,
    "description": "The match version this entry was made against (the `version` of the state "
    "the client last read). If the match has moved on, nothing is stored and the "
    "answer is 409 `conflict`: reload and enter it again. Leave it out to write "
    "whatever the version.",
}

SHEET: Schema = closed(
    {
        "scores": {
            "type": ["array", "null"],
            "description": "One entry per seat in turn "
            "order (null where the sheet has nothing for that seat).",
            "items": {
                "oneOf": [
                    {"type": "null"},
                    closed(
                        {
                            "total": NUMBER_OR_NULL,
                            "categories": {
                                "type": ["object", "null"],
                                "additionalProperties": {"type": "number"},
                                "description": "Points per scoring category of the "
                                "game (they add up to the total).",
                            },
                            "team": {"type": ["string", "null"]},
                            "role": {"type": ["string", "null"]},
                            "colour": {"type": ["string", "null"]},
                            "new": {"type": ["boolean", "null"]},
                        }
                    ),
                ]
            },
        },
        "winners": {**NAMES, "description": "Who won (several: a shared win; none: nobody)."},
        "first": {"type": ["string", "null"], "description": "Who started."},
        "duration_min": NUMBER_OR_NULL,
        "location": {"type": ["string", "null"]},
        "board": {"type": ["string", "null"]},
        "source": {
            "type": ["object", "null"],
            "description": "Where an imported play came from: {from, id}.",
        },
    },
    (),
    "A score sheet (docs/interop.md): checked against the game's sheet rules; a "
    "refusal names the seat and field and stores nothing.",
)

# ---- request bodies -----------------------------------------------------------------------------

REQUESTS: dict[str, Schema] = {
    "NewMatch": closed(
        {
            "game": {**TEXT, "description": "The game's id, as in GET /games."},
            "players": {**NAMES, "description": "Player names in turn order."},
            "options": {
                **ANY_OBJECT,
                "description": "Game options; missing ones take their "
                "defaults (GET /games lists them).",
            },
            "setup": {
                **ANY_OBJECT,
                "description": "The known setup (deal, layout, hands) in the "
                "game's setup format (docs/games/<game>.md).",
            },
            "manifest": closed(
                {
                    "name": {**TEXT, "maxLength": 200},
                    "content": {
                        **ANY_OBJECT,
                        "description": "The manifest itself, in the game's "
                        "manifest format (docs/games/<game>.md).",
                    },
                },
                ("name", "content"),
                "A club's own components (deck, tiles, board), handed over "
                "whole and stored in the match. To play a packaged or the club folder's manifest, "
                "name it in options.manifest instead; a path is never opened.",
            ),
            "played_at": {
                **TEXT,
                "description": "When the game was played, if it is logged "
                "afterwards: ISO 8601 with a zone, from 1900 on, not in the "
                "future.",
            },
        },
        ("game", "players"),
    ),
    "NewSheet": closed(
        {
            "game": {**TEXT, "description": "The game's id, as in GET /games."},
            "players": {**NAMES, "description": "Player names in seat (turn) order."},
            "sheet": SHEET,
            "options": {**ANY_OBJECT, "description": "Game options (the variant played)."},
            "played_at": {
                **TEXT,
                "description": "When the game was played: ISO 8601 with a zone, from 1900 on, "
                "not in the future.",
            },
        },
        ("game", "players", "sheet"),
    ),
    "NewMove": command_body(
        "record",
        seat={
            **TEXT,
            "description": "The player making the move: their name, or their "
            'seat number as text ("1" = first in turn order).',
        },
    ),
    "Undo": command_body("undo"),
    "Claim": command_body("claim", scores={"additionalProperties": {"type": "number"}}),
    "Dispute": command_body("dispute"),
    "Resolve": command_body("resolve"),
    "End": command_body("end"),
    "Abandon": command_body("abandon"),
}

# ---- responses ----------------------------------------------------------------------------------

ERROR_KINDS = (
    "bad-request",
    "unauthorized",
    "forbidden",
    "not-found",
    "method-not-allowed",
    "too-large",
    "unsupported-media-type",
    "match-not-found",
    "unknown-game",
    "not-your-turn",
    "illegal-move",
    "invalid-setup",
    "unknown-information",
    "refused",
    "bad-record",
    "match-closed",
    "conflict",
    "unsupported",
)

OUTCOME: Schema = {
    "type": ["object", "null"],
    "description": "null while the game runs; winners (none: a draw) and the ranking, by name.",
    "properties": {"winners": NAMES, "ranking": {"type": "array", "items": NAMES}, "reason": TEXT},
    "required": ["winners", "ranking", "reason"],
}

STATUS: Schema = {"type": "string", "enum": ["running", "ended", "abandoned", "disputed"]}

SUMMARY_FIELDS: dict[str, Schema] = {
    "id": UUID_TEXT,
    "game": TEXT,
    "seats": NAMES,
    "status": STATUS,
    "moves": COUNT,
    "started": TIME_TEXT,
    "played": {
        **TIME_TEXT,
        "description": "When the game was played: `played_at` if it was "
        "logged afterwards, else when it was started.",
    },
    "outcome": ref("Outcome"),
}

# Signed checkpoints (docs/audit.md): a signed tree head, and a receipt (a head with the
# inclusion proof of one event of a match). A head is a C2SP checkpoint; one signed before
# checkpoints were C2SP notes is a `tablelog-head/1` head.
KEY_ID: Schema = {"type": "string", "pattern": "^[0-9a-f]{16}$"}
SIGNED_HEAD: Schema = {
    "oneOf": [
        documented(
            {
                "format": {"const": "c2sp.org/tlog-checkpoint"},
                "checkpoint": {
                    "type": "string",
                    "description": "The C2SP tlog-checkpoint, signed as a C2SP note (Ed25519): "
                    "every other field is read from it.",
                },
                "origin": TEXT,
                "size": COUNT,
                "root": {**HASH_TEXT, "description": "The signed root, in hex."},
                "time": {**TIME_TEXT, "type": ["string", "null"]},
                "key": {**KEY_ID, "description": "The id of the key that signed it."},
            },
            ("format", "checkpoint", "origin", "size", "root", "time", "key"),
        ),
        documented(
            {
                "format": {"const": "tablelog-head/1"},
                "size": COUNT,
                "root": HASH_TEXT,
                "time": TIME_TEXT,
                "key": KEY_ID,
                "signature": {
                    "type": "string",
                    "description": "Ed25519, base64, over the head's canonical JSON without "
                    "its signature.",
                },
            },
            ("format", "size", "root", "time", "key", "signature"),
        ),
    ]
}
SIGNED_RECEIPT: Schema = {
    **documented(
        {
            "format": {"const": "tablelog-receipt/1"},
            "match": UUID_TEXT,
            "event": {"type": "integer", "minimum": 1},
            "hash": HASH_TEXT,
            "leaf": COUNT,
            "head": SIGNED_HEAD,
            "proof": {"type": ["array", "null"], "items": HASH_TEXT},
        },
        ("format", "match", "event", "hash", "leaf", "head", "proof"),
    ),
    "type": ["object", "null"],
    "description": "The signed receipt of the match's newest event a checkpoint covers "
    "(`tablelog verify` checks it); null when the store is not signed or no "
    "checkpoint covers the match yet.",
}

STATE_FIELDS: dict[str, Schema] = {
    **SUMMARY_FIELDS,
    "step": {**COUNT, "description": "Events after the start shown here (0 = the start)."},
    "version": {
        "type": "integer",
        "minimum": 1,
        "description": "The match's version at this step: send it back as `version` "
        "to write only if nobody else wrote first.",
    },
    "receipt": {
        **HASH_TEXT,
        "description": "The hash of the newest event shown (keep it to "
        "check the log later: GET .../audit?head=).",
    },
    "signed_receipt": SIGNED_RECEIPT,
    "rules_version": TEXT,
    "options": ANY_OBJECT,
    "to_move": {
        **NAMES,
        "description": "Whose input the rules await (every seat, when play is "
        "simultaneous; none once the game is over).",
    },
    "rules_outcome": ref("Outcome"),
    "state": {
        "type": ["object", "null"],
        "description": "The position, in the game's own "
        "JSON encoding (null for a score-sheet match: it has no position).",
    },
}

WARNINGS: Schema = {
    "type": "array",
    "items": TEXT,
    "description": "Only in the answer to a write, only when something failed after the "
    "entry was stored: one line each, `stored, but WHAT: REASON` (`stored, but NOT signed: "
    "...` when the checkpoint could not be signed). The entry is stored: do not enter it again.",
}

ENTRY_TIME = {"at": TIME_TEXT}
RAW_OUTCOME: Schema = {
    "type": "object",
    "description": "As stored: seats by index (0 = first in turn order).",
    "properties": {
        "winners": {"type": "array", "items": COUNT},
        "ranking": {"type": "array", "items": {"type": "array", "items": COUNT}},
        "reason": TEXT,
    },
    "required": ["winners", "ranking", "reason"],
}


ENTERED_BY: Schema = {
    "type": "object",
    "properties": {"id": {"type": ["string", "null"]}, "name": TEXT, "via": TEXT},
    "required": ["name"],
    "description": "Who entered the event: the person's id and name, and how (`api`, "
    "`dashboard`, `command line`, `write token`). Absent on an event stored before it "
    'existed (entered by "unknown"); part of the event\'s hash.',
}


def _entry(kind: str, fields: dict[str, Schema]) -> Schema:
    return {
        "type": "object",
        "properties": {
            "type": {"const": kind},
            **fields,
            **ENTRY_TIME,
            "entered_by": ENTERED_BY,
            "hash": HASH_TEXT,
        },
        "required": ["type", *fields, "at", "hash"],
    }


RESPONSES: dict[str, Schema] = {
    "Error": closed(
        {
            "error": {"type": "string", "enum": list(ERROR_KINDS)},
            "message": {
                **TEXT,
                "description": "The one-line reason (the command line prints the same words).",
            },
        },
        ("error", "message"),
    ),
    "Outcome": OUTCOME,
    "MatchSummary": documented(SUMMARY_FIELDS, tuple(SUMMARY_FIELDS)),
    "MatchList": documented(
        {
            "count": COUNT,
            "matches": {"type": "array", "items": ref("MatchSummary")},
            "damaged": {
                "type": "array",
                "description": "The matches left out because their stored rows no longer "
                "read (quarantined; `/audit` names every finding), of every game.",
                "items": closed({"id": UUID_TEXT, "finding": TEXT}, ("id", "finding")),
            },
        },
        ("count", "matches", "damaged"),
    ),
    "MatchState": documented(STATE_FIELDS, tuple(STATE_FIELDS)),
    # The answer to a write: the state, or (when it could not be made after the commit) what is
    # certain about the entry stored. 2xx means stored, either way.
    "Written": {
        "anyOf": [
            ref("MatchState"),
            ref("Stored"),
        ],
        "properties": {"warnings": WARNINGS},
    },
    "Stored": documented(
        {
            "id": UUID_TEXT,
            "version": STATE_FIELDS["version"],
            "receipt": STATE_FIELDS["receipt"],
            "stored": {
                "const": True,
                "description": "The entry is stored, but the state could not be given (see "
                "`warnings`): GET the match for it.",
            },
            "warnings": WARNINGS,
        },
        ("id", "stored", "warnings"),
    ),
    "Score": documented(
        {
            "id": UUID_TEXT,
            "game": TEXT,
            "step": COUNT,
            "seats": {
                "type": "array",
                "items": documented(
                    {
                        "seat": TEXT,
                        "total": {
                            "type": ["number", "null"],
                            "description": "null where a score sheet gives no total.",
                        },
                        "categories": {
                            "type": "object",
                            "additionalProperties": {"type": "number"},
                        },
                        "details": ANY_OBJECT,
                    },
                    ("seat", "total", "categories", "details"),
                ),
            },
            "outcome": ref("Outcome"),
        },
        ("id", "game", "step", "seats", "outcome"),
    ),
    "LegalMoves": documented(
        {
            "id": UUID_TEXT,
            "game": TEXT,
            "step": COUNT,
            "version": {"type": "integer", "minimum": 1},
            "simultaneous": {
                "type": "boolean",
                "description": "Each awaited seat chooses, and one "
                "recorded move holds every seat's choice (docs/games/<game>.md).",
            },
            "moves": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": ANY_OBJECT},
                "description": "Per awaited seat (by name), the moves (or, when play is "
                "simultaneous, that seat's choices) the rules accept now; "
                "empty once the match is over or closed.",
            },
        },
        ("id", "game", "step", "version", "simultaneous", "moves"),
    ),
    "MoveSchema": {
        "type": "object",
        "description": "A JSON Schema (Draft 2020-12) of one match's moves: its game's Move "
        "schema, with the names its own manifest gives and its number of players.",
    },
    "MatchRecord": documented(
        {
            "format": {"const": "tablelog-match/2"},
            "id": UUID_TEXT,
            "game": TEXT,
            "rules_version": TEXT,
            "options": ANY_OBJECT,
            "seats": NAMES,
            "setup": ANY_OBJECT,
            "components": {
                "type": ["object", "null"],
                "description": "The manifest the match is "
                "played with: name, sha256, content (null: none, or a match stored by "
                "release 0.1).",
            },
            "played_at": {"type": ["string", "null"]},
            "started_at": TIME_TEXT,
            "hash": HASH_TEXT,
            "entered_by": ENTERED_BY,
            "receipt": {
                **SIGNED_RECEIPT,
                "type": "object",
                "description": "Only when a signed "
                "checkpoint covers the match: the receipt of its newest signed event, so "
                "the record verifies without the store (docs/records.md).",
            },
            "events": {
                "type": "array",
                "items": {
                    "oneOf": [
                        _entry("move", {"seat": TEXT, "move": ANY_OBJECT}),
                        _entry("undo", {"by": TEXT, "reason": TEXT}),
                        _entry(
                            "claim",
                            {
                                "by": TEXT,
                                "scores": {
                                    "type": "object",
                                    "additionalProperties": {"type": "number"},
                                },
                            },
                        ),
                        _entry("dispute", {"by": TEXT, "about": TEXT}),
                        _entry("resolve", {"by": TEXT, "ruling": TEXT}),
                        _entry("end", {"outcome": RAW_OUTCOME}),
                        _entry("abandon", {"by": TEXT, "reason": TEXT}),
                        _entry("sheet", {"sheet": ANY_OBJECT, "outcome": RAW_OUTCOME}),
                    ]
                },
            },
            "kind": {"const": "sheet", "description": "Present for a score-sheet match."},
        },
        (
            "format",
            "id",
            "game",
            "rules_version",
            "options",
            "seats",
            "setup",
            "components",
            "played_at",
            "started_at",
            "hash",
            "events",
        ),
    ),
    "Audit": documented(
        {
            "match": UUID_TEXT,
            "clean": {"type": "boolean"},
            "status": STATUS,
            "events": COUNT,
            "findings": {
                "type": "array",
                "items": documented(
                    {
                        "event": {"type": ["integer", "null"]},
                        "kind": TEXT,
                        "message": TEXT,
                    },
                    ("event", "kind", "message"),
                ),
            },
            "planted": {
                "type": "array",
                "description": "Findings at entries the demo store planted as examples "
                "(recorded by a name ending in '(demo)'): listed, but they fail nothing.",
                "items": ANY_OBJECT,
            },
            "notes": {"type": "array", "items": TEXT},
            "checkpoints": {
                **ANY_OBJECT,
                "description": "The audit of the store's signed "
                "checkpoints: findings, notes, every checkpoint verified or not.",
            },
        },
        ("match", "clean", "status", "events", "findings", "notes"),
    ),
    "Game": documented(
        {
            "id": TEXT,
            "name": TEXT,
            "rules_version": TEXT,
            "min_players": {"type": "integer", "minimum": 1},
            "max_players": {"type": "integer", "minimum": 1},
            "simultaneous": {"type": "boolean"},
            "options": {**ANY_OBJECT, "description": "Every option with its default value."},
        },
        ("id", "name", "rules_version", "min_players", "max_players", "simultaneous", "options"),
    ),
    "GameList": documented({"games": {"type": "array", "items": ref("Game")}}, ("games",)),
    "Stats": documented(
        {
            "game": TEXT,
            "matches": {**COUNT, "description": "Matches that count: ended, no open dispute."},
            "recorded": COUNT,
            "by_status": {"type": "object", "additionalProperties": COUNT},
            "shared_wins": COUNT,
            "draws": COUNT,
            "small": {"type": "boolean"},
            "seats": {"type": "array", "items": ANY_OBJECT},
            "seat_test": {
                "type": "array",
                "items": ANY_OBJECT,
                "description": "Per player count and variant, one test of all seats together "
                "(is any seat favoured?): statistic, df, p_value, method (chi-square, or exact "
                "multinomial where few wins are expected).",
            },
            "scores": {"type": "array", "items": ANY_OBJECT},
            "components": {"type": "array", "items": ANY_OBJECT},
            "length": {"type": "array", "items": ANY_OBJECT},
            "behind": {
                "type": "object",
                "description": "Per figure (seats, scores, components, "
                "length): counted matches of each kind behind it, {moves, sheet}.",
            },
        },
        (
            "game",
            "matches",
            "recorded",
            "by_status",
            "shared_wins",
            "draws",
            "small",
            "seats",
            "seat_test",
            "scores",
            "components",
            "length",
        ),
    ),
}

# ---- the games' vocabularies --------------------------------------------------------------------

DECLARED = declarations()


def game_schema_name(game: str, what: str) -> str:
    """`TotalLandscapingMove`: the component of a game's moves (or "Options")."""
    return DECLARED[game].name.replace(" ", "") + what


def default_vocabulary(game: str) -> Vocabulary:
    """The names a new match of the game with its default options may use (its default
    manifest's), as examples of what a match's manifest gives; players up to the game's most."""
    rules = GAMES[game]
    options, players = rules.options({}), rules.min_players
    state = rules.start(players, options, rules.deal(players, options, random.Random(0)))
    return Vocabulary(rules.words(state), rules.max_players)


GAME_SCHEMAS: dict[str, Schema] = {
    name: schema
    for game, info in DECLARED.items()
    for name, schema in (
        (game_schema_name(game, "Move"), move_schema(info, default_vocabulary(game))),
        (game_schema_name(game, "Options"), options_schema(info)),
    )
}


def match_move_schema(match: Match) -> Schema:
    """The schema of one match's moves (`GET /matches/{match}/schema`): its game's, with the
    names its own manifest gives and no others, and players numbered up to its own. A score
    sheet has no moves (the recorder refuses one in its words): its game's schema."""
    return move_schema_of(*match_vocabulary(match))


Words = tuple[tuple[str, tuple[str, ...]], ...]


def match_vocabulary(match: Match) -> tuple[str, Words | None, int]:
    """What a match's move schema depends on (its game, its manifest's names, its players): the
    schema is made, and its validator compiled, once for each (`functools.lru_cache`). Every
    state of a match holds its manifest: the latest is read (the first may not be loaded)."""
    state = match.state
    if state is None:
        return match.game, None, len(match.seats)
    words = match.rules.words(state)
    return match.game, tuple((k, tuple(v)) for k, v in sorted(words.items())), len(match.seats)


@functools.lru_cache(maxsize=64)
def move_schema_of(game: str, words: Words | None, players: int) -> Schema:
    if words is None:
        return GAME_SCHEMAS[game_schema_name(game, "Move")]
    return {
        **move_schema(DECLARED[game], Vocabulary(dict(words), players, exact=True)),
        "description": "This match's moves, as POST /matches/{match}/moves takes them: the "
        "names of its own manifest, in any case, and its players by name or number.",
    }


def one_of_the_games(what: str, description: str) -> Schema:
    """A move or options: an object in one game's vocabulary (the match's game decides which)."""
    return {
        "type": "object",
        "description": description,
        "anyOf": [ref(game_schema_name(game, what)) for game in DECLARED],
    }


PUBLISHED_FIELDS = {
    ("NewMatch", "options"): one_of_the_games(
        "Options", "Game options (the game's Options schema); missing ones take their defaults."
    ),
    ("NewSheet", "options"): one_of_the_games("Options", "Game options (the variant played)."),
    ("NewMove", "move"): one_of_the_games(
        "Move",
        "The move in the game's own vocabulary (the game's Move schema; docs/games/<game>.md). "
        "A match takes the moves of its own schema, GET /matches/{match}/schema: the names of "
        "its own manifest and players; another is refused (400).",
    ),
}

# A new match's (or sheet's) options are those of the game it names: a body is checked against
# that game's Options schema (a game no one knows is the recorder's to refuse, 422).
OPTIONS_OF_THE_GAME: Schema = {
    "allOf": [
        {
            "if": {"properties": {"game": {"const": game}}, "required": ["game"]},
            "then": {"properties": {"options": ref(game_schema_name(game, "Options"))}},
        }
        for game in DECLARED
    ]
}


def published(requests: dict[str, Schema]) -> dict[str, Schema]:
    """The request schemas as the document publishes them: with each game's vocabulary."""
    result = dict(requests)
    for (name, field), schema in PUBLISHED_FIELDS.items():
        result[name] = {
            **result[name],
            "properties": {**result[name]["properties"], field: schema},
        }
    for name in ("NewMatch", "NewSheet"):
        result[name] = {**result[name], **OPTIONS_OF_THE_GAME}
    return result


COMPONENTS: dict[str, Schema] = {**published(REQUESTS), **RESPONSES, **GAME_SCHEMAS}
