"""A club edits its manifest file while Tablelog runs (the dashboard's server is one long
process): the next match is checked against the file as it is now, never a board or deck
remembered by name from before the edit."""

from __future__ import annotations

import json

import pytest

from tablelog.domain.games import InvalidSetup
from tablelog.domain.games.geoshapes.rules import RULES as GEOSHAPES
from tablelog.domain.games.topas.rules import RULES as TOPAS
from tests.packaged import data_path

BOARD = json.loads(data_path("manifests", "geoshapes-v2.json").read_text(encoding="utf-8"))
DECK = json.loads(data_path("manifests", "topas.json").read_text(encoding="utf-8"))


def test_an_edited_geoshapes_board_is_read_again(club_manifests):
    GEOSHAPES.options({"manifest": club_manifests("club", BOARD)})  # accepted, and parsed
    club_manifests("club", {**BOARD, "quadrants": BOARD["quadrants"][:3]})
    with pytest.raises(InvalidSetup, match="GeoShapes manifest"):
        GEOSHAPES.options({"manifest": "club"})


def test_a_fixed_geoshapes_board_is_accepted_again(club_manifests):
    club_manifests("club", {**BOARD, "deck": {}})
    with pytest.raises(InvalidSetup):
        GEOSHAPES.options({"manifest": "club"})
    club_manifests("club", BOARD)
    assert GEOSHAPES.options({"manifest": "club"})["manifest"] == "club"


def test_an_edited_topas_deck_is_read_again(club_manifests):
    TOPAS.options({"manifest": club_manifests("club", DECK)})
    club_manifests("club", {"colours": {"R": "red"}, "cards": ["R1-R2"]})
    with pytest.raises(InvalidSetup, match="not a card of two colours"):
        TOPAS.options({"manifest": "club"})


def test_the_club_folder_follows_the_environment(tmp_path, monkeypatch):
    """Where club manifests are looked up is worked out once per environment, never pinned
    to the first answer: a process whose TABLELOG_MANIFESTS or XDG_DATA_HOME changes finds
    manifests in the new folder."""
    from tablelog.domain.games import manifests

    deck = {**DECK, "cards": DECK["cards"][:20]}
    for place in ("first", "second"):
        folder = tmp_path / place
        folder.mkdir()
        (folder / "club.json").write_text(json.dumps({**deck, "place": place}), "utf-8")
    monkeypatch.setenv("TABLELOG_MANIFESTS", str(tmp_path / "first"))
    assert manifests.find("club")["place"] == "first"
    monkeypatch.setenv("TABLELOG_MANIFESTS", str(tmp_path / "second"))
    assert manifests.find("club")["place"] == "second"
    monkeypatch.delenv("TABLELOG_MANIFESTS")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "data" / "tablelog" / "manifests").mkdir(parents=True)
    (tmp_path / "data" / "tablelog" / "manifests" / "club.json").write_text(
        json.dumps({**deck, "place": "data home"}), "utf-8"
    )
    assert manifests.find("club")["place"] == "data home"
