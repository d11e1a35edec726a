"""What `tablelog` says about players: their names, never a raw argument or a seat counted from 0,
while the stored events of release 0.1 keep their words (and `audit` still finds them right)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tablelog.cli import main
from tablelog.domain.games import get_rules
from tests.games.test_topiary import finished

RELEASE_0_1 = Path(__file__).parent / "fixtures" / "release-0.1" / "export.jsonl"
TOPIARY = "fa1542de-4762-416d-990b-1066668340b9"  # Ann wins a tie on hand points
GEOSHAPES = "e6550564-7d4b-41a4-a3d4-554fdd6e5a8c"  # Ann completes the Sailboat


def tablelog(store: str, *args: str):
    return CliRunner().invoke(main, list(args), env={"TABLELOG_STORE": store})


def test_a_move_by_seat_number_is_said_with_the_players_name(store):
    match_id = tablelog(store, "new", "topitop", "--players", "Ann,Ben").output.strip()
    first = tablelog(store, "move", match_id, "--seat", "1", '{"place": "small", "to": "b2"}')
    second = tablelog(store, "move", match_id, "--seat", "2", '{"place": "large", "to": "a1"}')
    assert first.output.startswith("move 1: Ann places"), first.output
    assert second.output.startswith("move 2: Ben places"), second.output
    undone = tablelog(store, "undo", match_id, "--by", "Ann", "--reason", "slip")
    assert undone.output.startswith("withdrew move 2: Ben places"), undone.output


def test_release_0_1_outcomes_are_shown_with_names_and_still_audit_clean(store, tmp_path):
    ours = tmp_path / "two.jsonl"
    lines = RELEASE_0_1.read_text().splitlines()
    ours.write_text("\n".join(line for line in lines if TOPIARY in line or GEOSHAPES in line))
    assert tablelog(store, "import", str(ours)).exit_code == 0
    said = {
        match: json.loads(tablelog(store, "score", match, "--json").output)["outcome"]["reason"]
        for match in (TOPIARY, GEOSHAPES)
    }
    assert said == {
        TOPIARY: "tied on 65 points, Ann has the most hand points (8 to 6)",
        GEOSHAPES: "Ann completed a figure and the circle with a shape to spare",
    }
    for match, stored in (
        (TOPIARY, "tied on 65 points, player 1 has the most hand points (8 to 6)"),
        (GEOSHAPES, "seat 0 completed a figure and the circle with a shape to spare"),
    ):
        record = json.loads(tablelog(store, "export", match).output)
        (end,) = [e for e in record["events"] if e["type"] == "end"]
        assert end["outcome"]["reason"] == stored  # the stored words, unchanged
        audited = tablelog(store, "audit", match)
        assert audited.exit_code == 0, audited.output


def test_topiarys_reason_names_the_winner_where_the_board_is_drawn():
    rules = get_rules("topiary")
    state = finished(["c1:S", "c5:N"], ["a3:E", "e3:W"])  # tied: the later player wins
    outcome = rules.outcome(state)
    assert outcome is not None
    assert "player 2 played later in turn order" in outcome.reason  # stored so
    assert rules.named_reason(outcome.reason, ["Ann", "Ben"]).endswith(
        "Ben played later in turn order"
    )
    last = rules.render(state, ["Ann", "Ben"]).splitlines()[-1]
    assert last.startswith("game over: Ben wins (") and "player 2" not in last
