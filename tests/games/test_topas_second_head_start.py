"""Topas' second head start (option `second_head_start`, a designer's variant, not in the
rulebook): the second player begins the match with that many points, a compensation for playing
before the later seats (in the expert variant at 3 players seats 1 and 2 both trail seat 3). The
same moves with and without it differ by exactly that in the second seat's total and nowhere
else; it can share or decide a win; solitaire refuses one, storing nothing; a paper sheet's
second total starts from it; at 0 the stored options and a simulated match's id read as before
(docs/games/topas.md)."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.cli import main
from tablelog.domain.errors import Refused
from tablelog.domain.games import InvalidSetup
from tablelog.domain.games.topas.rules import RULES
from tablelog.domain.sheets import check_sheet
from tablelog.simulation import make_plan, match_id
from tests.conftest import stored_rows
from tests.games.test_topas_head_start import both_ways, totals
from tests.test_stored_rooms import STORED_IDS

SEATS = ["Ann", "Ben", "Cy", "Di"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_same_moves_give_the_second_seat_exactly_the_second_head_start_more(players):
    plain, given_one = both_ways(players, seed=players, second_head_start=3)
    expected = [t + (3 if seat == 1 else 0) for seat, t in enumerate(totals(plain))]
    assert totals(given_one) == expected
    assert RULES.totals(given_one) == [float(t) for t in expected]
    # The placements themselves score as before: only the start differs.
    assert [p.points for p in given_one.placements] == [p.points for p in plain.placements]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_both_head_starts_go_each_to_its_own_seat(players):
    plain, given_both = both_ways(players, seed=10 + players, second_head_start=1, head_start=4)
    expected = [t + {0: 4, 1: 1}.get(seat, 0) for seat, t in enumerate(totals(plain))]
    assert totals(given_both) == expected


@settings(max_examples=15, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    first=st.integers(0, 10),
    second=st.integers(0, 10),
)
def test_the_head_starts_add_to_their_seats_totals_at_every_move(players, seed, first, second):
    rng = random.Random(seed)
    deal = RULES.deal(players, RULES.options({}), rng)
    plain = RULES.start(players, RULES.options({}), deal)
    options = RULES.options({"head_start": first, "second_head_start": second})
    given_them = RULES.start(players, options, deal)
    for _ in range(rng.randrange(1, 4 * players)):
        move = RULES.random_move(plain, rng)
        plain, given_them = RULES.apply(plain, move), RULES.apply(given_them, move)
        starts = {0: first, 1: second}
        expected = [t + starts.get(s, 0) for s, t in enumerate(totals(plain))]
        assert totals(given_them) == expected
        assert RULES.totals(given_them) == [float(t) for t in expected]
        encoded = RULES.encode(given_them)
        assert ("second_head_start" in encoded) == bool(second)
        assert RULES.decode(encoded) == given_them


# A second head start that shares or decides a win: tests/games/test_topas_head_start.py,
# for each seat's head start.


def test_the_score_and_the_table_say_the_second_head_start():
    _, given_one = both_ways(3, seed=5, second_head_start=1)
    first, second, third = RULES.score(given_one)
    assert second["categories"]["head start"] == 1 and second["details"]["head_start"] == 1
    for entry in (first, third):
        assert entry["categories"]["head start"] == 0 and "head_start" not in entry["details"]
    for entry in (first, second, third):
        assert sum(entry["categories"].values()) == entry["total"]
    shown = RULES.render(given_one, SEATS[:3])
    assert "Ben began with a head start of 1 point" in shown
    assert "Ann began" not in shown and "Cy began" not in shown
    assert f"Ben: {second['total']} points (1 of them a head start)" in shown
    _, both = both_ways(3, seed=5, second_head_start=2, head_start=3)
    shown = RULES.render(both, SEATS[:3])
    assert "Ann began with a head start of 3 points, Ben began with a head start of 2 points" in (
        shown
    )


def test_without_a_second_head_start_the_state_and_options_read_as_before():
    plain, _ = both_ways(2, seed=1, second_head_start=0)
    assert "second_head_start" not in RULES.encode(plain)
    assert RULES.options({"second_head_start": 0}) == {"expert": False, "manifest": "topas"}
    assert RULES.options({"second_head_start": "0", "head_start": 0}) == RULES.options({})
    assert RULES.options({"second_head_start": "2"})["second_head_start"] == 2


# A Topas match stored by `tablelog simulate` before the head starts were declared (pinned in
# tests/test_stored_rooms.py): a run again must find it under the same id.
STORED = ("topas", 5, 2), {"players": 2, "bots": "random", "options": {"expert": True}}, 4
STORED_ID = "20ac8e3e-f565-5262-80fa-f5ba7b965537"


def test_at_0_a_simulated_match_keeps_its_stored_id():
    assert (*STORED, STORED_ID) in STORED_IDS
    at_0 = make_plan(
        "topas", 5, 2, players=2, bots="random", options={"expert": True, "second_head_start": 0}
    )
    assert match_id(at_0, 4) == UUID(STORED_ID)
    given = make_plan(
        "topas", 5, 2, players=2, bots="random", options={"expert": True, "second_head_start": 1}
    )
    assert match_id(given, 4) != UUID(STORED_ID)  # a second head start is another match


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (-1, "option second_head_start must be between 0 and 10 points, got -1"),
        (11, "option second_head_start must be between 0 and 10 points, got 11"),
        ("two", "option second_head_start"),
        (1.5, "option second_head_start"),
    ],
)
def test_a_second_head_start_not_a_whole_number_from_0_to_10_is_refused(value, words):
    with pytest.raises(InvalidSetup) as refused:
        RULES.options({"second_head_start": value})
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_the_command_line_refuses_a_second_head_start_in_solitaire_and_stores_nothing(
    any_store, tmp_path
):
    """On SQLite and on PostgreSQL: one line, and the store as it was."""
    store = any_store
    setup = tmp_path / "setup.json"
    setup.write_text('{"start": "R2-B1"}')
    run, given = CliRunner(), ["--setup", str(setup), "--store", store]
    both = ["--option", "head_start=3", "--option", "second_head_start=2"]
    started = run.invoke(main, ["new", "topas", "--players", "Ann,Ben,Cy", *both, *given])
    assert started.exit_code == 0, started.output
    before = stored_rows(store)
    assert before
    refused = run.invoke(
        main, ["new", "topas", "--players", "Sol", "--option", "second_head_start=2", *given]
    )
    assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "solitaire has no second player" in refused.stderr
    assert stored_rows(store) == before
    match = started.output.split()[-1]
    shown = run.invoke(main, ["show", match, "--store", store])
    assert "Ann began with a head start of 3 points, Ben began with a head start of 2 points" in (
        shown.output
    ), shown.output
    assert "Ben: 2 points (2 of them a head start)" in shown.output
    assert "Cy: 0 points\n" in shown.output


# ---- the score sheet ---------------------------------------------------------------------------


def sheet(scores, winners, second=2, first=0, seats=("Ann", "Ben", "Cy")):
    return check_sheet(
        "topas",
        list(seats),
        {"head_start": first, "second_head_start": second},
        None,
        {"scores": scores, "winners": winners},
    )


def test_a_sheet_counts_the_second_head_start_in_the_second_total_listed_or_not():
    colours = {"red": 10, "green": 5, "yellow": 0, "blue": 3}  # 18 scored
    listed = {"total": 20, "categories": {**colours, "head start": 2}}
    left_out = {"total": 20, "categories": colours}
    other = {"total": 20, "categories": {"red": 20, "green": 0, "yellow": 0, "blue": 0}}
    third = {"total": 5, "categories": {"red": 5, "green": 0, "yellow": 0, "blue": 0}}
    for second in (listed, left_out):
        _, outcome = sheet([other, second, third], ["Ann", "Ben"])
        assert outcome["winners"] == [0, 1]  # 18 + 2 ties 20: a shared win


@pytest.mark.parametrize(
    ("scores", "words"),
    [
        (
            [{"total": 10}, {"total": 18, "categories": {"red": 18}}, {"total": 5}],
            "seat 2 (Ben): categories add up to 18, with the head start 20, not the total 18",
        ),
        (
            [
                {"total": 10},
                {"total": 21, "categories": {"red": 18, "head start": 3}},
                {"total": 5},
            ],
            "seat 2 (Ben): head start 3, but the second player's head start is 2 points",
        ),
        (
            [
                {"total": 10},
                {"total": 20},
                {"total": 12, "categories": {"red": 10, "head start": 2}},
            ],
            "seat 3 (Cy): head start 2, but only the second player begins with one",
        ),
        (
            [{"total": 10, "categories": {"red": 8, "head start": 2}}, {"total": 20}, {"total": 5}],
            "seat 1 (Ann): head start 2, but only the second player begins with one",
        ),
        (
            [{"total": 3}, {"total": 1}, {"total": 0}],
            "seat 2 (Ben): the second player begins with a head start of 2 points, so the total "
            "is at least 2, not 1",
        ),
    ],
)
def test_a_sheet_whose_second_total_does_not_start_from_it_is_refused(scores, words):
    best = max(s["total"] for s in scores)
    winners = [n for n, s in zip(("Ann", "Ben", "Cy"), scores, strict=True) if s["total"] == best]
    with pytest.raises(Refused) as refused:
        sheet(scores, winners)
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_a_sheet_with_both_head_starts_checks_each_seat_against_its_own():
    scores: list[dict[str, Any]] = [
        {"total": 13, "categories": {"red": 10, "head start": 3}},
        {"total": 11, "categories": {"red": 10, "head start": 1}},
        {"total": 10, "categories": {"red": 10, "head start": 0}},
    ]
    _, outcome = sheet(scores, ["Ann"], second=1, first=3)
    assert outcome["winners"] == [0]
    scores[2]["categories"]["head start"] = 1
    with pytest.raises(Refused, match="only the first and the second players begin with one"):
        sheet(scores, ["Ann"], second=1, first=3)


def test_a_solitaire_sheet_refuses_a_second_head_start():
    with pytest.raises(Refused) as refused:
        sheet([{"total": 12}], ["Sol"], seats=("Sol",))
    assert "solitaire has no second player" in str(refused.value)
    assert "\n" not in str(refused.value)


# ---- the words a person reads ------------------------------------------------------------------


def test_the_variant_and_the_tuner_say_the_second_head_start_in_points():
    from tablelog.domain import wording
    from tablelog.domain.games.topas import tuning
    from tablelog.tune.service import _choices_words

    says = wording.game_option_words
    assert says("topas", {"second_head_start": 2}) == "second player's head start: 2 points"
    assert says("topas", {"second_head_start": "1"}) == "second player's head start: 1 point"
    assert says("topas", {"second_head_start": 0}) == "standard rules"
    assert _choices_words([0, 2], "topas", "second_head_start") == "0 points or 2 points"
    assert tuning.OPTIONS["second_head_start"] == tuning.OPTIONS["head_start"] == [0, 1, 2, 3, 4]


def test_the_record_page_asks_the_second_head_start_after_the_first_of_two_or_more_players():
    from tablelog.dashboard.record import setup as setups
    from tablelog.dashboard.record.picking import Question, Ready
    from tablelog.dashboard.record.steps import setting_up

    for players in (2, 3, 4):
        asked = setups.menu("topas", players, [["expert", False], ["head_start", 0]])
        assert isinstance(asked, Question) and asked.key == "second_head_start"
        assert "second player begins with" in asked.prompt and "_" not in asked.prompt
        labels = [o.label for o in asked.options]
        assert labels[:3] == ["0 points (standard)", "1 point", "2 points"]
        assert all("_" not in label for label in labels)
    picks: list[list[Any]] = [
        ["expert", True],
        ["head_start", 3],
        ["second_head_start", 1],
        ["start", "R2-B1"],
    ]
    ready = setups.menu("topas", 3, picks)
    assert isinstance(ready, Ready)
    assert ready.move["options"]["second_head_start"] == 1
    assert ready.move["options"]["head_start"] == 3
    alone = setups.menu("topas", 1, [["expert", False]])
    assert isinstance(alone, Question) and alone.key == "start"
    # the answers as the page shows them (its chips): the question and the button's words
    said = setting_up([["game", "topas"], *picks], "Ann, Ben, Cy")
    assert said is not None and said.asked.ready
    assert (
        "Second player's head start: points the second player begins with (a designer's "
        "variant)? 1 point" in said.asked.said
    )
    assert not [words for words in said.asked.said if "_" in words]
