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
