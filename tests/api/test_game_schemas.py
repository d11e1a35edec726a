"""Each game's moves and options as the OpenAPI document publishes them (generated from the
game's declaration), and each match's own move schema (GET /matches/{match}/schema): the names
of its own manifest. Every request body names them; a new match's options are the named game's;
and a move a match's schema accepts is applied or refused by the rules with a reason (422),
never by the schema (400) and never a server error."""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.access import WritePolicy
from tablelog.api import build_document
from tablelog.domain.games import GAMES, declarations
from tablelog.domain.games.declaring import json_key
from tests.packaged import data_path

from .conftest import move, new_match

NAMES = ["Ann", "Ben", "Cy", "Dee"]
DOCUMENT = build_document(WritePolicy())
SCHEMAS = DOCUMENT["components"]["schemas"]


def component(game: str, what: str) -> str:
    return GAMES[game].name.replace(" ", "") + what


def test_every_game_publishes_its_moves_and_options_and_the_bodies_name_them():
    for body, field, what in [
        ("NewMove", "move", "Move"),
        ("NewMatch", "options", "Options"),
        ("NewSheet", "options", "Options"),
    ]:
        named = SCHEMAS[body]["properties"][field]["anyOf"]
        assert named == [
            {"$ref": f"#/components/schemas/{component(game, what)}"} for game in GAMES
        ]
    for game in GAMES:
        kinds = SCHEMAS[component(game, "Move")]["oneOf"]
        assert kinds and all(kind["additionalProperties"] is False for kind in kinds)
        options = dataclasses.fields(declarations()[game].options)
        later = {json_key(f) for f in options if f.metadata.get("later")}  # left out at default
        assert set(GAMES[game].options({})) | later == set(
            SCHEMAS[component(game, "Options")]["properties"]
        )


def test_a_new_match_takes_the_options_of_the_game_it_names(client, store):
    # `manifest` is an option of GeoShapes, Topas and Topiary, not of Topitop
    answer = client.post(
        "/api/v1/matches",
        json={"game": "topitop", "players": ["Ann", "Ben"], "options": {"manifest": "topas"}},
    )
    assert answer.status_code == 400, answer.get_json()
    assert "options" in answer.get_json()["message"]
    assert "'manifest' was unexpected" in answer.get_json()["message"]
    started = new_match(client, "topas", options={"manifest": "topas"}, setup=START)
    assert started["options"]["manifest"] == "topas"


# ---- a match's own names -------------------------------------------------------------------


START = {"start": "R1-G2"}  # a Topas match as the table sees it: the start card


def club_deck() -> dict:
    """Topas's deck and two cards of a fifth colour, purple, as a club might print them."""
    content = json.loads((data_path("manifests") / "topas.json").read_text())
    content["colours"]["P"] = "purple"
    content["cards"] += ["P1-R2", "P2-R1"]
    return {"name": "club-deck", "content": content}


# Two players play without one sculpture type; the garden's centre tile starts face up.
NO_HYDRA = {"removed": "Hydra", "garden": {"c3": "Sphinx 4"}}


def club_garden() -> dict:
    types = ["Dragon", "Unicorn", "Griffin", "Phoenix", "Kraken", "Sphinx", "Hydra", "Pegasus"]
    content = {"game": "topiary", "types": types, "values": [1, 2, 3, 4, 5]}
    return {"name": "club-garden", "content": content}


def move_names(schema: dict, kind: str, field: str) -> list[str]:
    """The names a move kind's field lists (`any_case`'s enum) in a served move schema."""
    (shape,) = [s for s in schema["oneOf"] if s["title"] == kind]
    return shape["properties"][field]["anyOf"][0]["enum"]


def test_a_match_publishes_the_names_of_its_own_manifest(client):
    default = new_match(client, "topas", setup=START)["id"]
    club = new_match(client, "topas", manifest=club_deck(), setup=START)["id"]
    for match, card, listed in [(default, "P1-R2", False), (club, "P1-R2", True)]:
        schema = client.get(f"/api/v1/matches/{match}/schema").get_json()
        assert (card in move_names(schema, "Place", "card")) is listed
        assert "R2-P1" in move_names(schema, "Place", "card") or not listed  # either half first
    garden = new_match(client, "topiary", manifest=club_garden(), setup=NO_HYDRA)["id"]
    schema = client.get(f"/api/v1/matches/{garden}/schema").get_json()
    assert "Dragon 3" in move_names(schema, "VisitAndTake", "place")
    assert "Swan 3" not in move_names(schema, "VisitAndTake", "place")


