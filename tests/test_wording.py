"""One wording module (`domain/wording.py`) says every option, variant and move the way the game's
rule text does: a visitor looking south, the start card, sand piles, the deck running out. The
expected words below are written from the rule texts, not read off the code; and for every game
no declared key with an underscore or a hyphen, no `key=value` and no JSON comes through."""

from __future__ import annotations

import dataclasses
import re

import pytest
from click.testing import CliRunner

from tablelog.cli import main
from tablelog.domain import wording
from tablelog.domain.games import GAMES, declarations
from tablelog.domain.games.declaring import json_key
from tablelog.projections.projector import variant_text
from tablelog.simulation import make_plan, simulate
from tablelog.store import open_recorder

RAW = re.compile(r"[{}\[\]=]|\b(True|False|None)\b|\w_\w|\"\w+\":")


def options_of(game: str) -> type:
    return declarations()[game].options


# ---- options and variants ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options", "words"),
    [
        ("topiary", {"last_player_chooses": False, "manifest": "topiary"}, "standard rules"),
        ("topiary", {"last_player_chooses": True}, "last player chooses"),
        ("topiary", {"manifest": "topiary-v2"}, "tiles: topiary-v2"),
        ("topas", {"expert": False, "manifest": "topas"}, "standard rules"),
        ("topas", {"expert": "yes"}, "expert"),
        ("topitop", {"small": 3, "large": 4}, "small sand piles: 3"),
        ("topitop", {"small": "4", "large": 2}, "large sand piles: 2"),
        ("total-landscaping", {"hoeing": "after-effects"}, "hoeing: after effects"),
        ("geoshapes", {"half_board": True}, "half board"),
        ("geoshapes", {"placing_optional": True}, "placing optional"),
        ("geoshapes", {"empty_deck": "end"}, "when the deck runs out: end"),
        ("geoshapes", {}, "standard rules"),
    ],
)
def test_options_read_in_the_games_words(game, options, words):
    assert wording.option_words(options_of(game), options) == words


@pytest.mark.parametrize(
    ("game", "stored", "words"),
    [
        ("topas", "expert=false, manifest=topas", "standard rules"),  # the CLI said it raw
        ("topas", "expert=true, manifest=topas", "expert"),
        ("topiary", "last_player_chooses=true, manifest=topiary", "last player chooses"),
        ("topitop", "large=3, small=3", "small sand piles: 3, large sand piles: 3"),
        ("geoshapes", "empty_deck=end, half_board=true, manifest=geoshapes-v3", ""),
        ("topas", "standard", "standard rules"),
        ("topas", "expert=false, old_rule=2", "old rule: 2"),  # a key no longer declared
        ("chess", "clock=5", "clock: 5"),  # a game this install does not know
    ],
)
def test_a_stored_variant_reads_in_words(game, stored, words):
    declared = declarations().get(game)
    said = wording.variant_words(declared.options if declared else None, stored)
    if game == "geoshapes":
        assert "half board" in said and "when the deck runs out: end" in said
        assert "geoshapes" not in said.replace("geoshapes-v3", "")
    else:
        assert said == words
    assert not RAW.search(said), said


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_declared_key_shows_through_any_choice_of_options(game):
    cls = options_of(game)
    for field in dataclasses.fields(cls):
        other: object = not field.default if isinstance(field.default, bool) else "x-y"
        if isinstance(field.default, int) and not isinstance(field.default, bool):
            other = field.default - 1
        said = wording.variant_words(cls, variant_text({json_key(field): other}))
        assert json_key(field) not in said or "_" not in json_key(field), said
        assert not RAW.search(said), said


@pytest.mark.parametrize(
    ("game", "name"),
    [
        ("topiary", "Topiary"),
        ("topas", "Topas"),
        ("topitop", "Topitop"),
        ("total-landscaping", "Total Landscaping"),
        ("geoshapes", "GeoShapes"),
        ("carcassonne", "carcassonne"),
    ],
)
def test_a_game_is_named_as_it_is_called(game, name):
    assert wording.game_name(game) == name


