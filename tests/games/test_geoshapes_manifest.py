"""GeoShapes boards are manifests: a club's own board loads from the club's manifest folder
(`--option manifest=NAME`), and every kind of malformed manifest is refused with an
InvalidSetup naming what is wrong."""

from __future__ import annotations

import copy
import json

import pytest

from tablelog.domain.games import InvalidSetup
from tablelog.domain.games.geoshapes.rules import RULES
from tests.packaged import data_path

DEFAULT = json.loads(data_path("manifests", "geoshapes.json").read_text(encoding="utf-8"))


def broken(change):
    manifest = copy.deepcopy(DEFAULT)
    change(manifest)
    return manifest


def drop(key):
    return lambda m: m.pop(key)


def north_west(m):
    return m["quadrants"][0]


MALFORMED = {
    "not an object": ([], "must be a JSON object"),
    "no deck": (broken(drop("deck")), "lacks deck"),
    "unknown entry": (broken(lambda m: m.update(colours=3)), "unknown entries ['colours']"),
    "wrong format": (broken(lambda m: m.update(format="v2")), "format must be"),
    "negative value": (
        broken(lambda m: m["shapes"].update(Square=-1)),
        "point value of 'Square' must be a whole number of at least 0",
    ),
    "wild not a shape": (
        broken(lambda m: m.update(wild="Joker")),
        "wild shape 'Joker' is not among the shapes",
    ),
    "deck names an unknown shape": (
        broken(lambda m: m["deck"].update(Octagon=2)),
        "the deck names 'Octagon'",
    ),
    "deck count zero": (
        broken(lambda m: m["deck"].update(Square=0)),
        "count of 'Square' must be a whole number of at least 1",
    ),
    "deck too small": (broken(lambda m: m.update(deck={"Square": 16})), "the deck holds 16 cards"),
    "three quadrants": (broken(lambda m: m["quadrants"].pop()), "4 quadrants"),
    "quadrant without circle": (
        broken(lambda m: north_west(m).pop("circle")),
        "quadrant 1 must be an object with exactly name, figures",
    ),
    "one figure": (
        broken(lambda m: north_west(m)["figures"].pop("House")),
        "'North-West' must have exactly 2 figures",
    ),
    "figure of unknown shape": (
        broken(lambda m: north_west(m)["figures"].update(House={"Octagon": 1})),
        "figure 'House' names 'Octagon'",
    ),
    "figure needing the wild": (
        broken(lambda m: north_west(m)["figures"].update(House={"Wild": 1})),
        "figure 'House' needs the Wild",
    ),
    "empty circle": (
        broken(lambda m: north_west(m).update(circle={})),
        "the North-West circle must be a non-empty object",
    ),
    "repeated figure name": (
        broken(
            lambda m: m["quadrants"][1]["figures"].update(
                Sailboat=m["quadrants"][1]["figures"].pop("Kite")
            )
        ),
        "repeated: ['Sailboat']",
    ),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_manifest_is_refused_with_its_fault(club_manifests, case):
    manifest, words = MALFORMED[case]
    with pytest.raises(InvalidSetup) as err:
        RULES.options({"manifest": club_manifests("club", manifest)})
    assert "GeoShapes manifest" in str(err.value) and words in str(err.value)


def test_a_manifest_that_is_not_json_is_refused(club_manifests):
    with pytest.raises(InvalidSetup, match="not valid JSON"):
        RULES.options({"manifest": club_manifests("club", "{quadrants: four}")})


def test_a_clubs_own_board_is_played_with_its_own_figures(club_manifests):
    club = broken(lambda m: north_west(m)["figures"].update(Sailboat={"Hexagon": 1, "Square": 1}))
    options = RULES.options({"manifest": club_manifests("club", club)})
    state = RULES.start(
        2,
        options,
        {
            "hands": [
                ["Hexagon", "Square", "Rhombus", "Rhombus"],
                ["Square", "Square", "Rectangle", "Rectangle"],
            ]
        },
    )
    state = RULES.apply(state, {"draw": "Semicircle"})
    placed = RULES.apply(state, {"place": "Hexagon", "on": "Sailboat"})
    assert placed.on("Sailboat") == ("Hexagon",)
    # The replayed state carries its board, so it survives without the club's file.
    assert RULES.decode(json.loads(json.dumps(RULES.encode(placed)))) == placed
