"""A tuning space: what a study may vary in a game, and a trial's candidate variant.

A game declares its space in `tablelog.domain.games.<game>.tuning` (OPTIONS: option -> its
choices; `fields(base)`: JSON pointer into the base manifest -> [low, high]; `tidy` makes a
candidate a manifest; `invalid` says why a candidate cannot be played). A designer's SPACE.json
(checked against SPACE_SCHEMA) may name another base manifest, fix options, narrow a range (the
same key with a smaller one), extend the space (a key of its own), drop keys, or keep `only`
what it lists.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

from tablelog.domain.errors import Refused
from tablelog.domain.plain import PlainDict, PlainValue
from tablelog.domain.quoting import quoted

if TYPE_CHECKING:
    import optuna

CHOICE: PlainDict = {"type": ["boolean", "integer", "number", "string", "null"]}
RANGE: PlainDict = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
SPACE_SCHEMA: PlainDict = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "base": {"type": "string", "description": "the manifest the candidates start from"},
        "fixed": {"type": "object", "description": "options every candidate plays with"},
        "options": {
            "type": "object",
            "additionalProperties": {"type": "array", "minItems": 1, "items": CHOICE},
        },
        "fields": {
            "type": "object",
            "propertyNames": {"pattern": "^/"},
            "additionalProperties": {
                "oneOf": [
                    RANGE,
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["choices"],
                        "properties": {"choices": {"type": "array", "minItems": 1}},
                    },
                ]
            },
        },
        "drop": {"type": "array", "items": {"type": "string"}},
        "only": {"type": "boolean"},
    },
}


class SpaceError(Refused):
    """A space that cannot be searched (the message says what)."""


@dataclasses.dataclass(frozen=True)
class Space:
    game: str
    base: str | None  # the base manifest's name; None for a game without components
    fixed: PlainDict
    options: dict[str, list[Any]]
    fields: dict[str, Any]  # pointer -> [low, high] or {"choices": [...]}

    def to_json(self) -> PlainDict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Space:
        return cls(**data)


@dataclasses.dataclass(frozen=True)
class Candidate:
    """A variant: the options it plays with and its manifest's content (None: the game's own)."""

    options: PlainDict
    manifest: PlainValue = None

    def components(self, name: str) -> PlainDict | None:
        return None if self.manifest is None else {"name": name, "content": self.manifest}


def declared(game: str) -> ModuleType:
    """The game's tuning declaration, or a one-line refusal."""
    from tablelog.domain.games import get_game

    tuning = get_game(game).tuning  # an unknown game: its own refusal
    if tuning is None:
        raise SpaceError(
            f"{game} declares nothing to tune; give the options to vary in a SPACE.json"
        )
    return importlib.import_module(tuning)


def base_manifest(space: Space) -> PlainValue:
    from tablelog.domain.games.manifests import find

    if space.base is None:
        return None
    # A game may show its manifest to the designer as a view of its own (Topas: its deck as
    # pairs of gem counts), which its tidy() turns back into a manifest.
    view = getattr(declared(space.game), "view", None)
    return find(space.base) if view is None else view(find(space.base))


def load_space(game: str, designer: dict[str, Any] | None = None) -> Space:
    """The game's declared space with a designer's SPACE.json applied, checked."""
    import jsonschema

    designer = designer or {}
    try:
        jsonschema.validate(designer, SPACE_SCHEMA)
    except jsonschema.ValidationError as err:
        where = "/".join(str(p) for p in err.absolute_path) or "the space"
        raise SpaceError(f"SPACE.json: {where}: {err.message}") from None
    tuning = declared(game)
    base = designer.get("base", tuning.BASE)
    content = None if base is None else base_manifest(Space(game, base, {}, {}, {}))
    options = {} if designer.get("only") else dict(tuning.OPTIONS)
    fields = {} if designer.get("only") or content is None else tuning.fields(content)
    options.update(designer.get("options", {}))
    fields.update(designer.get("fields", {}))
    for key in designer.get("drop", []):
        if options.pop(key, None) is None and fields.pop(key, None) is None:
            raise SpaceError(f"SPACE.json drops {quoted(key)}, which the space does not hold")
    space = Space(game, base, dict(designer.get("fixed", {})), options, fields)
    _check_fields(space, content)
    if not options and not fields:
        raise SpaceError("the space is empty: nothing would vary")
    return space