# ---- moves ------------------------------------------------------------------------------------


def test_a_topiary_visitor_stands_at_a_tile_and_looks_one_way():
    rules = GAMES["topiary"]
    said = wording.move_words(rules, {"visitor": "a1:S"})
    assert said == "places a visitor at a1, looking south"
    taken = wording.move_words(
        rules, {"visitor": "e3:W", "take": "c3", "place": "Swan 4", "took": "Whale 1"}
    )
    assert taken.startswith("places a visitor at e3, looking west")
    assert "takes the tile at c3 (Whale 1) and places Swan 4 there" in taken
    diagonal = wording.move_words(rules, {"visitor": "a5:NE"})
    assert diagonal == "places a visitor at a5, looking north-east"


def test_a_topas_card_lies_beside_the_start_card_not_at_coordinates():
    rules = GAMES["topas"]
    said = wording.move_words(rules, {"card": "R2-G1", "at": [0, -2], "dir": "N"})
    assert said == "places R2-G1: R2 2 up from the start card's left half, G1 above it"
    right = wording.move_words(rules, {"card": "B3-Y1", "at": [2, 1], "dir": "E"})
    assert "2 right and 1 down from the start card's left half" in right
    assert "Y1 right of it" in right
    assert "(" not in said + right


def test_topitop_and_geoshapes_moves_use_the_rule_texts_words():
    assert (
        wording.move_words(GAMES["topitop"], {"place": "small", "to": "b2"})
        == "places a small sand pile on b2"
    )
    assert wording.move_words(GAMES["topitop"], {"from": "a1", "to": "b2"}) == "moves a1 to b2"
    said = wording.move_words(GAMES["geoshapes"], {"pick_up": 1}, ["Ann", "Ben"])
    assert said == "picks up Ben's shape discards"


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("move", [None, "place b2", {"unheard": 1}, {}])
def test_a_move_no_game_can_read_is_named_so_never_shown_as_json(game, move):
    said = wording.move_words(GAMES[game], move)
    assert said and not RAW.search(said), said


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_move_a_seeded_match_plays_is_said_without_notation(game, tmp_path):
    recorder = open_recorder(str(tmp_path / "store.sqlite"))
    simulate(recorder, make_plan(game, 1, seed=3), workers=1, progress=False)
    started = next(iter(recorder.started(game)))
    match = recorder.get(started.originator_id)
    rules = GAMES[game]
    for move in match.moves:
        said = wording.move_words(rules, move["move"], list(match.seats))
        assert not RAW.search(said), said
        assert not re.search(r"\(-?\d+,-?\d+\)|\b[a-e][1-5]:[NESW]", said), said


# ---- the command line -------------------------------------------------------------------------


def test_stats_names_games_and_variants_as_the_dashboard_does(tmp_path):
    store = str(tmp_path / "store.sqlite")
    recorder = open_recorder(store)
    simulate(recorder, make_plan("topas", 3, seed=5, players=3), workers=1, progress=False)
    recorder.close()
    said = CliRunner().invoke(main, ["stats", "topas"], env={"TABLELOG_STORE": store})
    assert said.exit_code == 0, said.output
    assert "== Topas:" in said.output
    assert "3p standard rules" in said.output
    assert "expert=false" not in said.output and "manifest=topas" not in said.output


def test_a_games_variant_is_worded_by_its_id():
    for game, stored, words in [
        ("topas", "expert=false, manifest=topas", "standard rules"),
        ("topas", "expert=true, manifest=topas", "expert"),
        ("topiary", "last_player_chooses=true, manifest=topiary", "last player chooses"),
        ("chess", "castling_rights=false", "castling rights: no"),  # a game not installed
    ]:
        assert wording.game_variant_words(game, stored) == words
    assert wording.game_option_words("topas", {"expert": True}) == "expert"
