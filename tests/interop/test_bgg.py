"""`tablelog import --from bgg` and `tablelog export --to bgg`: the XML of BGG's plays API
(tests/fixtures/interop/bgg.xml), parsed with defusedxml."""

from __future__ import annotations

import pytest

from tablelog.store import open_recorder
from tests.conftest import stored_rows

from .files import clean_bgg
from .helpers import BGG, tablelog
from .test_bgstats import sheets_of

ZONE = ("--zone", "UTC")


def test_the_plays_of_the_five_games_become_score_sheet_matches(any_store):
    code, out, err = tablelog(
        any_store, "import", "--from", "bgg", str(BGG), *ZONE, "--skip-invalid"
    )
    assert code == 1 and "1 of 8 plays refused and skipped" in err, err
    # Topiary, Topas (a shared win), Topitop twice (quantity 2, no scores), Total
    # Landscaping, GeoShapes; Coloretto, the incomplete play and the free-text score are not.
    assert "imported 6 plays" in out
    assert "skipped 1: not one of Tablelog's games (Coloretto)" in out
    assert "skipped 1: marked incomplete on BGG" in out
    assert "play 7 (2024-04-08, Topiary, id 81000007): Ann's score '49-46ish' is not a" in out
    found = sheets_of(any_store)
    assert found["81000001"] == {
        "game": "topiary",
        "seats": ["Ann", "Ben", "Cleo"],
        "played_at": "2024-04-02T12:00:00+00:00",
        "totals": [43, 38, 30],
        "winners": ["Ann"],
        "first": "Ann",
        "location": "Club",
        "minutes": 35,
    }
    assert found["81000002"]["seats"] == ["Ann", "Ben"]  # by startposition
    assert found["81000003/1"]["winners"] == found["81000003/2"]["winners"] == ["Dev"]
    code, out, _ = tablelog(any_store, "import", "--from", "bgg", str(BGG), *ZONE, "--skip-invalid")
    assert code == 1 and out.startswith("nothing new: 6 plays already in this store")


def test_a_round_trip_through_bgg_xml_keeps_seats_scores_winners_and_dates(tmp_path):
    original, copy = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    tablelog(original, "import", "--from", "bgg", str(BGG), *ZONE, "--skip-invalid")
    recorder = open_recorder(original)
    recorder.start_sheet(
        "geoshapes",
        ["Dev", "Eve"],
        {"scores": [{"total": -3}, {"total": 30}], "winners": ["Eve"]},
        played_at="2024-05-01T12:00:00Z",
    )
    recorder.close()
    xml = tmp_path / "plays.xml"
    assert tablelog(original, "export", "--to", "bgg", "--all", *ZONE, "-o", str(xml))[0] == 0
    code, out, err = tablelog(copy, "import", "--from", "bgg", str(xml), *ZONE)
    assert code == 0 and "imported 7 plays" in out, err

    def plays(store):
        # BGG keeps a date, not a time, and no separate start player: compare what it keeps.
        return sorted(
            (
                s["game"],
                s["seats"],
                s["totals"],
                s["winners"],
                s["played_at"][:10],
                s["location"],
                s["minutes"],
            )
            for s in sheets_of(store).values()
        )

    assert plays(copy) == plays(original)
    assert tablelog(copy, "import", "--from", "bgg", str(xml), *ZONE)[1].startswith(
        "nothing new: 7 plays already in this store"
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "<!DOCTYPE html><html><head><title>BoardGameGeek</title></head><body></body></html>",
            "not BGG plays XML: its root is <html>",
        ),
        (
            "<plays><play id='1' date='yesterday'><item name='Topiary'/></play></plays>",
            "play 1 (yesterday, Topiary, id 1): date 'yesterday' is not a date",
        ),
        ("<plays><play id='1' date='2024-01-01'>", "the file: not BGG plays XML"),
        (
            '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
            "<plays>&b;</plays>",
            "the file: not BGG plays XML",
        ),  # entities: defusedxml refuses
    ],
)
def test_a_bad_file_is_one_line_exit_2_and_nothing_stored(any_store, tmp_path, text, words):
    tablelog(any_store, "sheet", "topitop", "--players", "Ann,Ben", "--winner", "Ann")
    before = stored_rows(any_store)
    bad = tmp_path / "bad.xml"
    bad.write_text(text)
    code, _, err = tablelog(any_store, "import", "--from", "bgg", str(bad), *ZONE)
    assert code == 2 and words in err, err
    assert len(err.strip().splitlines()) == 1
    assert stored_rows(any_store) == before


def test_the_same_plays_read_in_another_zone_are_refused_not_stored_twice(store, tmp_path):
    clean = tmp_path / "clean.xml"
    clean.write_text(clean_bgg())
    tablelog(store, "import", "--from", "bgg", str(clean), *ZONE)
    before = stored_rows(store)
    code, _, err = tablelog(store, "import", "--from", "bgg", str(clean), "--zone", "Asia/Tokyo")
    assert code == 2 and len(err.splitlines()) == 1
    assert "play 1 (2024-04-02, Topiary, id 81000001): already in this store as match" in err
    assert "another --zone" in err
    assert stored_rows(store) == before
