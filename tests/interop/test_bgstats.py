"""`tablelog import --from bgstats` and `tablelog export --to bgstats` on a fixture built from
the field lists community parsers agree on (tests/fixtures/interop/bgstats.json): several plays
per game, players reused, a play of another game, an ignored play, a tie, a shared win, a team
game, a play with no scores, free text for a score."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest

from tablelog.domain.matches.sheet_matches import is_sheet
from tablelog.store import open_recorder
from tests.conftest import stored_rows

from .files import clean_bgstats
from .helpers import BGSTATS, tablelog

ZONE = ("--zone", "Europe/Berlin")


def sheets_of(store: str) -> dict[str, dict]:
    """Every score-sheet match: seats, totals, winners, when played, where, by source id."""
    recorder = open_recorder(store)
    found = {}
    for started in recorder.started():
        match = recorder.get(started.originator_id)
        assert is_sheet(started) and match.sheet is not None
        found[match.sheet["source"]["id"] if match.sheet["source"] else str(match.id)] = {
            "game": match.game,
            "seats": match.seats,
            "played_at": match.played_at,
            "totals": [(e or {}).get("total") for e in match.sheet["scores"]],
            "winners": match.sheet["winners"],
            "first": match.sheet["first"],
            "location": match.sheet["location"],
            "minutes": match.sheet["duration_min"],
        }
    recorder.close()
    return found


def test_the_plays_of_the_five_games_become_score_sheet_matches(any_store):
    code, out, err = tablelog(
        any_store, "import", "--from", "bgstats", str(BGSTATS), *ZONE, "--skip-invalid"
    )
    assert code == 1 and "3 of 12 plays refused and skipped" in err, err
    assert "imported 6 plays as score-sheet matches" in out
    assert "skipped 1: marked ignored in BG Stats" in out
    assert "skipped 1: not one of Tablelog's games (Carcassonne)" in out
    assert "skipped 3 plays refused (--skip-invalid)" in out
    assert "played in teams" in out  # the team game, named
    assert "Ann's score '49-46ish' is not a number" in out  # reported, not guessed
    assert "play 11 (2024-03-17 18:00:00, Topiary, 6F1C0011-0000-4000-8000-000000000011): " in out
    found = sheets_of(any_store)
    first = found["6F1C0001-0000-4000-8000-000000000001"]
    assert first == {
        "game": "topiary",
        "seats": ["Ann", "Ben", "Cleo"],
        "played_at": "2024-03-01T19:30:00+01:00",
        "totals": [43, 38, 30],
        "winners": ["Ann"],
        "first": "Ann",
        "location": "Club",
        "minutes": 35,
    }
    # Seats in seatOrder, not as listed; the start player kept.
    geo = found["6F1C0005-0000-4000-8000-000000000005"]
    assert geo["seats"] == ["Ann", "Eve", "Ben"] and geo["first"] == "Ann"
    assert found["6F1C0003-0000-4000-8000-000000000003"]["winners"] == ["Cleo", "Ben"]
    assert found["6F1C0006-0000-4000-8000-000000000006"]["totals"] == [None, None]


def test_a_file_with_bad_plays_is_refused_whole_naming_each(any_store):
    tablelog(any_store, "sheet", "topitop", "--players", "Ann,Ben", "--winner", "Ann")
    before = stored_rows(any_store)
    code, out, err = tablelog(any_store, "import", "--from", "bgstats", str(BGSTATS), *ZONE)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith("tablelog: 3 of 12 plays are refused, nothing was imported: play 9 (")
    assert "play 10 (2024-03-16 18:00:00, Topiary, 6F1C0010" in err and "play 11 (" in err
    assert stored_rows(any_store) == before


def test_importing_the_same_file_twice_adds_nothing(any_store, tmp_path):
    clean = tmp_path / "clean.json"
    clean.write_text(clean_bgstats())
    tablelog(any_store, "import", "--from", "bgstats", str(clean), *ZONE)
    before = stored_rows(any_store)
    code, out, _ = tablelog(any_store, "import", "--from", "bgstats", str(clean), *ZONE)
    assert code == 0 and out.startswith("nothing new: 6 plays already in this store\n")
    assert stored_rows(any_store) == before


def test_map_covers_a_users_own_game_name(store):
    code, out, _ = tablelog(
        store,
        "import",
        "--from",
        "bgstats",
        str(BGSTATS),
        *ZONE,
        "--map",
        "Gartenschau=topiary",
        "--skip-invalid",
    )
    assert code == 1 and "imported 7 plays" in out


def test_a_round_trip_through_a_bg_stats_file_keeps_seats_scores_winners_and_dates(tmp_path):
    original, copy = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    tablelog(original, "import", "--from", "bgstats", str(BGSTATS), *ZONE, "--skip-invalid")
    recorder = open_recorder(original)
    typed = recorder.start_sheet(
        "topas",
        ["Dev", "Eve"],
        {
            "scores": [{"total": 40}, {"total": 52}],
            "winners": ["Eve"],
            "first": "Eve",
            "location": "Library",
        },
        played_at="2024-05-01T20:15:00+02:00",
    )
    recorder.close()
    exported = tmp_path / "plays.json"
    code, _, err = tablelog(
        original, "export", "--to", "bgstats", "--all", *ZONE, "-o", str(exported)
    )
    assert code == 0 and "exported 7 matches" in err
    data = json.loads(exported.read_text())
    assert set(data) == {"about", "games", "players", "locations", "plays", "userInfo"}
    assert sorted(p["name"] for p in data["players"]) == ["Ann", "Ben", "Cleo", "Dev", "Eve"]
    code, out, _ = tablelog(copy, "import", "--from", "bgstats", str(exported), *ZONE)
    assert code == 0 and "imported 7 plays" in out
    before, after = sheets_of(original), sheets_of(copy)
    mine = after.pop(str(typed).upper())
    assert mine == {**before.pop(str(typed)), "played_at": "2024-05-01T20:15:00+02:00"}
    assert after == before


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (lambda text: text[: len(text) // 2], "the file: not valid JSON"),
        (
            lambda text: text.replace('"playerRefId": 3', '"playerRefId": 99', 1),
            "play 1 (2024-03-01 19:30:00, Topiary, 6F1C0001-0000-4000-8000-000000000001): "
            "playerScores: playerRefId 99 names no player",
        ),
        (
            lambda text: text.replace("2024-03-08 20:00:00", "8 March 2024"),
            "play 2 (8 March 2024, Topiary, 6F1C0002-0000-4000-8000-000000000002): playDate "
            "'8 March 2024' is not a date",
        ),
        (
            lambda text: text.replace('"gameRefId": 2,', '"gameRefId": 77,', 1),
            "gameRefId 77 names no game",
        ),
    ],
)
def test_a_bad_file_is_one_line_exit_2_and_nothing_stored(any_store, tmp_path, content, words):
    tablelog(any_store, "sheet", "topitop", "--players", "Ann,Ben", "--winner", "Ann")
    before = stored_rows(any_store)
    bad = tmp_path / "bad.json"
    bad.write_text(content(BGSTATS.read_text()))
    code, _out, err = tablelog(any_store, "import", "--from", "bgstats", str(bad), *ZONE)
    assert code == 2 and words in err, err
    assert len(err.strip().splitlines()) == 1 and "nothing was imported" in err
    assert stored_rows(any_store) == before


def test_export_selects_one_match_a_game_or_a_date_range(store, tmp_path):
    tablelog(store, "import", "--from", "bgstats", str(BGSTATS), *ZONE, "--skip-invalid")

    def plays(*args):
        code, out, err = tablelog(store, "export", "--to", "bgstats", *ZONE, *args)
        assert code == 0, err
        return [p["playDate"] for p in json.loads(out)["plays"]]

    assert len(plays("--game", "topiary")) == 2
    assert plays("--since", "2024-03-10", "--until", "2024-03-11") == [
        "2024-03-10 18:00:00",
        "2024-03-11 18:00:00",
    ]
    match_id = open_recorder(store).started().__next__().originator_id
    assert plays(str(match_id)[:8]) == ["2024-03-01 19:30:00"]
    # A search may end today or later: "until the end of today" is no stored time.
    everything = plays("--since", "2024-01-01")
    today, later = str(date.today()), str(date.today() + timedelta(days=400))
    assert plays("--since", "2024-01-01", "--until", today) == everything
    assert plays("--since", "2024-01-01", "--until", later) == everything
