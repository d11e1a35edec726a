"""How a game declares itself up front (as OpenSpiel's games declare `_GAME_TYPE`/`_GAME_INFO`):
what it is (`GameInfo`), its options and its moves as typed classes, in the game's
`declaration.py`. From these one place structures JSON (cattrs), writes the JSON Schemas the API
publishes, and checks the docs pages and the engines' `legal_moves`.

Options are structured whole through the classes. Moves are classified by their keys (each move
class is one JSON shape, its fields the keys); the engine reads the names in them (cells, cards,
tiles, in any case) into its own spelling. The move schemas say which names a move may use: a
field declares them (`key(names=...)`, fixed; `key(words=...)`, its manifest's; `key(player=
True)`), so the API can refuse any other before the rules see it. A field's JSON key is its name
unless `key(name=...)` says otherwise ("from", "pass", "with" are Python words).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NewType, TypeVar, Union

from cattrs import ClassValidationError
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.preconf.json import make_converter

from ..plain import PlainDict, PlainMapping
from ..quoting import quoted
from .base import IllegalMove, InvalidSetup

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")
D = TypeVar("D", bound="DataclassInstance")
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


def _literal(value: object, literal: object) -> object:
    allowed = typing.get_args(literal)
    # 1 == True in Python, not in JSON: the value's type must be one of the allowed ones.
    if value not in allowed or type(value) not in {type(a) for a in allowed}:
        raise OptionValueError(f"must be {' or '.join(map(str, allowed))}")
    return value


SCHEMAS: dict[object, Schema] = {
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
    name: str | None = None,
    *,
    doc: str = "",
    schema: Schema | None = None,
    label: str = "",
    unit: str = "",
    names: Sequence[str] = (),
    words: str = "",
    player: bool = False,
    later: bool = False,
) -> dict[str, object]:
    """A declared field's metadata (`field(metadata=key(...))`): its JSON key (default: the
    field's name), what it means (the schema's description), schema words the type cannot
    say (a pattern, a range) and, for an option, a short label in the game's words that
    `wording.option_words` shows ("last player chooses", "tiles"), and for a count what it
    counts, said after its value ("points": "head start: 2 points").

    What a move's field names, when it names something (each text in it, in any case): one of
    the game's fixed `names` (its cards, its cells); a name of the vocabulary `words`, which
    the match's manifest gives (`GameRules.words`: "shape", "tile"; `schema` then says what
    any such name looks like, whatever the manifest); or, with `player`, a player, by name or
    by seat number from 1.

    An option declared `later`, after matches were stored without it, is left out of the
    engine's checked options while at its default, so stored options, and the simulated matches'
    ids made of them, read as they did before it was declared."""
    return {
        "key": name,
        "doc": doc,
        "schema": schema or {},
        "label": label,
        "unit": unit,
        "names": tuple(names),
        "words": words,
        "player": player,
        "later": later,
    }


def json_key(field: dataclasses.Field[object]) -> str:
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

    def structure_options(self, options: PlainMapping) -> Any:
        return structure_options(self.options, options, self.name)

    def structure_move(self, move: object) -> object:
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


def structure(data: object, cls: type[T]) -> T:
    return CONVERTER.structure(data, cls)


def unstructure(value: object) -> Any:
    return CONVERTER.unstructure(value)


def stored_options(options: object) -> PlainDict:
    """Declared options (an `Options` instance) as a match stores them, by their JSON keys; an
    option declared `later` (`key(later=True)`) is left out while at its default."""
    assert dataclasses.is_dataclass(options) and not isinstance(options, type)
    plain: PlainDict = unstructure(options)
    for field in dataclasses.fields(options):
        if field.metadata.get("later") and getattr(options, field.name) == field.default:
            del plain[json_key(field)]
    return plain


def structure_options(cls: type[D], options: PlainMapping, game: str) -> D:
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


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    """What a move schema knows beyond the declaration: per vocabulary a field names
    (`key(words=...)`), the names a manifest gives (`GameRules.words`), and how many players a
    move may name by number. A match's own vocabulary is `exact`: its names and no others. The
    game's is not: its names (the default manifest's) are examples, since a match's manifest
    may give others."""

    words: Mapping[str, Sequence[str]] = dataclasses.field(default_factory=dict)
    players: int | None = None
    exact: bool = False


def json_schema(
    tp: object, move: Vocabulary | None = None, leaves: Mapping[object, Schema] | None = None
) -> Schema:
    """The JSON Schema (2020-12, as OpenAPI 3.1 uses) of a declared type: a dataclass is an
    object whose properties are its fields' keys, closed to other keys. Within a `move` (as a
    person types it), a choice of words (a `Literal` of texts) is taken in any case and the
    names of `move`'s vocabulary are filled in. `leaves`: within one field, the schema of each
    plain type (the names a field names are its texts)."""
    if leaves and tp in leaves:
        return dict(leaves[tp])
    if tp in SCHEMAS:
        return dict(SCHEMAS[tp])
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _object_schema(tp, move)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Literal:
        if move is not None and all(isinstance(a, str) for a in args):
            return any_case(args)  # the engines read every name in a move in any case
        return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
    if origin in (Union, types.UnionType):
        return {"anyOf": [json_schema(arg, move, leaves) for arg in args]}
    if origin in (list, tuple, Sequence) and (len(args) == 1 or args[-1] is Ellipsis):
        return {"type": "array", "items": json_schema(args[0], move, leaves)}
    if origin is tuple:
        return {
            "type": "array",
            "prefixItems": [json_schema(a, move, leaves) for a in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    raise TypeError(f"no JSON Schema for {tp!r}")


def _object_schema(cls: type, move: Vocabulary | None) -> Schema:
    hints = typing.get_type_hints(cls)
    properties = {
        json_key(f): _field_schema(f, hints[f.name], move) for f in dataclasses.fields(cls)
    }
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


MANIFEST_NOTE = (
    ": a name the match's manifest gives, in any case (the match's own move schema lists "
    "them; the examples are the default manifest's)"
)


def _field_schema(field: dataclasses.Field[object], tp: object, move: Vocabulary | None) -> Schema:
    leaves, extra = _leaves(field.metadata, move)
    schema = {**json_schema(tp, move, leaves), **extra}
    doc = field.metadata.get("doc", "")
    if field.metadata.get("words") and not (move and move.exact):
        doc += MANIFEST_NOTE
    if doc:
        schema["description"] = doc
    if field.default is not dataclasses.MISSING and field.default is not None:
        schema["default"] = field.default
    return schema


def _leaves(meta: PlainMapping, move: Vocabulary | None) -> tuple[dict[object, Schema], Schema]:
    """What the texts (and numbers) in a field that names something are, and the rest of its
    declared schema, for the field as a whole."""
    schema, names, words = meta.get("schema"), meta.get("names"), meta.get("words")
    declared: Schema = dict(schema) if isinstance(schema, Mapping) else {}
    if names and isinstance(names, Sequence):
        return {str: any_case(names)}, declared
    if meta.get("player"):
        most = {"maximum": move.players} if move and move.players else {}
        number = {"type": "integer", "minimum": 1, **most}
        return {int: number, str: {"type": "string", "minLength": 1}}, declared
    if words and isinstance(words, str):
        given = tuple(move.words.get(words, ())) if move else ()
        if move and move.exact and given:
            return {str: any_case(given)}, {}
        examples = {"examples": list(given)} if given else {}
        return {str: {"type": "string", "minLength": 1, **declared, **examples}}, {}
    return {}, declared


def any_case(names: Sequence[str]) -> Schema:
    """One of `names` in any case, as the engines read a name in a move: listed as the game
    spells them, and a pattern that takes each in any case (ECMA-262 as JSON Schema's, so
    every client reads it: a class per letter, no flags)."""
    either = "|".join("".join(map(_either_case, name)) for name in names)
    return {"type": "string", "anyOf": [{"enum": list(names)}, {"pattern": f"^(?:{either})$"}]}


ECMA_SYNTAX = frozenset("^$\\.*+?()[]{}|/")


def _either_case(char: str) -> str:
    spellings = sorted({c for c in (char, char.lower(), char.upper()) if len(c) == 1})
    if len(spellings) > 1:
        return "[" + "".join(spellings) + "]"
    return "\\" + char if char in ECMA_SYNTAX else char


def move_schema(info: GameInfo, vocabulary: Vocabulary | None = None) -> Schema:
    """One of the game's moves as a person types it (their shapes do not overlap: each has its
    own keys), with `vocabulary`'s names (by default none, and up to the game's most players)."""
    move = vocabulary or Vocabulary(players=info.max_players)
    return {
        "title": f"{info.name} move",
        "type": "object",
        "oneOf": [json_schema(cls, move) for cls in info.moves],
    }


def options_schema(info: GameInfo) -> Schema:
    return {**json_schema(info.options), "title": f"{info.name} options"}
