"""Every game declares a move cap; past it an undecided match is offered a draw by agreement."""

from __future__ import annotations

import json

import pytest

from tablelog.domain.games import GAMES
from tablelog.domain.matches import views
from tests.long_matches import shuffled_moves
from tests.packaged import docs_page
from tests.test_cli import run


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_declares_its_own_cap_in_its_documentation(game):
    rules = GAMES[game]
    assert "move_cap" in type(rules).__dict__, f"{game} declares no move_cap of its own"
    doc = docs_page(game).read_text()
    assert f"{rules.move_cap:,} moves" in doc


def test_a_looping_topitop_match_is_offered_a_draw_at_its_cap(recorder):
    cap = GAMES["topitop"].move_cap
    match_id = recorder.start("topitop", ["Ann", "Ben"])
    moves = list(shuffled_moves(cap))
    for seat, move in moves[:-1]:
        recorder.record(match_id, seat, move)
    assert not views.draw_offered(recorder.get(match_id))
    done = recorder.record(match_id, *moves[-1])
    assert views.draw_offered(done) and views.state_view(done)["draw_offered"]
    ended = recorder.end(match_id, agreed_draw=True)
    assert ended.outcome["reason"] == "draw by agreement" and not views.draw_offered(ended)


def test_the_command_line_says_so(store):
    match_id = run(store, "new", "topitop", "--players", "Ann,Ben").stdout.strip()
    from tablelog.store import open_recorder

    recorder = open_recorder(store)
    moves = list(shuffled_moves(GAMES["topitop"].move_cap))
    for seat, move in moves[:-1]:
        recorder.record(match_id, seat, move)
    seat, move = moves[-1]
    result = run(store, "move", match_id, "--seat", str(seat + 1), json.dumps(move))
    assert result.returncode == 0
    assert "the players may agree a draw" in result.stdout
    assert json.loads(run(store, "show", match_id, "--json").stdout)["draw_offered"] is True
