"""What the pages say and draw, without a browser: variants in each game's words (the stored
text still the filter), match lengths as whole-number bars, a score bar that ends at the score
the rules give (solitaire Topas included), one marker style for every rating line, and the
Match page's words ("1 player", "move", steps)."""

from __future__ import annotations

import dataclasses
import sys
import typing

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.dashboard.app import create_app, damaged_banner
from tablelog.dashboard.figures import balance, players
from tablelog.dashboard.figures.match import score_breakdown, score_rows
from tablelog.domain.games import declarations
from tablelog.domain.games.declaring import Flag, json_key
from tablelog.domain.wording import game_variant_words as variant_words
from tablelog.projections.projector import variant_text
from tablelog.simulation import make_plan, simulate
from tablelog.store import open_recorder

from .test_board_facts import sheet_rows


@pytest.fixture(scope="module")
def with_solo(filled_store):
    """The dashboard's Source over the filled store with a solitaire Topas match in it too,
    and that match's id."""
    recorder = open_recorder(filled_store[0])
    simulate(recorder, make_plan("topas", 1, seed=5, players=1), workers=1, progress=False)
    solo = next(s.originator_id for s in recorder.started("topas") if len(s.seats) == 1)
    source = create_app(recorder, refresh_every=None).server.extensions["tablelog"]
    return source, str(solo)


def page(name: str):
    """A page module as the app ran it (Dash runs the page modules per app)."""
    return sys.modules[f"tablelog.dashboard.pages.{name}"]


# ---- variants in words -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "stored", "words"),
    [
        ("topiary", "last_player_chooses=false, manifest=topiary", "standard rules"),
        (
            "topiary",
            "last_player_chooses=true, manifest=topiary-v2",
            "last player chooses, tiles: topiary-v2",
        ),
        ("topitop", "large=4, small=4", "standard rules"),
        ("topitop", "large=4, small=2", "small sand piles: 2"),
        ("topas", "expert=true, manifest=topas", "expert"),
        ("total-landscaping", "hoeing=after-effects", "hoeing: after effects"),
        ("topas", "standard", "standard rules"),  # a match stored with no options at all
        ("topas", "expert=false, sleeves=2", "sleeves: 2"),  # a key no longer declared
        ("chess", "clock=5", "clock: 5"),  # a game this install does not know
    ],
)
def test_a_stored_variant_reads_in_the_games_words(game, stored, words):
    assert variant_words(game, stored) == words


def _choices(game: str) -> st.SearchStrategy[dict[str, typing.Any]]:
    """Any options of the game: each declared one at its default or at another value."""
    cls = declarations()[game].options
    hints = typing.get_type_hints(cls)
    fields = {}
    for f in dataclasses.fields(cls):
        kind, default = hints[f.name], f.default
        if kind is Flag:
            other: typing.Any = not default
        elif typing.get_origin(kind) is typing.Literal:
            other = next(v for v in typing.get_args(kind) if v != default)
        elif isinstance(default, int):
            other = default - 1
        else:
            other = f"{default}-club"
        fields[json_key(f)] = st.sampled_from([default, other])
    return st.fixed_dictionaries(fields)


@pytest.mark.parametrize("game", sorted(declarations()))
@given(data=st.data())
def test_every_option_that_differs_is_named_and_only_those(game, data):
    options = data.draw(_choices(game))
    cls = declarations()[game].options
    words = variant_words(game, variant_text(options))
    differing = [
        f.metadata["label"] for f in dataclasses.fields(cls) if options[json_key(f)] != f.default
    ]
    assert all(f.metadata["label"] for f in dataclasses.fields(cls))  # every option has one
    if not differing:
        assert words == "standard rules"
    for label in differing:
        assert label in words
    assert "=" not in words and "_" not in words  # no stored key shows through


def test_the_variant_filter_shows_words_and_keeps_the_stored_key(with_solo):
    source, _ = with_solo
    choices, value = page("balance")._variant_choices(source, "topiary", 2, None)
    assert choices == [
        {"label": "standard rules (12)", "value": "last_player_chooses=false, manifest=topiary"}
    ]
    assert value == "last_player_chooses=false, manifest=topiary"
    players, _ = page("balance")._player_choices(source, "topiary", None)
    assert players == [{"label": "2 players (12)", "value": 2}]


