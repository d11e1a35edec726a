"""How a game declares itself up front (as OpenSpiel's games declare `_GAME_TYPE`/`_GAME_INFO`):
what it is (`GameInfo`), its options and its moves as typed classes, in the game's
`declaration.py`. From these one place structures JSON (cattrs), writes the JSON Schemas the API
publishes, and checks the docs pages and the engines' `legal_moves`.

Options are structured whole through the classes. Moves are classified by their keys (each move
class is one JSON shape, its fields the keys); the values of an irregular vocabulary (cells,
card and tile names in any case) stay the engine's to read, so its refusals keep their reasons.
A field's JSON key is its name unless `key(name=...)` says otherwise ("from", "pass", "with" are
Python words).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NewType, Union

from cattrs import ClassValidationError
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.preconf.json import make_converter

from ..quoting import quoted
from .base import IllegalMove, InvalidSetup

Schema = dict[str, Any]

# ---- value types shared by the games -------------------------------------------------------

Flag = NewType("Flag", bool)
"""A true/false option; the command line's words too (yes/no, on/off, 1/0, any case)."""
TRUE_WORDS, FALSE_WORDS = ("true", "yes", "on", "1"), ("false", "no", "off", "0")

WholeNumber = NewType("WholeNumber", int)
"""A count option: a whole number, or text of one (`--option small=3`)."""

ManifestName = NewType("ManifestName", str)
"""The name of a packaged or club manifest (`domain/games/manifests.py`)."""


class OptionValueError(ValueError):
    """A value of the wrong kind for an option; the message completes "option NAME ..."."""


def flag(value: object) -> bool:
    if isinstance(value, str) and value.strip().lower() in TRUE_WORDS + FALSE_WORDS:
        return value.strip().lower() in TRUE_WORDS
    # 0 and 1 pass too, but not 1.0: 1.0 == True in Python, a number of another kind in JSON.
    if type(value) not in (bool, int) or value not in (True, False):
        raise OptionValueError("must be true or false")
    return bool(value)


WHOLE = re.compile(r"\s*[+-]?[0-9]{1,18}\s*")


def whole_number(value: object) -> int:
    """An int, a number with nothing after the point (3.0), or its digits as text ("3"); never
    cut to one (1.5 is refused, not stored as 1), nor true, nor "٣" or "1_000"."""
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    if isinstance(value, str) and WHOLE.fullmatch(value):
        return int(value)
    raise OptionValueError("must be a whole number")


