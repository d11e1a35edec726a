"""Request bodies checked against the schemas the OpenAPI document publishes (`schemas.py`).

Each body is validated (jsonschema, Draft 2020-12) against the very schema object the document
publishes for its operation, compiled once: a body that breaks it is a 400 `bad-request` whose
message is the schema's own error on one line, where it is and what is wrong (jsonschema's
`best_match`). A move is validated against its match's own schema (GET /matches/{match}/schema),
which is stricter than the document's move of any game: it names the match's game, the names of
its own manifest and its number of players. Whether the move is legal is the rules' (422).
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match, relevance

from .errors import bad_request, one_line
from .schemas import COMPONENTS, Words, match_vocabulary, move_schema_of, ref

if TYPE_CHECKING:
    from tablelog.domain.matches.match import Match

# Bodies checked once the match they go to is read, against that match's own schema (the
# document's is the union of every game's; `routes.record_move`).
PER_MATCH = frozenset({"NewMove"})


@functools.cache
def request_validator(name: str) -> Draft202012Validator:
    """The validator of the request body `name`: its schema as the document publishes it,
    references resolved within the document's components."""
    return Draft202012Validator({**ref(name), "components": {"schemas": COMPONENTS}})


def move_validator(match: Match) -> Draft202012Validator:
    """The validator of a move to `match`: the document's NewMove, its move the match's own."""
    return _move_validator(*match_vocabulary(match))


@functools.lru_cache(maxsize=64)
def _move_validator(game: str, words: Words | None, players: int) -> Draft202012Validator:
    body = COMPONENTS["NewMove"]
    move = move_schema_of(game, words, players)
    return Draft202012Validator({**body, "properties": {**body["properties"], "move": move}})


def check(validator: Draft202012Validator, body: object) -> None:
    """A 400 saying what is wrong with `body`, if anything."""
    error = best_match(validator.iter_errors(body), key=_relevance)
    if error is not None:
        error = _nearest(error)
        where = "the request body" + "".join(
            f".{p}" if isinstance(p, str) else f"[{p}]" for p in error.absolute_path
        )
        raise bad_request(one_line(f"{where}: {_words(error)}"))


def _relevance(error: ValidationError) -> tuple:
    # A name a move may use is listed (enum) and matched in any case (a pattern): of the two
    # errors, the list of names is the one a person reads.
    return (relevance(error), error.validator != "enum")


def _nearest(error: ValidationError) -> ValidationError:
    """Within a choice `best_match` leaves open (the kinds of a move: a Topitop `to` off the
    board breaks both a place and a slide), the error of the one alternative the instance has
    the shape of: all its keys, none other (its only errors lie within its fields)."""
    while error.validator in ("oneOf", "anyOf") and error.context:
        alternatives: dict[str | int, list[ValidationError]] = {}
        for inner in error.context:
            alternatives.setdefault(inner.relative_schema_path[0], []).append(inner)
        fitting = [errors for errors in alternatives.values() if all(e.path for e in errors)]
        if len(fitting) != 1:
            break
        found = best_match(fitting[0], key=_relevance)
        if found is None:
            break
        error = found
    return error


def _words(error: ValidationError) -> str:
    """The error's message; for a choice none of whose alternatives comes nearer than another
    (a move with the keys of none), the alternatives by their titles (the move kinds)."""
    choices = error.validator_value if error.validator in ("oneOf", "anyOf") else None
    if isinstance(choices, list):
        kinds = [s for s in choices if isinstance(s, dict) and "title" in s]
        if kinds and len(kinds) == len(choices):
            listed = "; ".join(
                f"{s['title']} {{{', '.join(s.get('required', []))}}}" for s in kinds
            )
            got = one_line(json.dumps(error.instance, ensure_ascii=False), 60)
            return f"none of: {listed} (got {got})"
    if error.validator == "enum" and error.parent is not None and error.parent.validator == "anyOf":
        return f"{error.message}, in any case"
    if isinstance(choices, list) and all(isinstance(s, dict) for s in choices):
        got = one_line(json.dumps(error.instance, ensure_ascii=False), 60)
        return f"{got} is not {' or '.join(_kind(s) for s in choices)}"
    return error.message


_KINDS = {"integer": "a whole number", "boolean": "true or false", "number": "a number"}


def _kind(schema: dict) -> str:
    """An alternative of a choice as a person reads it (an option's value: a whole number, or
    one written out)."""
    if "description" in schema:
        return str(schema["description"])
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(v) for v in schema["enum"])
    return _KINDS.get(str(schema.get("type")), f"a {schema.get('type', 'value')}")
