"""Our own exports come back: a BG Stats or BGG file written by `tablelog export` and imported
into the same store adds nothing (every field an import kept is written back, and a play of any
other match names it), on SQLite and PostgreSQL; import, export and import again keep the
plays; a play of our export that was changed since is refused, naming what differs."""

from __future__ import annotations

import json

import pytest

from tablelog.store import open_recorder
from tests.conftest import stored_rows

from .files import ZONE, clean_bgg, clean_bgstats, every_kind
from .helpers import tablelog
from .test_bgstats import sheets_of

SUFFIX = {"bgstats": "json", "bgg": "xml"}


def plays(store: str) -> list[str]:
    """Every play's fields (not its source id: BGG's id of a play played twice is not kept)."""
    return sorted(repr(sheet) for sheet in sheets_of(store).values())


def exported(store: str, tmp_path, tool: str) -> str:
    path = tmp_path / f"export.{SUFFIX[tool]}"
    code, _, err = tablelog(store, "export", "--to", tool, "--all", *ZONE, "-o", str(path))
    assert code == 0, err
    return str(path)


@pytest.mark.parametrize("tool", ["bgstats", "bgg"])
def test_an_export_imported_back_into_its_store_adds_nothing(any_store, tmp_path, tool):
    ended = every_kind(any_store, tmp_path)
    path = exported(any_store, tmp_path, tool)
    before = stored_rows(any_store)
    code, out, err = tablelog(any_store, "import", "--from", tool, path, *ZONE)
    assert code == 0, err
    assert out == f"nothing new: {ended} plays already in this store\n"
    assert stored_rows(any_store) == before


@pytest.mark.parametrize("tool", ["bgstats", "bgg"])
def test_import_export_import_keeps_every_play_and_comes_back_home(any_store, tmp_path, tool):
    home, away = any_store, str(tmp_path / "away.sqlite")
    (tmp_path / "plays").write_text(clean_bgstats() if tool == "bgstats" else clean_bgg())
    assert tablelog(home, "import", "--from", tool, str(tmp_path / "plays"), *ZONE)[0] == 0
    code, out, _ = tablelog(away, "import", "--from", tool, exported(home, tmp_path, tool), *ZONE)
    assert code == 0 and out.startswith("imported 6 plays")
    assert plays(away) == plays(home)
    before = stored_rows(home)
    code, out, _ = tablelog(home, "import", "--from", tool, exported(away, tmp_path, tool), *ZONE)
    assert code == 0 and out == "nothing new: 6 plays already in this store\n"
    assert stored_rows(home) == before


def test_new_player_role_colour_board_and_exact_totals_survive_the_export(store, tmp_path):
    recorder = open_recorder(store)
    recorder.start_sheet(
        "topiary",
        ["Ann", "Ben"],
        {
            "scores": [{"total": 40.125, "role": "host", "new": True}, {"total": 12.5}],
            "winners": ["Ann"],
            "board": "spring garden",
        },
        played_at="2024-05-01T20:15:00+02:00",
    )
    recorder.close()
    data = json.loads(open(exported(store, tmp_path, "bgstats")).read())
    first, second = data["plays"][0]["playerScores"]
    assert (first["score"], first["role"], first["newPlayer"]) == ("40.125", "host", True)
    assert (second["score"], second["newPlayer"]) == ("12.5", False)
    assert data["plays"][0]["board"] == "spring garden"


def test_a_play_of_our_export_changed_since_is_refused_naming_what_differs(any_store, tmp_path):
    recorder = open_recorder(any_store)
    recorder.start_sheet(
        "topas",
        ["Dev", "Eve"],
        {"scores": [{"total": 40}, {"total": 52}], "winners": ["Eve"]},
        played_at="2024-05-02T21:00:00+02:00",
    )
    recorder.close()
    path = exported(any_store, tmp_path, "bgstats")
    data = json.loads(open(path).read())
    data["plays"][0]["playerScores"][0]["score"] = "41"
    with open(path, "w") as out:
        json.dump(data, out)
    before = stored_rows(any_store)
    code, _, err = tablelog(any_store, "import", "--from", "bgstats", path, *ZONE)
    assert code == 2 and len(err.splitlines()) == 1
    assert "(a Tablelog export), but differs from it in its scores" in err
    assert stored_rows(any_store) == before


def test_a_play_disputed_after_its_import_is_still_the_same_play(store, tmp_path):
    plays = tmp_path / "plays.json"
    plays.write_text(clean_bgstats())
    tablelog(store, "import", "--from", "bgstats", str(plays), *ZONE)
    recorder = open_recorder(store)
    disputed = next(recorder.started()).originator_id
    recorder.dispute(disputed, "Ben", "Ann counted a visitor twice")
    recorder.close()
    code, out, _ = tablelog(store, "import", "--from", "bgstats", str(plays), *ZONE)
    assert code == 0 and out.startswith("nothing new: 6 plays already in this store")
