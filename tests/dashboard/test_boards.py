"""Each game's board drawing, from positions set up by hand or played by the rules."""

from __future__ import annotations

import random

import pytest

from tablelog.dashboard import games as boards
from tablelog.dashboard.figures.style import seat_colour
from tablelog.dashboard.games import geoshapes, topas, topiary, topitop, total_landscaping
from tablelog.domain.games import GAMES, get_rules


def shapes(figure, prefix=""):
    return [s for s in figure.layout.shapes if (s.name or "").startswith(prefix)]


def test_topitop_draws_each_stack_bottom_to_top_buckets_in_seat_colours():
    cells = ["LSB", "", "S", "", "R", "", "L", "", ""]  # a1 castle with Blue's bucket
    figure = topitop.draw({"cells": cells, "winner": None}, ["Ann", "Ben"])
    assert len(shapes(figure, "cell ")) == 9
    a1 = shapes(figure, "a1:")
    assert [s.name for s in a1] == ["a1:0:L", "a1:1:S", "a1:2:B"]
    assert a1[0].y0 < a1[1].y0 < a1[2].y0  # stacked upwards
    assert a1[2].fillcolor == seat_colour(1)
    assert shapes(figure, "b2:0:R")[0].fillcolor == seat_colour(2)
    assert len(shapes(figure)) == 9 + 6  # nine cells, six pieces


def test_topitop_escapes_names():
    figure = topitop.draw({"cells": [""] * 9, "winner": 0}, ["<b>Eve</b>", "Ben"])
    assert "&lt;b&gt;Eve&lt;/b&gt;" in figure.layout.title.text
    assert "<b>Eve" not in figure.layout.title.text


def test_topiary_visitor_spots_stand_outside_their_first_tile():
    assert topiary.spot_position("c1:S") == pytest.approx((2, 0.72))  # above c1
    assert topiary.spot_position("e3:W") == pytest.approx((4.72, -2))  # right of e3
    assert topiary.spot_position("a5:NE") == pytest.approx((-1.2, -5.2))  # diagonals farther out
    assert len(topiary.all_spots()) == 56  # 20 straight + 36 diagonal, as the rules say


def test_topiary_draws_tiles_and_each_seats_visitors():
    tiles = ["Swan 4"] + [None] * 24
    face_up = [True] + [False] * 24
    visitors = [
        {"spot": "c1:S", "seat": 0},
        {"spot": "a1:SE", "seat": 1},
        {"spot": "e5:N", "seat": 0},
    ]
    figure = topiary.draw(
        {"tiles": tiles, "face_up": face_up, "visitors": visitors}, ["Ann", "Ben"]
    )
    assert len(shapes(figure, "tile ")) == 25
    free, ann, ben = figure.data
    assert len(free.x) == 56 - 3
    assert ann.name == "Ann" and len(ann.x) == 2 and [a % 360 for a in ann.marker.angle] == [180, 0]
    assert ben.marker.color == seat_colour(2) and [a % 360 for a in ben.marker.angle] == [135]
    assert sum(a.text == "?" for a in figure.layout.annotations) == 24


def test_topas_draws_the_start_card_and_placements_outlined_by_seat():
    state = {
        "starts": ["G3-Y2"],
        "placements": [
            {"seat": 0, "column": 0, "card": "G1-Y3", "cells": [[0, 1], [1, 1]]},
            {"seat": 1, "column": 0, "card": "Y1-B2", "cells": [[2, 0], [2, 1]]},
        ],
    }
    figure = topas.draw(state, ["Ann", "Ben"])
    halves = shapes(figure, "half ")
    assert [h.name for h in halves] == [
        "half 0,0:G3",
        "half 1,0:Y2",
        "half 0,1:G1",
        "half 1,1:Y3",
        "half 2,0:Y1",
        "half 2,1:B2",
    ]
    assert halves[0].fillcolor == topas.GEMS["G"][0]
    cards = shapes(figure, "card ")
    assert [c.line.color for c in cards] == ["black", seat_colour(1), seat_colour(2)]
    assert cards[2].line.width > cards[1].line.width  # the latest card stands out


def test_topas_solitaire_shows_only_the_current_column():
    state = {
        "starts": ["G3-Y2", "R1-B3"],
        "placements": [
            {"seat": 0, "column": 0, "card": "G1-Y3", "cells": [[0, 1], [1, 1]]},
            {"seat": 0, "column": 1, "card": "Y1-B2", "cells": [[2, 0], [2, 1]]},
        ],
    }
    names = [c.name for c in shapes(topas.draw(state, ["Solo"]), "card ")]
    assert names == ["card R1-B3", "card Y1-B2"]


