"""The schemas the API publishes are its rules of entry (issue 45, part 3).

- A move naming what the game does not have (a card, a tile, a shape, a garden, a cell, a
  sculpture type) is refused by the match's schema (400, the schema's words), or, where the
  name is the game's but the move breaks a rule, by the rules (422): never accepted, and
  nothing is stored. On SQLite and PostgreSQL.
- GeoShapes players in a move are numbered from 1, as the API reads them: `{"pick_up": 4}` is
  the fourth player; `{"pick_up": 0}` is no player.
- Every move the API offers (the legal moves, over seeded playouts of every game and player
  count) fits the schema the match publishes, and is accepted.
- The server answers 400 exactly when a body breaks the schema it publishes (the document's,
  or for a move the match's own), read back from what it serves.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.domain.games import GAMES
from tablelog.store import open_recorder
from tests.conftest import stored_rows
from tests.hostile import INTEGERS, TEXT

from .conftest import move, new_match

NAMES = ["Ann", "Ben", "Cy", "Dee"]


@pytest.fixture
def any_client(any_recorder):
    return create_app(any_recorder, WritePolicy()).test_client()


def dealt(client, game: str, players: int = 2, seed: int = 1) -> dict:
    """A new match of `game` with a whole deal (every hand known)."""
    rules = GAMES[game]
    setup = rules.deal(players, rules.options({}), random.Random(seed))
    return new_match(client, game, NAMES[:players], setup=setup)


def round_of(east: dict, west: dict | None = None) -> dict:
    """A Total Landscaping round: the Eastern garden's choice and a fine Western one."""
    return {"east": east, "west": west or {"card": "Blue", "garden": "west", "tile": "A"}}


PLAY = {"card": "Green", "garden": "east", "tile": "A"}
VISIT = {"visitor": "c1:S", "take": "c1", "place": "Swan 4"}
PLACE = {"card": "R1-G2", "at": [0, -1], "dir": "E"}

# (game, players, the move, the status, words of the message). The first five are the issue's.
REFUSED = [
    ("topas", 2, PLACE | {"card": "Q9-Z9"}, 400, "'Q9-Z9' is not one of"),
    ("topiary", 2, VISIT | {"place": "Dragon 9"}, 400, "'Dragon 9' is not one of"),
    ("total-landscaping", 2, round_of(PLAY | {"card": "Black"}), 400, "'Black' is not one of"),
    ("total-landscaping", 2, round_of(PLAY | {"garden": "north"}), 400, "'north' is not one of"),
    ("geoshapes", 2, {"draw": "Dodecahedron"}, 400, "'Dodecahedron' is not one of"),
    ("topas", 2, {"start": "R1-R2"}, 400, "'R1-R2' is not one of"),
    ("topas", 2, PLACE | {"dir": "X"}, 400, "'X' does not match"),
    ("topiary", 2, VISIT | {"visitor": "a1:Q"}, 400, "'a1:Q' is not one of"),
    ("topiary", 2, VISIT | {"take": "a9"}, 400, "'a9' is not one of"),
    ("topiary", 2, {"keep": ["Swan 9", "Swan 1", "Swan 2"]}, 400, "'Swan 9' is not one of"),
    ("total-landscaping", 2, round_of(PLAY | {"tile": "Z9"}), 400, "'Z9' is not one of"),
    ("total-landscaping", 2, round_of({"hoe": ["A", "Q1"]}), 400, "'Q1' is not one of"),
    ("geoshapes", 2, {"place": "Square", "on": "Moon"}, 400, "'Moon' is not one of"),
    ("geoshapes", 2, {"switch": "North-West circle"}, 400, "is not one of"),
    ("geoshapes", 2, {"discard": "Square", "to": "Middle"}, 400, "'Middle' is not one of"),
    ("geoshapes", 2, {"pick_up": 0}, 400, "less than the minimum of 1"),
    ("geoshapes", 2, {"pick_up": 3}, 400, "greater than the maximum of 2"),
    ("topitop", 2, {"place": "castle", "to": "a1"}, 400, "'castle' is not one of"),
    ("topitop", 2, {"place": "small", "to": "d4"}, 400, "'d4' does not match"),
    # names of the game, moves its rules refuse
    ("topitop", 2, {"from": "a1", "to": "b2"}, 422, "a1"),
    ("geoshapes", 2, {"pick_up": "Cid"}, 422, "1 Ann, 2 Ben"),
    ("topas", 2, PLACE | {"at": [5, 5]}, 422, ""),
]


