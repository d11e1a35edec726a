"""A game's options take values of their declared kind, or are refused (issue 42): a count is
a whole number (`--option small=1.5` was stored as 1), a true/false option is true or false (or
0 and 1, or yes/no), never 1.0. The check is the domain's, so the command line, the HTTP API and
the Record page (which starts matches through the recorder) refuse alike, storing nothing."""

from __future__ import annotations

import dataclasses
import math

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.cli import main
from tablelog.domain.games import GAMES, InvalidSetup, declarations
from tablelog.domain.games.declaring import Flag, WholeNumber, json_key
from tests.conftest import stored_rows


def declared(kind: object) -> list[tuple[str, str]]:
    """(game, option) for every option of that declared kind."""
    return [
        (game, json_key(field))
        for game, info in declarations().items()
        for field in dataclasses.fields(info.options)
        if field.type in (kind, getattr(kind, "__name__", kind))
    ]


COUNTS, FLAGS = declared(WholeNumber), declared(Flag)
FRACTIONS = st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer())


def test_the_games_declare_counts_and_flags():
    assert COUNTS and FLAGS  # else the tests below test nothing


@pytest.mark.parametrize(("game", "option"), COUNTS)
@given(value=FRACTIONS | st.booleans() | st.sampled_from(["1.5", "٣", "1_0", "3 apples", ""]))
def test_a_count_is_a_whole_number_or_refused(game, option, value):
    with pytest.raises(InvalidSetup, match=f"option {option} must be a whole number"):
        GAMES[game].options({option: value})


@pytest.mark.parametrize(("game", "option"), COUNTS)
@given(count=st.integers(0, 4))
def test_a_whole_count_is_taken_as_typed_or_written(game, option, count):
    """3, 3.0 and "3" are one count (JSON has one kind of number; the command line types text)."""
    for spelled in (count, float(count), str(count), f" {count} "):
        checked = GAMES[game].options({option: spelled})
        assert checked.get(option, 0 if later(game, option) else None) == count


def later(game: str, option: str) -> bool:
    """An option declared later is left out of the checked options at its default (0 here)."""
    fields = dataclasses.fields(declarations()[game].options)
    return any(json_key(f) == option and f.metadata.get("later") for f in fields)


@pytest.mark.parametrize(("game", "option"), FLAGS)
@given(value=st.floats() | st.integers().filter(lambda n: n not in (0, 1)))
def test_a_flag_is_not_a_number_other_than_0_and_1(game, option, value):
    with pytest.raises(InvalidSetup, match=f"option {option} must be true or false"):
        GAMES[game].options({option: value})


@pytest.mark.parametrize(("game", "option"), COUNTS + FLAGS)
def test_the_command_line_refuses_and_stores_nothing(store, game, option):
    value = "1.5" if (game, option) in COUNTS else "1.0"
    players = ",".join(["Ann", "Ben", "Cy"][: GAMES[game].min_players])
    result = CliRunner().invoke(
        main, ["new", game, "--players", players, "--option", f"{option}={value}", "--store", store]
    )
    assert result.exit_code == 2 and result.stderr.startswith(f"tablelog: option {option} must")
    assert stored_rows(store) == []


@pytest.mark.parametrize(("game", "option"), COUNTS + FLAGS)
def test_the_api_refuses_and_stores_nothing(recorder, store, game, option):
    value = 1.5 if (game, option) in COUNTS else 1.0
    players = ["Ann", "Ben", "Cy"][: GAMES[game].min_players]
    answer = (
        create_app(recorder, WritePolicy())
        .test_client()
        .post(
            "/api/v1/matches", json={"game": game, "players": players, "options": {option: value}}
        )
    )
    # A count's schema says integer, so 1.5 breaks the published schema (400); 1.0 fits a
    # flag's schema (JSON's 1.0 is 1) and the rules refuse it (422).
    assert answer.status_code == (400 if (game, option) in COUNTS else 422), answer.get_json()
    assert option in answer.get_json()["message"]
    assert stored_rows(store) == []


@pytest.mark.parametrize(("game", "option"), COUNTS)
def test_the_recorder_refuses_what_the_record_page_would_send(recorder, store, game, option):
    players = ["Ann", "Ben", "Cy"][: GAMES[game].min_players]
    with pytest.raises(InvalidSetup, match="must be a whole number"):
        recorder.start(game, players, {option: math.pi})
    assert stored_rows(store) == []
