"""The kinds of value a callback takes, as JSON Schemas with their words: `kind(words, schema)`.
The words name the kind in a refusal ("record-players.value must be text (or nothing)"), so a
kind says what the page holds there, as a player would put it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from jsonschema import FormatChecker

from tablelog.domain.games import GAMES
from tablelog.domain.plain import PlainValue

FORMATS = FormatChecker(formats=())


@FORMATS.checks("json-text", raises=orjson.JSONDecodeError)
def _json_text(text: object) -> bool:
    """Text that holds a JSON value (the pages put some values in ids and figures as JSON
    text), one that Dash can write back: orjson reads it (no NaN, no lone surrogate)."""
    if isinstance(text, str):
        orjson.loads(text)
    return True


def kind(words: str, schema: Mapping[str, object]) -> dict[str, Any]:
    """A JSON Schema with the words that name it in a refusal ("text (or nothing)")."""
    return {**schema, "description": words}


def _maybe(*types: str) -> list[str]:
    return [*types, "null"]


TEXT = kind("text (or nothing)", {"type": _maybe("string")})
NUMBER = kind("a number (or nothing)", {"type": _maybe("number")})
COUNT = kind("a whole number (or nothing)", {"type": _maybe("integer")})
STEP = kind("a step: a whole number from 0 (or nothing)", {"type": _maybe("integer"), "minimum": 0})
PLAYERS = kind("a number of players (or nothing)", {"type": _maybe("integer"), "minimum": 1})
GAME = kind("one of the games (or nothing)", {"enum": [*GAMES, None]})
NAMES = kind("a list of names (or nothing)", {"type": _maybe("array"), "items": {"type": "string"}})
TEXTS = kind("a list of texts", {"type": "array", "items": {"type": _maybe("string")}})
NUMBERS = kind("a list of numbers", {"type": "array", "items": {"type": _maybe("number")}})
# A tap on a figure: plotly's click data; a board's tap targets carry their pick as JSON text.
CLICK = kind(
    "a tap on a figure (or nothing)",
    {
        "type": _maybe("object"),
        "properties": {
            "points": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"customdata": {"format": "json-text"}},
                },
            }
        },
    },
)
# The id of a button the Record page drew to answer a question: an option (its question and
# answer, as JSON text), a chip taking answers back from its place on, or a game to start.
TAP = kind(
    "a button the page drew",
    {
        "anyOf": [
            {
                "type": "object",
                "required": ["key", "value"],
                "properties": {
                    "key": {"type": "string"},
                    "value": {"type": "string", "format": "json-text"},
                },
            },
            {
                "type": "object",
                "required": ["index"],
                "properties": {"index": {"type": "integer", "minimum": 0}},
            },
            {"type": "object", "required": ["game"], "properties": {"game": {"enum": list(GAMES)}}},
        ]
    },
)
POSITION = kind(
    "the tables' position: whole numbers (or nothing)",
    {"type": _maybe("array"), "items": {"type": "integer", "minimum": 0}, "maxItems": 4},
)
# The Lab's option pickers' answers: each a declared option's value (yes/no, a count, a word).
CHOICES = kind(
    "a list of option values (or nothing)",
    {"type": _maybe("array"), "items": {"type": ["string", "number", "boolean", "null"]}},
)
ROWS = kind("a list of rows (or nothing)", {"type": _maybe("array"), "items": {"type": "object"}})


def one_of(values: Sequence[PlainValue]) -> dict[str, object]:
    """One of the page's own choices (or nothing)."""
    return kind(f"one of {', '.join(map(str, values))} (or nothing)", {"enum": [*values, None]})


# The answers given so far: [question, answer] pairs, in order.
PICKS = kind(
    "a list of [question, answer] pairs (or nothing)",
    {
        "type": _maybe("array"),
        "items": {
            "type": "array",
            "prefixItems": [{"type": "string"}],
            "minItems": 2,
            "maxItems": 2,
        },
    },
)
# The start form's answers: as PICKS, and the game among them is one of the games.
SETUP_PICKS = kind(
    "a list of [question, answer] pairs, the game one of the games (or nothing)",
    {
        **PICKS,
        "items": {
            **PICKS["items"],
            "if": {"prefixItems": [{"const": "game"}]},
            "then": {"prefixItems": [True, {"enum": list(GAMES)}]},
        },
    },
)

# Properties whose kind is Dash's, whatever the component and callback: the page's own
# components set these, never a player, so every call is checked for them at the endpoint
# (Dash Pages' own callback, which reads the address, included).
PATH = kind("a path on this server, from its /", {"type": _maybe("string"), "pattern": "^/"})
PROPERTIES = {
    "n_clicks": COUNT,
    "n_intervals": COUNT,
    "pathname": PATH,
    "search": TEXT,
    "search_value": TEXT,
    "clickData": CLICK,
}
