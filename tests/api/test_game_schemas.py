"""Each game's moves and options as the OpenAPI document publishes them (generated from the
game's declaration): every request body names them, and a move the schema accepts for a game is
either applied or refused with a reason (422), never a server error."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.access import WritePolicy
from tablelog.api import build_document
from tablelog.domain.games import GAMES

from .conftest import new_match

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
        assert set(GAMES[game].options({})) == set(
            SCHEMAS[component(game, "Options")]["properties"]
        )


def from_schema(schema: dict) -> st.SearchStrategy:
    """Values the (generated, reference-free) JSON Schema accepts."""
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    for union in ("anyOf", "oneOf"):
        if union in schema:
            return st.one_of([from_schema(s) for s in schema[union]])
    kind: str = schema.get("type", "")
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
        return st.text(max_size=12)
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
def test_a_move_the_schema_accepts_is_applied_or_refused_with_a_reason(client, data):
    for game, rules in GAMES.items():
        players = max(rules.min_players, 2)  # solitaire Topas turns up start cards first
        setup = rules.deal(players, rules.options({}), random.Random(1))
        match = new_match(client, game, NAMES[:players], setup=setup)
        the_move = data.draw(from_schema(SCHEMAS[component(game, "Move")]), label=game)
        seat = match["to_move"][0] if match.get("to_move") else NAMES[0]
        answer = client.post(
            f"/api/v1/matches/{match['id']}/moves", json={"seat": seat, "move": the_move}
        )
        assert answer.status_code in (200, 201, 422), (game, the_move, answer.get_json())
        if answer.status_code == 422:
            assert answer.get_json()["message"].strip(), the_move