def _check_fields(space: Space, content: object) -> None:
    for pointer, span in space.fields.items():
        if content is None:
            raise SpaceError(f"{space.game} has no manifest for {quoted(pointer)} to change")
        _parent(content, pointer)  # refuses a pointer into nothing
        if isinstance(span, list) and span[0] > span[1]:
            raise SpaceError(f"{quoted(pointer)}: the range {span} runs backwards")


def _parent(content: Any, pointer: str) -> tuple[Any, Any]:
    """The container a JSON pointer's last step is in, and that step (RFC 6901)."""
    steps = [s.replace("~1", "/").replace("~0", "~") for s in pointer.split("/")[1:]]
    here = content
    try:
        for step in steps[:-1]:
            here = here[int(step)] if isinstance(here, list) else here[step]
        last: Any = int(steps[-1]) if isinstance(here, list) else steps[-1]
        if isinstance(here, list):
            here[last]
        elif not isinstance(here, dict):
            raise TypeError
    except (KeyError, IndexError, ValueError, TypeError):
        raise SpaceError(f"{quoted(pointer)} points at nothing in the base manifest") from None
    return here, last


def suggest(space: Space, trial: optuna.Trial) -> dict[str, PlainValue]:
    """The trial's parameters, drawn by its sampler (names: option names and pointers)."""
    params: dict[str, PlainValue] = {}
    for name, choices in space.options.items():
        params[name] = trial.suggest_categorical(name, choices)
    for pointer, span in space.fields.items():
        if isinstance(span, list):
            params[pointer] = trial.suggest_int(pointer, span[0], span[1])
        else:
            params[pointer] = trial.suggest_categorical(pointer, span["choices"])
    return params


def base_params(space: Space) -> dict[str, PlainValue] | None:
    """The base variant as parameters (the study's first trial), or None when the base lies
    outside the space (a designer's ranges that leave it out)."""
    content = base_manifest(space)
    from tablelog.domain.games import get_rules
    from tablelog.domain.games.declaring import structure_options, unstructure
    from tablelog.domain.wording import options_class

    cls = options_class(space.game)
    declared: dict[str, PlainValue] = (
        unstructure(structure_options(cls, {}, space.game)) if cls else {}
    )
    defaults = declared | get_rules(space.game).options({**space.fixed})  # (checked ones may
    # leave a default out, as Topas' options leave out a head start of 0)
    params: dict[str, PlainValue] = {}
    for name, choices in space.options.items():
        params[name] = defaults.get(name)
        if params[name] not in choices:
            return None
    for pointer, span in space.fields.items():
        here, last = _parent(content, pointer)
        value = here[last] if (isinstance(here, list) or last in here) else 0
        inside = span[0] <= value <= span[1] if isinstance(span, list) else value in span["choices"]
        if not inside:
            return None
        params[pointer] = value
    return params


def candidate(space: Space, params: Mapping[str, PlainValue]) -> Candidate:
    """The variant a trial's parameters describe."""
    options = {**space.fixed, **{k: v for k, v in params.items() if not k.startswith("/")}}
    content = base_manifest(space)
    if content is None:
        return Candidate(options)
    content = copy.deepcopy(content)
    for pointer, value in params.items():
        if pointer.startswith("/"):
            here, last = _parent(content, pointer)
            here[last] = value
    return Candidate(options, declared(space.game).tidy(content))


def invalid(space: Space, variant: Candidate) -> str | None:
    """Why the candidate cannot be played (the game's checks), else None."""
    if variant.manifest is None:
        return None
    reason: str | None = declared(space.game).invalid(variant.manifest, variant.options)
    return reason
