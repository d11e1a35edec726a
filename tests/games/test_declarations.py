"""Each game's declaration (`domain/games/<game>/declaration.py`) says what the engine really
does: the moves `legal_moves` offers in random playouts structure into the declared move classes
and, as a person types them (players by name), fit the JSON Schema of the match's moves, the
options `rules.options({})` gives structure into the options
class, the declared defaults are the engine's, and the docs page lists exactly the declared
options and shows every declared move shape (and no other)."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tablelog.domain.games import GAMES, PLUGINS, InvalidSetup
from tablelog.domain.games.declaring import (
    FALSE_WORDS,
    TRUE_WORDS,
    Flag,
    GameInfo,
    Vocabulary,
    json_key,
    json_schema,
    move_schema,
    move_shape,
    options_schema,
    structure,
    structure_options,
    unstructure,
)

from ..packaged import docs_page


def info_of(game: str) -> GameInfo:
    return PLUGINS[game].declaration


def option_fields(info: GameInfo) -> tuple[dataclasses.Field, ...]:
    """The declared options, one field each (GameInfo.options is a dataclass)."""
    assert dataclasses.is_dataclass(info.options), info.options
    return dataclasses.fields(info.options)


@pytest.mark.parametrize("game", GAMES)
def test_the_declaration_describes_the_engine(game):
    rules, info = GAMES[game], info_of(game)
    assert (info.id, info.name, info.min_players, info.max_players, info.simultaneous) == (
        rules.id,
        rules.name,
        rules.min_players,
        rules.max_players,
        rules.simultaneous,
    )


def an_engine(info: GameInfo, **attributes: object) -> Any:
    """An engine class naming `info` as its declaration, with these attributes of its own."""
    base = type(GAMES["topitop"])
    return type("Engine", (base,), dict(attributes), declared=info)


def test_an_engine_takes_what_the_game_is_from_its_declaration():
    info = dataclasses.replace(info_of("total-landscaping"), id="other", name="Other")
    engine = an_engine(info)
    assert (engine.id, engine.name, engine.min_players, engine.max_players) == (
        "other",
        "Other",
        2,
        2,
    )
    assert engine.simultaneous is True
    assert an_engine(info, name="Other").name == "Other"  # said twice, the same: kept


def test_an_engine_saying_otherwise_than_its_declaration_fails_at_import():
    with pytest.raises(TypeError, match="max_players is 9, its declaration says 2"):
        an_engine(info_of("topitop"), max_players=9)


@pytest.mark.parametrize("game", GAMES)
def test_the_declared_defaults_are_the_engines(game):
    rules, info = GAMES[game], info_of(game)
    defaults = rules.options({})
    later = {json_key(f) for f in option_fields(info) if f.metadata.get("later")}

    def stored(options: dict) -> dict:  # an option declared later is left out at its default
        return {k: v for k, v in options.items() if k not in later}

    assert stored(unstructure(structure_options(info.options, {}, info.name))) == defaults
    assert stored(unstructure(structure(defaults, info.options))) == defaults
    Draft202012Validator(options_schema(info)).validate(defaults)


@pytest.mark.parametrize("game", GAMES)
def test_every_true_false_option_takes_the_command_lines_words(game):
    rules, info = GAMES[game], info_of(game)
    flags = [json_key(f) for f in option_fields(info) if f.type in (Flag, "Flag")]
    for name in flags:
        for word in (*TRUE_WORDS, *FALSE_WORDS):
            for spelling in (word, word.upper(), f" {word.title()} "):
                assert rules.options({name: spelling})[name] is (word in TRUE_WORDS)
        for value in (True, False, 1, 0):
            assert rules.options({name: value})[name] is bool(value)
        with pytest.raises(InvalidSetup, match=f"option {name} must be true or false, got 'maybe'"):
            rules.options({name: "maybe"})


def offered(rules, state) -> list[tuple[object, dict]]:
    """(what to structure into, move) for every move offered now: whole moves, or for a
    simultaneous game each seat's choices (and one combined round)."""
    if not rules.simultaneous:
        return [("move", move) for move in rules.legal_moves(state)]
    choices = {seat: rules.choices(state, seat) for seat in rules.to_move(state)}
    pairs: list[tuple[object, dict]] = [
        ("part", choice) for seat_choices in choices.values() for choice in seat_choices
    ]
    if choices and all(choices.values()):
        pairs.append(("move", rules.combine(state, {s: c[0] for s, c in choices.items()})))
    return pairs


