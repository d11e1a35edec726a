"""Sentences every front end shows the same way: who won, how many may play, the options a
match is played with, a stored variant and a move, each in the game's own words (the labels its
declaration gives its options, its `describe` for a move). No raw key and no JSON reaches a
person through here.

Pure functions of plain values (no match, no store), so the domain's own checks (`start_match`)
and the command line, the HTTP API and the dashboard word them alike.
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from .games.declaring import Flag, OptionValueError, WholeNumber, flag, json_key, whole_number
from .plain import PlainDict, PlainMapping


class PlayerCounts(Protocol):
    # Read-only members, so a rules class (which holds them as class variables) satisfies it.
    @property
    def name(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...


def winners_text(winners: Sequence[str]) -> str:
    """'Ann wins', 'Ann and Ben win' (a shared win), 'no winner' (a draw, or nobody won)."""
    if not winners:
        return "no winner"
    return f"{' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}"


def outcome_text(
    outcome: Mapping[str, Any] | None, undecided: str = "the game is still running"
) -> str:
    """An outcome by name (`views.named_outcome`) in words: 'Ann and Ben win (reason)';
    `undecided` when there is none yet."""
    if outcome is None:
        return undecided
    reason = outcome.get("reason")
    return winners_text(outcome["winners"]) + (f" ({reason})" if reason else "")


def player_counts(rules: PlayerCounts) -> str:
    """'2' or '2-4': how many players the game takes."""
    if rules.min_players == rules.max_players:
        return f"{rules.min_players}"
    return f"{rules.min_players}-{rules.max_players}"


def player_count_refusal(rules: PlayerCounts, count: int) -> str | None:
    """None when `count` players may play the game; otherwise why not, in the words every front
    end shows: 'Topiary is for 2-4 players, not 5'."""
    if rules.min_players <= count <= rules.max_players:
        return None
    return f"{rules.name} is for {player_counts(rules)} players, not {count}"


# ---- options, variants and moves in the game's words ---------------------------------------

STANDARD = "standard rules"


def option_label(field: dataclasses.Field[object]) -> str:
    """An option's name for a person: its declared label ("last player chooses"), else its key
    with spaces ("half board")."""
    return field.metadata.get("label") or field.name.strip("_").replace("_", " ")


def option_words(cls: type | None, options: PlainMapping) -> str:
    """Chosen options in the game's words, for a person: an option at its default is not
    named, a true/false one reads as its label ("last player chooses") or "not ..." and any
    other as "label: value" ("tiles: topiary-v2", "hoeing: after effects"); "standard rules"
    when nothing differs from the defaults. A key the class does not declare (an older
    record's, or any of a game this install does not declare: `cls` None) is named with
    spaces for its underscores ("old rule: 3")."""
    hints = typing.get_type_hints(cls) if cls is not None else {}
    declared = {json_key(f): f for f in dataclasses.fields(cls)} if cls is not None else {}
    words = []
    for name, field in declared.items():
        if name not in options:
            continue
        value, label = options[name], option_label(field)
        read = READ.get(hints[field.name])
        if read is not None:
            try:
                value = read(value)  # "yes", 1 and true are one choice; so are "4" and 4
            except OptionValueError:
                pass  # not a value of its kind after all: shown as it is
        if value == _default(field):
            continue
        if isinstance(value, bool):
            words.append(label if value else f"not {label}")
        else:
            words.append(f"{label}: {unit_words(field, value)}")
    words += [
        f"{k.replace('_', ' ')}: {value_words(v)}" for k, v in options.items() if k not in declared
    ]
    return ", ".join(words) or STANDARD


READ: dict[object, Callable[[object], object]] = {Flag: flag, WholeNumber: whole_number}


def unit_words(field: dataclasses.Field[object], value: object) -> str:
    """An option's value with what it counts, where declared ("2 points"), else `value_words`."""
    unit = field.metadata.get("unit")
    if unit and value == 1 and unit.endswith("s"):
        unit = unit[:-1]  # "1 point"
    return f"{value_words(value)} {unit}" if unit else value_words(value)


def value_words(value: object) -> str:
    """An option's value for a person: yes/no, a number, a word choice with spaces for its
    hyphens ("after effects"); a list or a mapping as its items, never JSON."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {value_words(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(map(value_words, value))
    if isinstance(value, str) and WORD_CHOICE.fullmatch(value):
        return value.replace("-", " ")
    return str(value)


# A declared choice of words ("stops-effects"); a manifest's name ("topiary-v2") is left as is.
WORD_CHOICE = re.compile(r"[a-z]+(?:-[a-z]+)+")


def _default(field: dataclasses.Field[object]) -> object:
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return None if field.default is dataclasses.MISSING else field.default


# The separators of a stored variant text (`projections.projector.variant_text`: "large=4,
# small=4"): a comma and a space before the next key.
_NEXT_KEY = re.compile(r", (?=[A-Za-z_][\w-]*=)")


def variant_options(variant: str) -> PlainDict | None:
    """The options a stored variant text names ("standard": none); None when it is not one."""
    if variant == "standard":
        return {}
    options: PlainDict = {}
    for pair in _NEXT_KEY.split(variant):
        name, equals, value = pair.partition("=")
        if not equals:
            return None
        try:  # `variant_text` writes every value but text as JSON
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    return options


def variant_words(options_class: type | None, variant: str) -> str:
    """A stored variant text ("last_player_chooses=false, manifest=topiary", as the tables
    group matches by it) in the words the game declares for its options ("standard rules",
    "last player chooses, tiles: topiary-v2"), as every front end shows it. The text stays
    the key a filter takes. A text this cannot read is shown with spaces for its
    underscores."""
    options = variant_options(variant)
    if options is None:
        return variant.replace("_", " ")
    return option_words(options_class, options)


def options_class(game: str) -> type | None:
    """The options a game declares (its dataclass), None for a game this install does not
    declare."""
    from .games import PLUGINS  # the registry imports every game: only when options are said

    plugin = PLUGINS.get(game)
    return plugin.declaration.options if plugin is not None else None


def game_variant_words(game: str, variant: str) -> str:
    """`variant_words` for a match of `game` by its id: "expert", "standard rules"."""
    return variant_words(options_class(game), variant)


def game_option_words(game: str, options: PlainMapping) -> str:
    """`option_words` for a match of `game` by its id."""
    return option_words(options_class(game), options)


def game_value_words(game: str, name: str, value: object) -> str:
    """One value of `game`'s option `name` for a person, with what it counts where declared
    ("2 points"); any other name's value as `value_words` says it."""
    cls = options_class(game)
    fields = {json_key(f): f for f in dataclasses.fields(cls)} if cls is not None else {}
    return unit_words(fields[name], value) if name in fields else value_words(value)


class Describes(Protocol):
    @property
    def id(self) -> str: ...
    def describe(self, move: PlainMapping, seats: Sequence[str] = ()) -> str: ...


UNREADABLE = "a move this game cannot read"


def move_words(rules: Describes, move: object, seats: Sequence[str] = ()) -> str:
    """A move in the game's words ("places a visitor at a1, looking south"): the game's own
    `describe`; a move it cannot read (not a mapping, not one of the shapes its declaration
    gives, or one its `describe` fails on) is named as such, never shown as JSON."""
    from .games import PLUGINS  # the registry imports every game: only when a move is said

    plugin = PLUGINS.get(rules.id)
    if plugin is not None and plugin.declaration.move_shape(move) is None:
        return UNREADABLE
    if isinstance(move, Mapping):
        try:
            text = rules.describe(move, seats)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            text = ""
        if text and not JSONISH.search(text):
            return text
    return UNREADABLE


# What no move's words hold: JSON, or Python's None where a value was missing.
JSONISH = re.compile(r"[{}\[\]]|\"\w+\":|\bNone\b")


def game_name(game: str) -> str:
    """A game's name as its declaration gives it ("Total Landscaping") for its id
    ("total-landscaping"); an id no installed game declares, with spaces for its hyphens."""
    from .games import PLUGINS  # the registry imports every game: only when a name is asked

    plugin = PLUGINS.get(game)
    return plugin.declaration.name if plugin is not None else game.replace("-", " ")


def game_names(games: Sequence[str]) -> list[str]:
    return [game_name(game) for game in games]
