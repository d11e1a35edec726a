"""Component measures per game, read from real random matches."""

from __future__ import annotations

import random

from tablelog.projections import components
from tests.projections.matches import random_match


def test_topiary_sculpture_type_points_add_up_to_the_total():
    for seed in range(5):
        match = random_match("topiary", ["Ann", "Ben", "Cat"], random.Random(seed))
        scores = match.rules.score(match.state)
        found = components.extract("topiary", match.state, scores, [])
        for entry, mine in zip(scores, found):
            assert {c.kind for c in mine} <= {"sculpture type"}
            assert sum(c.points for c in mine) == entry["total"]


def test_total_landscaping_counts_every_card_and_every_bout_won():
    match = random_match("total-landscaping", ["Ann", "Ben"], random.Random(2))
    moves = [(m["seat"], m["move"]) for m in match.moves]
    scores = match.rules.score(match.state)
    found = components.extract("total-landscaping", match.state, scores, moves)
    for seat, mine in enumerate(found):
        cards = [c for c in mine if c.kind == "card colour"]
        assert sum(c.number for c in cards) == len(moves)  # one card or hoe per round
        bouts = sum(c.number for c in mine if c.kind == "bout condition")
        assert bouts == scores[seat]["total"]


def test_topas_gem_colours_give_the_colour_categories():
    match = random_match("topas", ["Ann", "Ben"], random.Random(4))
    scores = match.rules.score(match.state)
    for entry, mine in zip(scores, components.extract("topas", match.state, scores, [])):
        for c in mine:
            assert c.points == entry["categories"][c.component]


def test_geoshapes_shapes_in_hand_count_what_the_hand_scored():
    match = random_match("geoshapes", ["Ann", "Ben", "Cat"], random.Random(1))
    moves = [(m["seat"], m["move"]) for m in match.moves]
    scores = match.rules.score(match.state)
    found = components.extract("geoshapes", match.state, scores, moves)
    for entry, mine in zip(scores, found):
        held = sum(c.points for c in mine if c.kind == "shape in hand")
        assert held == entry["categories"]["hand"]
    draws = sum(1 for _, move in moves if "draw" in move)
    assert sum(c.number for seat in found for c in seat if c.kind == "shape drawn") == draws


def test_a_game_without_components_has_none():
    match = random_match("topitop", ["Ann", "Ben"], random.Random(0))
    scores = match.rules.score(match.state)
    assert components.extract("topitop", match.state, scores, []) == [[], []]