@pytest.mark.parametrize(("game", "players", "the_move", "status", "words"), REFUSED)
def test_a_move_naming_what_the_game_has_not_is_refused_and_stores_nothing(
    any_client, any_store, game, players, the_move, status, words
):
    match = dealt(any_client, game, players)
    before = stored_rows(any_store)
    answer = move(any_client, match["id"], match["to_move"][0], the_move)
    kind = "bad-request" if status == 400 else answer.get_json()["error"]
    assert (answer.status_code, answer.get_json()["error"]) == (status, kind), answer.get_json()
    assert words in answer.get_json()["message"]
    assert "\n" not in answer.get_json()["message"]
    assert stored_rows(any_store) == before


# ---- players by number, from 1 --------------------------------------------------------------

PREFERRED = ("draw", "place", "discard", "end_play")  # a quick play, no trades


def play_until_offered(client, match_id: str, wanted: dict) -> str:
    """Play the match on (draw, place, discard) until `wanted` is offered to the player to
    move; that player's name."""
    for _ in range(200):
        offered = client.get(f"/api/v1/matches/{match_id}/legal-moves").get_json()["moves"]
        ((seat, moves),) = offered.items()
        if wanted in moves:
            return seat
        chosen = min(
            (m for m in moves if next(iter(m)) in PREFERRED),
            key=lambda m: PREFERRED.index(next(iter(m))),
        )
        assert move(client, match_id, seat, chosen).status_code == 200
    raise AssertionError(f"{wanted} was never offered")


def test_a_geoshapes_player_is_numbered_from_1_as_the_api_reads_it(any_client, any_store):
    match = dealt(any_client, "geoshapes", players=4)
    seat = play_until_offered(any_client, match["id"], {"pick_up": "Dee"})
    before = stored_rows(any_store)
    for refused in (0, 5):
        answer = move(any_client, match["id"], seat, {"pick_up": refused})
        assert answer.status_code == 400, answer.get_json()
        assert "request body.move.pick_up" in answer.get_json()["message"]
    assert stored_rows(any_store) == before
    answer = move(any_client, match["id"], seat, {"pick_up": 4})
    assert answer.status_code == 200, answer.get_json()
    stored = open_recorder(any_store).get(match["id"]).moves[-1]["move"]
    assert stored == {"pick_up": 3}  # the record's own form: Dee's seat, counted from 0


def test_the_schemas_number_players_from_1_up_to_the_match_s(client):
    for players in (2, 4):
        match = dealt(client, "geoshapes", players)
        schema = client.get(f"/api/v1/matches/{match['id']}/schema").get_json()
        (pick_up,) = [s for s in schema["oneOf"] if s["title"] == "PickUp"]
        number = pick_up["properties"]["pick_up"]["anyOf"][0]
        assert (number["minimum"], number["maximum"]) == (1, players)


# ---- every move the API offers fits the match's schema, and is taken -----------------------

CASES = [
    (game, players)
    for game, rules in GAMES.items()
    for players in range(max(rules.min_players, 2), rules.max_players + 1)
]


def offered_moves(client, match_id: str) -> list[tuple[str, dict]]:
    """(seat, move) for every move offered now; in a simultaneous game, every seat's choices
    as rounds with another seat's first choice."""
    answer = client.get(f"/api/v1/matches/{match_id}/legal-moves").get_json()
    choices = answer["moves"]
    if not answer["simultaneous"]:
        return [(seat, m) for seat, moves in choices.items() for m in moves]
    if not all(choices.values()):
        return []
    gardens = dict(zip(choices, ("east", "west")))  # seats in turn order tend these
    first = {gardens[seat]: moves[0] for seat, moves in choices.items()}
    return [
        (seat, {**first, gardens[seat]: choice})
        for seat, moves in choices.items()
        for choice in moves
    ]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_move_the_api_offers_fits_the_match_s_schema_and_is_taken(client, game, players):
    match = dealt(client, game, players, seed=players)
    schema = client.get(f"/api/v1/matches/{match['id']}/schema").get_json()
    fits = Draft202012Validator(schema)
    rng = random.Random(players)
    for _ in range(25):
        offered = offered_moves(client, match["id"])
        if not offered:
            break
        for _, the_move in offered:
            fits.validate(the_move)
        seat, chosen = rng.choice(offered)
        answer = move(client, match["id"], seat, chosen)
        assert answer.status_code == 200, (chosen, answer.get_json())