# ---- match length --------------------------------------------------------------------------


def _lengths(tallies: dict[int, int]) -> pd.DataFrame:
    return pd.DataFrame({"moves": list(tallies), "matches": list(tallies.values())})


def test_a_game_always_as_long_says_so_instead_of_one_block():
    figure = balance.match_length(_lengths({16: 12}))
    assert len(figure.data) == 0
    assert "always 16 moves" in figure.layout.annotations[0].text


@settings(deadline=None)  # builds a plotly figure per example: slow on a loaded machine
@given(st.dictionaries(st.integers(1, 3000), st.integers(1, 50), min_size=2, max_size=200))
def test_length_bars_count_every_match_once_in_at_most_forty_bars(tallies):
    bars = balance.length_bars(_lengths(tallies))
    assert len(bars) <= 40
    assert bars["matches"].sum() == sum(tallies.values())
    for moves in tallies:  # each length lies in exactly one bar
        assert ((bars["first"] <= moves) & (moves <= bars["last"])).sum() == 1
    if max(tallies) - min(tallies) < 40:  # a narrow range: one bar per number of moves
        assert set(bars["first"]) == set(tallies) and (bars["width"] == 1).all()
    # Neighbouring bars touch (no 1-pixel slivers with gaps between them).
    assert (bars["middle"] - bars["first"] == (bars["width"] - 1) / 2).all()


# ---- the Match page ------------------------------------------------------------------------


def test_every_games_score_bar_ends_at_the_score_the_rules_give(with_solo):
    source, solo = with_solo
    ended = source.table("matches", status="ended")
    picked = [solo] + [ended[ended["game"] == g]["match_id"].iloc[0] for g in set(ended["game"])]
    for match_id in picked:
        match = source.match(match_id)
        scores = match.rules.score(match.state)
        totals = {n: float(s["total"]) for n, s in enumerate(scores, start=1)}
        figure = score_breakdown(score_rows(match.seats, scores), totals)
        if len(match.seats) == 1:  # a solitaire score is its sheet: the score in its last row
            assert sheet_rows(figure)[-1][1] == f"<b>{totals[1]:g}</b>"
            continue
        drawn: dict[str, float] = {}
        for bar in figure.data:
            for seat, points in zip(bar.y, bar.x):
                drawn[seat] = drawn.get(seat, 0.0) + points
        assert sorted(drawn.values()) == sorted(totals.values()), match.game


def test_a_solitaire_match_says_one_player_and_its_log_speaks_words(with_solo):
    source, solo = with_solo
    view = page("match").match_view(source, solo)
    assert "Topas, 1 player (" in view["summary"]
    assert {row["event"] for row in view["log"]} <= {"start", "move", "end"}
    assert view["log"][0]["step"] == 0 and view["log"][-1]["event"] == "end"


def test_the_damaged_banner_numbers_steps_as_the_match_page_does():
    banner = damaged_banner([{"match_id": "0123abcd-x", "event": 78, "finding": "bad hash"}])
    assert "0123abcd (step 77: bad hash)" in str(banner.children)


def test_every_rating_line_has_the_same_markers():
    rows = pd.DataFrame(
        {
            "player": ["Ann"] * 70 + ["Ben"] * 5,
            "after_match": list(range(1, 71)) + list(range(1, 6)),
            "ordinal": [1.0] * 75,
            "mu": [25.0] * 75,
            "sigma": [8.0] * 75,
        }
    )
    figure = players.ratings(rows, ["Ann", "Ben"])
    assert len({trace.mode for trace in figure.data}) == 1


def test_an_empty_table_says_so_in_its_own_words_not_ag_grids():
    from tablelog.dashboard.components import grid

    table = grid("t", [{"field": "a"}], empty="Nobody has claimed a result.")
    assert table.dashGridOptions["localeText"]["noRowsToShow"] == "Nobody has claimed a result."
    assert "No Rows" not in grid("u", []).dashGridOptions["localeText"]["noRowsToShow"]
