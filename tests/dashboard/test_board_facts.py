"""What the boards and the score say is true (issue 44, "wrong facts on the boards"), checked on
the figures as built, without a browser: Topitop's supply counts what is off the board, a
GeoShapes place's slots stay inside its own quadrant, a GeoShapes win names the player (seats
count from 1 everywhere), Total Landscaping's title and tile names are whole and readable on a
phone, and a solitaire score is a sheet, not one bar at 0."""

from __future__ import annotations

import random

import pandas as pd
import pytest

from tablelog.dashboard import replay
from tablelog.dashboard.figures import match as match_figures
from tablelog.dashboard.games import geoshapes, topitop, total_landscaping
from tablelog.domain.games import get_rules
from tablelog.projections.queries import Queries
from tablelog.simulation import make_plan, simulate
from tablelog.store import open_recorder


def texts(figure) -> list[str]:
    return [a.text for a in figure.layout.annotations]


# ---- Topitop: the supply row -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cells", "small", "large"),
    [
        ([""] * 9, "4 small", "4 large"),
        (["LSB", "", "S", "", "R", "", "L", "", ""], "2 small", "2 large"),
        (["LS", "LS", "LS", "LS", "", "", "", "", ""], "0 small", "0 large"),
    ],
)
def test_topitop_supply_counts_the_piles_off_the_board(cells, small, large):
    """The match has 4 of each pile; those on the board are not in the supply."""
    figure = topitop.draw({"cells": cells, "small": 4, "large": 4, "winner": None}, ["A", "B"])
    assert small in texts(figure) and large in texts(figure)


def test_topitop_supply_agrees_with_the_rules_after_real_moves():
    rules, rng = get_rules("topitop"), random.Random(4)
    state = rules.start(2, rules.options({}), {})
    for _ in range(12):
        state = rules.apply(state, rules.random_move(state, rng))
    figure = topitop.draw(rules.encode(state), ["A", "B"])
    assert f"{state.supply('S')} small" in texts(figure)
    assert f"{state.supply('L')} large" in texts(figure)


# ---- GeoShapes: slots inside their quadrant, the winner by name ------------------------------


@pytest.mark.parametrize("manifest", ["geoshapes", "geoshapes-v2", "geoshapes-v3"])
def test_geoshapes_every_slot_lies_inside_its_own_quadrant(manifest):
    """geoshapes-v3's South-West Shed needs 5 shapes: its fifth slot stood over the border, on
    the South-East's Barn label."""
    rules = get_rules("geoshapes")
    options = rules.options({"manifest": manifest})
    state = rules.encode(rules.start(4, options, rules.deal(4, options, random.Random(3))))
    figure = geoshapes.draw(state, ["Ann", "Ben", "Cy", "Di"])
    boxes = {
        s.name.removeprefix("quadrant "): s
        for s in figure.layout.shapes
        if (s.name or "").startswith("quadrant ")
    }
    quadrant_of = {p["name"]: p["quadrant"] for p in state["board"]["places"]}
    checked = 0
    for shape in figure.layout.shapes:
        place = (shape.name or "").split(":")[0]
        if place not in quadrant_of or shape.type != "rect" or shape.name.count(":") != 3:
            continue
        box = boxes[quadrant_of[place]]
        assert box.x0 <= shape.x0 and shape.x1 <= box.x1, (shape.name, quadrant_of[place])
        checked += 1
    assert checked == sum(sum(p["needs"].values()) for p in state["board"]["places"])


@pytest.fixture(scope="module")
def geoshapes_won(tmp_path_factory):
    """A store with GeoShapes matches of greedy bots, and one that someone won."""
    path = str(tmp_path_factory.mktemp("geo") / "store.sqlite")
    recorder = open_recorder(path)
    simulate(recorder, make_plan("geoshapes", 4, seed=7, bots="greedy"), workers=1, progress=False)
    for started in recorder.started("geoshapes"):
        match = recorder.get(started.originator_id)
        if match.outcome and match.outcome["winners"]:
            return recorder, match
    pytest.fail("no seeded GeoShapes match was won")


def test_a_geoshapes_win_in_the_event_log_names_the_player(geoshapes_won):
    recorder, match = geoshapes_won
    log = replay.event_log(recorder.stored_events(match.id), match.rules, match.seats)
    end = log[-1]["what"]
    winner = match.seats[match.outcome["winners"][0]]
    assert end.startswith(f"{winner} wins ({winner} completed a figure"), end
    assert "seat 0" not in end and "seat 1 " not in end


def test_a_geoshapes_win_in_the_match_list_names_the_player(geoshapes_won):
    recorder, match = geoshapes_won
    listed = {m["id"]: m for m in Queries(recorder).matches(game="geoshapes")}
    reason = listed[str(match.id)]["outcome"]["reason"]
    assert reason.startswith(match.seats[match.outcome["winners"][0]] + " completed"), reason


# ---- Total Landscaping on a phone ---------------------------------------------------------------

PHONE_TITLE = 36  # characters of 15 px type on a line of a 390 px screen, less the margins


def test_total_landscaping_title_fits_a_phone_and_tiles_are_readable():
    rules, rng = get_rules("total-landscaping"), random.Random(2)
    state = rules.start(2, rules.options({}), {})
    for _ in range(9):
        state = rules.apply(state, rules.random_move(state, rng))
    figure = total_landscaping.draw(rules.encode(state), ["Annabel", "Benedict"])
    lines = figure.layout.title.text.split("<br>")
    assert all(len(line) <= PHONE_TITLE for line in lines), lines
    assert figure.layout.margin.t >= 30 + 20 * len(lines)  # room above the board for each line
    tiles = [
        a for a in figure.layout.annotations if "Annabel" not in a.text and "<b>" not in a.text
    ]
    assert tiles and all(a.font.size >= 12 for a in tiles), {a.font.size for a in tiles}
    assert "LVL" not in figure.layout.title.text


# ---- a solitaire score -------------------------------------------------------------------------


def test_a_solitaire_score_is_a_sheet_not_a_lone_bar_at_zero():
    """Solitaire Topas scores its lowest column: 0 until every column is played."""
    categories = {"red": 5, "green": 0, "column 1": 9, "column 2": 0}
    rows = match_figures.score_rows(["Ann"], [{"total": 0, "categories": categories}])
    figure = match_figures.score_breakdown(rows, {1: 0}, "Score after step 7")
    assert not figure.data  # no bar: a sheet
    header, *lines, score = sheet_rows(figure)
    assert header == ("", "points")
    assert lines == [(name, f"{points:g}") for name, points in categories.items()]
    assert score == ("<b>score</b>", "<b>0</b>")
    assert "Ann" in figure.layout.title.subtitle.text


def sheet_rows(figure) -> list[tuple[str, str]]:
    """A solitaire sheet as drawn, read back: (category, points) per row, the header first
    (each row's words sit at its height, the category's left of its points)."""
    rows: dict[float, list[str]] = {}
    for y, _x, words in sorted((a.y, a.x, a.text) for a in figure.layout.annotations):
        rows.setdefault(y, []).append(words)
    return [(row[0], row[1]) for row in rows.values()]


def test_two_players_still_get_bars():
    rows = pd.DataFrame(
        {"seat": [1, 2], "player": ["Ann", "Ben"], "category": ["win", "win"], "points": [1, 0]}
    )
    figure = match_figures.score_breakdown(rows, {1: 1, 2: 0})
    assert {trace.type for trace in figure.data} == {"bar"}