# ---- the server validates against what it publishes -------------------------------------------

VALID = {
    "moves": {"seat": "Ann", "move": {"place": "large", "to": "b2"}},
    "undo": {"by": "Ann", "reason": "meant c3"},
    "claims": {"by": "Ann", "scores": {"Ann": 1, "Ben": 0}},
    "disputes": {"by": "Ben", "about": "the slide"},
    "disputes/resolve": {"by": "Umpire", "ruling": "stands"},
    "end": {"draw": True},
    "abandon": {"by": "Ann", "reason": "the cafe closed"},
}
ELSEWHERE = {
    "/api/v1/matches": ("NewMatch", {"game": "topitop", "players": ["Ann", "Ben"]}),
    "/api/v1/sheets": (
        "NewSheet",
        {"game": "topitop", "players": ["Ann", "Ben"], "sheet": {"winners": ["Ann"]}},
    ),
    "/api/v1/lab/experiments": ("NewExperiment", {"kind": "variants", "game": "topitop"}),
    "/api/v1/lab/experiments/abcd/cancel": ("CancelExperiment", {}),
}
BODY_OF = {
    "undo": "Undo",
    "claims": "Claim",
    "disputes": "Dispute",
    "disputes/resolve": "Resolve",
    "end": "End",
    "abandon": "Abandon",
}


# JSON a client can send (no NaN, not nested past what the server parses): any kind of value.
SCALARS = st.none() | st.booleans() | INTEGERS | st.floats(allow_nan=False, allow_infinity=False)
JSON = st.recursive(
    SCALARS | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)


def mutated(body: dict) -> st.SearchStrategy:
    """`body` as it is, without one of its fields, with one more, or one field another value
    (a value of the right kind or of any kind), down into the move."""
    added = st.tuples(TEXT, JSON).map(lambda kv: {**body, kv[0]: kv[1]})
    if not body:
        return st.just(body) | added
    keys = sorted(body)
    dropped = st.sampled_from(keys).map(lambda k: {n: v for n, v in body.items() if n != k})
    changed = st.tuples(st.sampled_from(keys), JSON | TEXT | st.integers(-3, 9)).map(
        lambda kv: {**body, kv[0]: kv[1]}
    )
    inner: st.SearchStrategy[dict] = st.nothing()
    if isinstance(body.get("move"), dict):
        inner = mutated(body["move"]).map(lambda m: {**body, "move": m})
    return st.just(body) | dropped | added | changed | inner


def served_validator(client, name: str, move_schema: dict | None = None) -> Draft202012Validator:
    """A validator of body `name` compiled here from the document the server serves (and for a
    move, the match's schema it serves)."""
    document = client.get("/api/v1/openapi.json").get_json()
    components = document["components"]["schemas"]
    if move_schema is None:
        return Draft202012Validator(
            {"$ref": f"#/components/schemas/{name}", "components": {"schemas": components}}
        )
    body = components[name]
    return Draft202012Validator({**body, "properties": {**body["properties"], "move": move_schema}})


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_a_body_is_refused_400_exactly_when_it_breaks_the_schema_the_server_serves(client, data):
    match = new_match(client)["id"]
    targets = {
        f"/api/v1/matches/{match}/{path}": (BODY_OF.get(path), VALID[path]) for path in VALID
    }
    url, (name, valid) = data.draw(st.sampled_from(sorted({**targets, **ELSEWHERE}.items())))
    if name is None:  # a move: the match's own schema
        schema = client.get(f"/api/v1/matches/{match}/schema").get_json()
        validator = served_validator(client, "NewMove", schema)
    else:
        validator = served_validator(client, name)
    body = data.draw(mutated(valid), label="body")
    answer = client.post(url, json=body)
    breaks = not validator.is_valid(body)
    assert (answer.status_code == 400) == breaks, (url, body, answer.get_json())
    if breaks:
        assert answer.get_json()["error"] == "bad-request"
