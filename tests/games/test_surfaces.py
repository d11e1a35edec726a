"""Every registered game, the test-only sixth one too, on every surface a player or an analyst
reaches it by: the command line (`new`, `move`, `show`), `simulate` and `stats`, the API's game
list and OpenAPI schemas, the Record page's setup questions, a score sheet, the Lab's restricted
players and the demo. A game that one of them does not know fails here by name: a game is
registered once (docs/adding-a-game.md), and every surface reads that registration."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
from click.testing import CliRunner

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.cli import main
from tablelog.dashboard.record import Ready
from tablelog.dashboard.record import setup as setups
from tablelog.dashboard.record.picking import DONE
from tablelog.demo import DEMO_SEED, demo_plans
from tablelog.demo_sheets import sheet_matches
from tablelog.domain.agents.bots import random_bot
from tablelog.domain.games import GAMES
from tablelog.domain.matches.sheet_matches import sheet_match
from tablelog.domain.restrictions import restricted, restrictions

PLAYERS = ["Ann", "Ben", "Cy", "Di"]


def seats(game: str) -> list[str]:
    return PLAYERS[: GAMES[game].min_players]


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output + (result.stderr or "")
    return result.output


@pytest.mark.parametrize("game", GAMES)
def test_the_command_line_records_shows_and_names_the_game(game, tmp_path):
    rules, names, store = GAMES[game], seats(game), str(tmp_path / "store.sqlite")
    assert game in cli("--help")
    setup = tmp_path / "setup.json"
    options = rules.options({})
    setup.write_text(json.dumps(rules.deal(len(names), options, random.Random(3))))
    match = cli("new", game, "--players", ",".join(names), "--setup", str(setup), "--store", store)
    state = rules.start(len(names), options, json.loads(setup.read_text()))
    move = rules.random_move(state, random.Random(4))
    seat = names[rules.to_move(state)[0]]
    cli("move", match.strip(), json.dumps(move), "--seat", seat, "--store", store)
    assert rules.name in cli("show", match.strip(), "--store", store)


@pytest.mark.parametrize("game", GAMES)
def test_simulate_plays_it_and_stats_reads_it(game, tmp_path):
    store = str(tmp_path / "store.sqlite")
    cli("simulate", game, "-n", "2", "--seed", "5", "--quiet", "--store", store)
    assert "2" in cli("stats", game, "--store", store)


@pytest.mark.parametrize("game", GAMES)
def test_the_api_lists_it_and_publishes_its_schemas(game, tmp_path):
    client = create_app(str(tmp_path / "store.sqlite"), WritePolicy()).test_client()
    listed = client.get("/api/v1/games").get_json()["games"]
    assert game in [entry["id"] for entry in listed]
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    name = GAMES[game].name.replace(" ", "")
    assert {f"{name}Move", f"{name}Options"} <= set(schemas), sorted(schemas)


@pytest.mark.parametrize("game", GAMES)
def test_the_record_page_setup_questions_start_a_match(game):
    rules = GAMES[game]
    for players in sorted({rules.min_players, rules.max_players}):
        picks: list[list[Any]] = []
        rng = random.Random(players)
        step = setups.menu(game, players, picks)
        while not isinstance(step, Ready):
            offered = [o for o in step.options if o.value != DONE] or list(step.options)
            picks.append([step.key, rng.choice(offered).value])
            step = setups.menu(game, players, picks)
        options = rules.options(step.move["options"])
        assert rules.to_move(rules.start(players, options, step.move["setup"]))


@pytest.mark.parametrize("game", GAMES)
def test_a_score_sheet_of_the_game_is_taken(game):
    names = seats(game)
    match = sheet_match(uuid.uuid4(), game, names, {"winners": [names[0]]})
    assert match.outcome is not None and match.outcome["winners"] == [0]


@pytest.mark.parametrize("game", GAMES)
def test_the_lab_plays_every_restriction_it_declares(game):
    rules = GAMES[game]
    for restriction in restrictions(game).values():
        rng = random.Random(6)
        bot = restricted(random_bot, restriction)
        options = rules.options({})
        state = rules.start(rules.min_players, options, rules.deal(rules.min_players, options, rng))
        for _ in range(rules.playout_cap or 300):
            if rules.outcome(state) is not None or not rules.to_move(state):
                break
            choices = {seat: bot(rules, state, seat, rng) for seat in rules.to_move(state)}
            move = rules.combine(state, choices) if rules.simultaneous else choices.popitem()[1]
            state = rules.apply(state, move)
    assert "first-legal" in restrictions(game)


@pytest.mark.parametrize("game", GAMES)
def test_the_demo_plays_it_and_logs_its_sheets(game):
    assert game in {plan.game for plan in demo_plans()}
    assert game in {match.game for match in sheet_matches(DEMO_SEED)}
