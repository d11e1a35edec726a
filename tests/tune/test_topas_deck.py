"""Topas' declared space: the deck as pairs of gem counts (docs/tune.md, "A second game")."""

from __future__ import annotations

import json
from importlib import resources

from tablelog.tune.objective import unplayable
from tablelog.tune.settings import Settings
from tablelog.tune.space import base_params, candidate, invalid, load_space

PAIR = "/deck/halves of {} and {} gems"


def _published() -> dict:
    text = resources.files("tablelog.data").joinpath("manifests/topas.json").read_text()
    return json.loads(text)


def _variant(**kept: int) -> tuple:
    space = load_space("topas")
    params = dict(base_params(space) or {})
    for pair, keep in kept.items():
        params[PAIR.format(*pair.split("_")[1:])] = keep
    return space, candidate(space, params)


def test_the_base_candidate_is_the_published_deck_card_for_card():
    space = load_space("topas")
    params = base_params(space)
    assert params is not None, "the published deck lies inside the declared space"
    assert candidate(space, params).manifest == _published()


def test_a_deck_with_four_gem_halves_is_played_by_the_rules():
    space, variant = _variant(p_1_4=1)
    cards = variant.manifest["cards"]
    assert len(cards) == 48 and "R1-G4" in cards and "B4-Y1" not in cards
    settings = Settings("topas", space.to_json(), (2, 3, 4), (1, 2))
    assert invalid(space, variant) is None and unplayable(settings, variant) is None


def test_a_deck_too_small_for_the_seats_is_refused_by_the_rules_before_a_match():
    space, variant = _variant(p_1_3=0, p_2_3=0)  # 12 cards: halves of 1 and 2 gems only
    assert len(variant.manifest["cards"]) == 12
    settings = Settings("topas", space.to_json(), (3,), (1, 2))
    assert unplayable(settings, variant) == "3 player(s) need 22 cards, the deck has 12"


def test_an_empty_deck_is_no_candidate():
    space, variant = _variant(p_1_2=0, p_1_3=0, p_2_3=0)
    assert "no card" in (invalid(space, variant) or "")