def playout_states(rules, players: int, seed: int, cap: int = 80):
    rng = random.Random(seed)
    options = rules.options({})
    state = rules.start(players, options, json.loads(json.dumps(rules.deal(players, options, rng))))
    for _ in range(cap):
        yield state
        if rules.outcome(state) is not None:
            return
        state = rules.apply(state, rules.random_move(state, rng))


def without_none(value):
    """JSON with the keys whose value is null left out (an optional key given or not)."""
    if isinstance(value, dict):
        return {k: without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_none(v) for v in value]
    return value


def classes_in(value) -> set[type]:
    """The declared classes of a structured move and of everything nested in it."""
    if dataclasses.is_dataclass(value):
        return {type(value)}.union(
            *(classes_in(getattr(value, f.name)) for f in dataclasses.fields(value))
        )
    if isinstance(value, list | tuple):
        return set().union(*map(classes_in, value))
    return set()


CASES = [
    (game, players, seed)
    for game, rules in GAMES.items()
    for players in range(rules.min_players, rules.max_players + 1)
    for seed in range(2)
]


@pytest.mark.parametrize(("game", "players", "seed"), CASES)
def test_every_offered_move_fits_the_declared_classes_and_schemas(game, players, seed):
    rules, info = GAMES[game], info_of(game)
    seats = ["Ann", "Ben", "Cy", "Dee"][:players]
    moves = parts = None
    for state in playout_states(rules, players, seed):
        if moves is None or parts is None:  # the match's own names: its manifest's
            vocabulary = Vocabulary(rules.words(state), players, exact=True)
            moves = Draft202012Validator(move_schema(info, vocabulary))
            parts = Draft202012Validator(
                {"anyOf": [json_schema(c, vocabulary) for c in info.parts]}
            )
        for what, move in json.loads(json.dumps(offered(rules, state))):
            if what == "move":
                typed = json.loads(json.dumps(unstructure(info.structure_move(move))))
                assert without_none(typed) == without_none(move)
                moves.validate(rules.shown_move(move, seats))
            else:
                shape = move_shape(move, info.parts)
                assert shape is not None, f"{move} has the keys of none of {info.parts}"
                structure(move, shape)
                parts.validate(move)
        for entry in rules.score(state):
            assert set(entry["categories"]) <= set(info.scoring)


# ---- the docs page -----------------------------------------------------------------------------


def section(page: str, heading: str) -> str:
    """The text under the first `## ` heading containing `heading`, to the next `## `."""
    match = re.search(
        rf"^## [^\n]*{heading}[^\n]*\n(.*?)(?=^## |\Z)", page, re.MULTILINE | re.DOTALL
    )
    assert match, f"no section '{heading}'"
    return match[1]


def json_objects(text: str) -> list[dict]:
    """Every JSON object written in the text (inline code or a json block) that parses."""
    found = []
    for snippet in re.findall(r"```json\n(.*?)```|`(\{[^`]*\})`", text, re.DOTALL):
        try:
            value = json.loads(snippet[0] or snippet[1])
        except json.JSONDecodeError:
            continue  # a form with placeholders (`{"draw": SHAPE}`)
        if isinstance(value, dict):
            found.append(value)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_the_docs_page_lists_exactly_the_declared_options(game):
    info = info_of(game)
    page = docs_page(game).read_text()
    listed = re.findall(r"^\| `(\w+)` +\|", section(page, "ptions"), re.MULTILINE)
    assert sorted(listed) == sorted(json_key(f) for f in option_fields(info))


@pytest.mark.parametrize("game", GAMES)
def test_the_docs_page_shows_every_declared_move_and_no_other(game):
    info = info_of(game)
    shown = json_objects(section(docs_page(game).read_text(), "Moves"))
    classes = (*info.moves, *info.parts)
    shapes = [move_shape(example, classes) for example in shown]
    unknown = [example for example, shape in zip(shown, shapes) if shape is None]
    assert unknown == [], f"docs/games/{game}.md shows moves no class declares"
    seen: set[type] = set()
    for example, shape in zip(shown, shapes):
        assert shape is not None  # no unknown example, asserted above
        seen |= classes_in(structure(example, shape))
        Draft202012Validator(json_schema(shape)).validate(example)
    missing = sorted(c.__name__ for c in classes if c not in seen)
    assert missing == [], f"docs/games/{game}.md shows no example of {missing}"