def test_total_landscaping_draws_both_gardens_at_the_level_in_play():
    east = ["R", "GY", "G"] + [""] * 34
    west = [""] * 37
    state = {"bout": 1, "round": 9, "gardens": [east, west], "blocked": [1, 0], "bouts": []}
    figure = total_landscaping.draw(state, ["Ann", "Ben"])
    # Round 9 plays LVL2: 19 tiles per garden.
    assert len(shapes(figure, "Eastern garden")) == 19
    assert len(shapes(figure, "Western garden")) == 19
    a = shapes(figure, "Eastern garden A:")[0]
    assert a.fillcolor == total_landscaping.FLOWERS["R"]
    b1 = shapes(figure, "Eastern garden B1:")[0]
    assert b1.fillcolor == total_landscaping.FLOWERS["Y"] and b1.line.width == 4  # on grass
    assert shapes(figure, "Eastern garden B2:")[0].fillcolor == total_landscaping.GRASS
    assert shapes(figure, "Western garden A:")[0].line.color == "black"  # blocked


def test_geoshapes_fills_slots_with_shapes_then_wilds():
    needs = {"Square": 2, "Rectangle": 1}
    assert geoshapes.slots(needs, ["Square", "Wild"], "Wild") == [
        ("Square", "x"),
        ("Square", "W"),
        ("Rectangle", ""),
    ]
    assert geoshapes.short("Right Triangle") == "RT" and geoshapes.short("Square") == "Sq"


def test_every_game_draws_a_played_position():
    for game, rules in GAMES.items():
        rng = random.Random(7)
        seats = max(2, rules.min_players)
        options = rules.options({})
        state = rules.start(seats, options, rules.deal(seats, options, rng))
        for _ in range(15):
            if rules.outcome(state) is not None:
                break
            state = rules.apply(state, rules.random_move(state, rng))
        figure = boards.draw(game, rules.encode(state), ["Ann", "Ben", "Cy", "Di"][:seats])
        assert figure.layout.shapes, game


def test_geoshapes_quadrants_show_owners_and_placed_shapes():
    rules = get_rules("geoshapes")
    options = rules.options({"manifest": "geoshapes-v2"})  # its first place: the Big Triangle
    state = rules.encode(rules.start(2, options, rules.deal(2, options, random.Random(1))))
    state["placed"][0] = ["Trapezoid", "Wild"]  # the board's first place
    figure = geoshapes.draw(state, ["Ann", "Ben"])
    first = state["board"]["places"][0]
    mine = shapes(figure, first["name"] + ":")
    assert len(mine) == sum(first["needs"].values())
    filled = [s for s in mine if not s.name.endswith("open")]
    assert len(filled) == 2 and all(s.fillcolor == seat_colour(1) for s in filled)
    assert len(shapes(figure, "quadrant ")) == 4


@pytest.mark.parametrize("manifest", ["geoshapes", "geoshapes-v2", "geoshapes-v3"])
def test_geoshapes_names_every_slots_shape_whole_never_cut_short(manifest):
    """Each slot draws its shape (the Wild's star where the Wild stands in) and names it in full
    in its hover; no label on the board is a shape's name cut short ("Squa", "QC")."""
    rules = get_rules("geoshapes")
    options = rules.options({"manifest": manifest})
    state = rules.encode(rules.start(2, options, rules.deal(2, options, random.Random(3))))
    first = state["board"]["places"][0]
    needed = [shape for shape, count in first["needs"].items() for _ in range(count)]
    state["placed"][0] = [needed[0], "Wild"]  # one slot filled by its shape, one by the Wild
    figure = geoshapes.draw(state, ["Ann", "Ben"])

    places = state["board"]["places"]
    slots = [
        (place["name"], shape)
        for place in places
        for shape, n in place["needs"].items()
        for _ in range(n)
    ]
    glyphs = shapes(figure, "glyph ")
    names = {shape for _place, shape in slots} | {"Wild"}
    # one glyph per slot, and one per shape in the key below the board
    assert len(glyphs) == len(slots) + len(names)
    assert sum(g.name == "glyph Wild" for g in glyphs) == 1 + 1  # the slot and the key
    assert {g.name.removeprefix("glyph ") for g in glyphs} == names

    hover = next(trace for trace in figure.data if trace.name == "slots")
    assert len(hover.hovertext) == len(slots)
    assert hover.hovertext[0] == f"{needed[0]}: placed"
    assert hover.hovertext[1] == f"{needed[1]}: the Wild stands in"
    assert all(words.split(":")[0] in names for words in hover.hovertext)

    said = [a.text.replace("<br>", " ") for a in figure.layout.annotations]
    cut_short = {shape[:n] for shape in names for n in range(1, len(shape))} | {
        "".join(w[0] for w in shape.split()) for shape in names
    }
    assert not [words for words in said if words in cut_short]
    assert names <= set(said)  # the key names each shape in full