def test_a_score_sheet_has_no_moves_of_its_own_and_publishes_its_game_s(client):
    sheet = {"game": "topas", "players": ["Ann", "Ben"], "sheet": {"winners": ["Ann"]}}
    logged = client.post("/api/v1/sheets", json=sheet).get_json()["id"]
    schema = client.get(f"/api/v1/matches/{logged}/schema").get_json()
    assert schema == SCHEMAS["TopasMove"]
    refused = move(client, logged, "Ann", {"card": "R1-G2", "at": [0, -1], "dir": "E"})
    assert refused.status_code == 409  # the recorder's: a logged sheet is an ended match


def test_a_name_only_another_manifest_gives_is_refused_by_the_schema(client, store):
    """The club's purple card is a name in its match and no name in a match of the packaged
    deck; a Topiary garden of dragons knows no swans."""
    club = new_match(client, "topas", manifest=club_deck(), setup=START)["id"]
    default = new_match(client, "topas", setup=START)["id"]
    played = {"card": "P1-R2", "at": [0, -1], "dir": "E"}
    assert move(client, club, "Ann", played).status_code == 200  # a card of its deck
    refused = move(client, default, "Ann", played)
    assert refused.status_code == 400 and "'P1-R2' is not one of" in refused.get_json()["message"]
    garden = new_match(client, "topiary", manifest=club_garden(), setup=NO_HYDRA)["id"]
    swan = {"visitor": "c1:S", "take": "c1", "place": "Swan 3"}
    refused = move(client, garden, "Ann", swan)
    assert refused.status_code == 400 and "'Swan 3'" in refused.get_json()["message"]
    dragon = move(client, garden, "Ann", {**swan, "place": "dragon 3"})
    assert dragon.status_code in (200, 422), dragon.get_json()


# ---- what a match's schema accepts the API accepts (or the rules refuse, saying why) -------


def from_schema(schema: dict) -> st.SearchStrategy:
    """Values the (generated, reference-free) JSON Schema accepts."""
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    for union in ("anyOf", "oneOf"):
        if union in schema:
            return st.one_of([from_schema(s) for s in schema[union]])
    kind: str = schema.get("type", "string" if "pattern" in schema else "")
    if kind == "object":
        required = set(schema["required"])
        fields = {name: from_schema(s) for name, s in schema["properties"].items()}
        return st.fixed_dictionaries(
            {k: v for k, v in fields.items() if k in required},
            optional={k: v for k, v in fields.items() if k not in required},
        )
    if kind == "array":
        if "prefixItems" in schema:
            return st.tuples(*map(from_schema, schema["prefixItems"])).map(list)
        return st.lists(from_schema(schema["items"]), max_size=4)
    if kind == "string":
        if "pattern" in schema:
            return st.from_regex(schema["pattern"], fullmatch=True)
        return st.text(min_size=schema.get("minLength", 0), max_size=12)
    if kind == "integer":
        return st.integers(schema.get("minimum", -5), schema.get("maximum", 40))
    return {"boolean": st.booleans(), "null": st.none()}[kind]


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_a_move_the_match_s_schema_accepts_is_applied_or_refused_with_a_reason(client, data):
    for game, rules in GAMES.items():
        players = max(rules.min_players, 2)  # solitaire Topas turns up start cards first
        setup = rules.deal(players, rules.options({}), random.Random(1))
        match = new_match(client, game, NAMES[:players], setup=setup)
        schema = client.get(f"/api/v1/matches/{match['id']}/schema").get_json()
        the_move = data.draw(from_schema(schema), label=game)
        seat = match["to_move"][0] if match.get("to_move") else NAMES[0]
        answer = move(client, match["id"], seat, the_move)
        assert answer.status_code in (200, 422), (game, the_move, answer.get_json())
        if answer.status_code == 422:
            assert answer.get_json()["message"].strip(), the_move