def manifest_name(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise OptionValueError("names a manifest")
    return value


def _literal(value: object, literal: Any) -> Any:
    allowed = typing.get_args(literal)
    # 1 == True in Python, not in JSON: the value's type must be one of the allowed ones.
    if value not in allowed or type(value) not in {type(a) for a in allowed}:
        raise OptionValueError(f"must be {' or '.join(map(str, allowed))}")
    return value


SCHEMAS: dict[Any, Schema] = {
    Flag: {
        "anyOf": [
            {"type": "boolean"},
            {"enum": [0, 1]},
            {"type": "string", "enum": [*TRUE_WORDS, *FALSE_WORDS], "description": "in any case"},
        ]
    },
    WholeNumber: {
        "anyOf": [
            {"type": "integer"},
            {"type": "string", "description": "a whole number written out"},
        ]
    },
    ManifestName: {"type": "string", "minLength": 1},
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    type(None): {"type": "null"},
    Any: {},
}


def key(
    name: str | None = None, *, doc: str = "", schema: Schema | None = None, label: str = ""
) -> dict[str, Any]:
    """A declared field's metadata (`field(metadata=key(...))`): its JSON key (default: the
    field's name), what it means (the schema's description), schema words the type cannot
    say (a pattern, a range) and, for an option, a short label in the game's words that
    `option_words` shows ("last player chooses", "tiles")."""
    return {"key": name, "doc": doc, "schema": schema or {}, "label": label}


def json_key(field: dataclasses.Field) -> str:
    return field.metadata.get("key") or field.name


# Cached: every `apply` tells its move's shape by these.
@functools.cache
def required_keys(cls: type) -> frozenset[str]:
    return frozenset(
        json_key(f)
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )


@functools.cache
def all_keys(cls: type) -> frozenset[str]:
    return frozenset(json_key(f) for f in dataclasses.fields(cls))


# ---- what a game is ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class BoardGameGeek:
    """A game's entry on BoardGameGeek as BGG lists it: its id (a logged play's `objectid`),
    its name and the year it was published. docs/interop.md says where each came from."""

    id: int
    name: str
    year: int


@dataclasses.dataclass(frozen=True)
class GameInfo:
    """A game's metadata and its vocabulary: the options class and the move classes (a move is
    exactly one of them; `parts` are classes nested inside moves, such as one seat's choice of a
    simultaneous round)."""

    id: str
    name: str
    min_players: int
    max_players: int
    simultaneous: bool
    hidden_information: bool  # hands, face-down tiles: a record may not know everything
    scoring: tuple[str, ...]  # the score's categories, as `GameRules.score` names them
    options: type
    moves: tuple[type, ...]
    parts: tuple[type, ...] = ()
    bgg: BoardGameGeek | None = None  # None: no BoardGameGeek entry could be established

    def move_shape(self, move: object) -> type | None:
        """The move class whose keys `move` has (all required ones, no others), or None."""
        return move_shape(move, self.moves)

    def structure_options(self, options: Mapping[str, Any]) -> Any:
        return structure_options(self.options, options, self.name)

    def structure_move(self, move: object) -> Any:
        shape = self.move_shape(move)
        if shape is None:
            raise IllegalMove(
                f"a {self.name} move has the keys of one of "
                f"{', '.join(c.__name__ for c in self.moves)}; got {quoted(move)}"
            )
        return structure(move, shape)


def move_shape(move: object, classes: Sequence[type]) -> type | None:
    if not isinstance(move, Mapping):
        return None
    keys = set(move)
    return next((cls for cls in classes if required_keys(cls) <= keys <= all_keys(cls)), None)


# ---- structuring ---------------------------------------------------------------------------


def _is_literal(t: object) -> bool:
    return typing.get_origin(t) is Literal


CONVERTER = make_converter(forbid_extra_keys=True)
CONVERTER.register_structure_hook(Flag, lambda value, _: flag(value))
CONVERTER.register_structure_hook(WholeNumber, lambda value, _: whole_number(value))
CONVERTER.register_structure_hook(ManifestName, lambda value, _: manifest_name(value))
CONVERTER.register_structure_hook_func(_is_literal, _literal)


def _renamed(cls: type) -> dict[str, Any]:
    return {
        f.name: override(rename=f.metadata["key"])
        for f in dataclasses.fields(cls)
        if f.metadata.get("key")
    }


CONVERTER.register_structure_hook_factory(
    dataclasses.is_dataclass,
    lambda cls: make_dict_structure_fn(
        cls, CONVERTER, _cattrs_forbid_extra_keys=True, **_renamed(cls)
    ),
)
CONVERTER.register_unstructure_hook_factory(
    dataclasses.is_dataclass, lambda cls: make_dict_unstructure_fn(cls, CONVERTER, **_renamed(cls))
)


def structure(data: object, cls: type) -> Any:
    return CONVERTER.structure(data, cls)


def unstructure(value: Any) -> Any:
    return CONVERTER.unstructure(value)


def structure_options(cls: type, options: Mapping[str, Any], game: str) -> Any:
    """`options` (missing ones take their defaults) as an instance of `cls`, or InvalidSetup
    naming the unknown option or the option whose value does not fit."""
    names = [json_key(f) for f in dataclasses.fields(cls)]
    unknown = set(options) - set(names)
    if unknown:
        if len(names) == 1:
            raise InvalidSetup(f"{game}'s one option is {names[0]}, not {quoted(sorted(unknown))}")
        listing = ", ".join(names[:-1]) + " and " + names[-1]
        raise InvalidSetup(f"{game} options are {listing}, not {quoted(sorted(unknown))}")
    try:
        return structure(dict(options), cls)
    except ClassValidationError as error:
        name, problem = _first_problem(error)
        raise InvalidSetup(f"option {name} {problem}, got {quoted(options.get(name))}") from None


def _first_problem(error: ClassValidationError) -> tuple[str, str]:
    for inner in error.exceptions:
        for note in getattr(inner, "__notes__", []):
            name = getattr(note, "name", None)
            if name is not None:
                return name, str(inner) if isinstance(
                    inner, OptionValueError
                ) else "is of the wrong kind"
    return "?", str(error)


# ---- JSON Schema ---------------------------------------------------------------------------


def json_schema(tp: Any) -> Schema:
    """The JSON Schema (2020-12, as OpenAPI 3.1 uses) of a declared type: a dataclass is an
    object whose properties are its fields' keys, closed to other keys."""
    if tp in SCHEMAS:
        return dict(SCHEMAS[tp])
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _object_schema(tp)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Literal:
        return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
    if origin in (Union, types.UnionType):
        return {"anyOf": [json_schema(arg) for arg in args]}
    if origin in (list, tuple, Sequence) and (len(args) == 1 or args[-1] is Ellipsis):
        return {"type": "array", "items": json_schema(args[0])}
    if origin is tuple:
        return {
            "type": "array",
            "prefixItems": [json_schema(a) for a in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    raise TypeError(f"no JSON Schema for {tp!r}")


def _object_schema(cls: type) -> Schema:
    hints = typing.get_type_hints(cls)
    properties = {}
    for field in dataclasses.fields(cls):
        schema = {**json_schema(hints[field.name]), **field.metadata.get("schema", {})}
        if field.metadata.get("doc"):
            schema["description"] = field.metadata["doc"]
        if field.default is not dataclasses.MISSING and field.default is not None:
            schema["default"] = field.default
        properties[json_key(field)] = schema
    schema = {
        "title": cls.__name__,
        "type": "object",
        "properties": properties,
        "required": sorted(required_keys(cls)),
        "additionalProperties": False,
    }
    if cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("):
        schema["description"] = " ".join(cls.__doc__.split())
    return schema


def move_schema(info: GameInfo) -> Schema:
    """One of the game's moves (their shapes do not overlap: each has its own keys)."""
    return {"title": f"{info.name} move", "oneOf": [json_schema(cls) for cls in info.moves]}


def options_schema(info: GameInfo) -> Schema:
    return {**json_schema(info.options), "title": f"{info.name} options"}


# ---- options in words ----------------------------------------------------------------------

STANDARD = "standard rules"


def option_words(cls: type, options: Mapping[str, Any]) -> str:
    """Chosen options in the game's words, for a person: an option at its default is not
    named, a true/false one reads as its label ("last player chooses") or "not ..." and any
    other as "label: value" ("tiles: topiary-v2"); "standard rules" when nothing differs from
    the defaults. A key the class does not declare (an older record's) is shown as stored."""
    hints = typing.get_type_hints(cls)
    declared = {json_key(f): f for f in dataclasses.fields(cls)}
    words = []
    for name, field in declared.items():
        if name not in options:
            continue
        value, label = options[name], field.metadata.get("label") or name.replace("_", " ")
        if hints[field.name] is Flag:
            try:
                value = flag(value)  # "yes", 1 and true are one choice
            except OptionValueError:
                pass  # not a flag's value after all: shown as it is
        if value == _default(field):
            continue
        if isinstance(value, bool):
            words.append(label if value else f"not {label}")
        else:
            words.append(f"{label}: {value}")
    words += [f"{k}={v}" for k, v in options.items() if k not in declared]
    return ", ".join(words) or STANDARD


def _default(field: dataclasses.Field) -> Any:
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return None if field.default is dataclasses.MISSING else field.default
