"""Topas' head start (option `head_start`, a designer's variant, not in the rulebook): the first
player begins the match with that many points, a compensation for playing first. The same moves
with and without it differ by exactly the head start in the first seat's total and nowhere else;
it can share or decide a win; solitaire refuses one, storing nothing; a paper sheet's first total
starts from it (docs/games/topas.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.cli import main
from tablelog.domain.errors import Refused
from tablelog.domain.games import InvalidSetup
from tablelog.domain.games.topas.rules import RULES, TopasState
from tablelog.domain.sheets import check_sheet
from tests.conftest import stored_rows

SEATS = ["Ann", "Ben", "Cy", "Di"]


def both_ways(
    players: int, seed: int, head_start: int = 0, second_head_start: int = 0
) -> tuple[TopasState, TopasState]:
    """One seeded match played twice, move for move: without head starts and with them (the
    first seat's, the second's)."""
    rng = random.Random(seed)
    deal = RULES.deal(players, RULES.options({}), rng)
    plain = RULES.start(players, RULES.options({}), deal)
    options = {"head_start": head_start, "second_head_start": second_head_start}
    given_one = RULES.start(players, RULES.options(options), deal)
    while not plain.over:
        move = RULES.random_move(plain, rng)
        plain, given_one = RULES.apply(plain, move), RULES.apply(given_one, move)
    return plain, given_one


def totals(state: TopasState) -> list[int]:
    return [entry["total"] for entry in RULES.score(state)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_same_moves_give_the_first_seat_exactly_the_head_start_more(players):
    plain, given_one = both_ways(players, seed=players, head_start=2)
    assert totals(given_one)[0] == totals(plain)[0] + 2
    assert totals(given_one)[1:] == totals(plain)[1:]
    assert RULES.totals(given_one) == [float(t) for t in totals(given_one)]
    # The placements themselves score as before: only the start differs.
    assert [p.points for p in given_one.placements] == [p.points for p in plain.placements]


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), head_start=st.integers(0, 10))
def test_a_head_start_adds_to_the_first_total_at_every_move(players, seed, head_start):
    rng = random.Random(seed)
    deal = RULES.deal(players, RULES.options({}), rng)
    plain = RULES.start(players, RULES.options({}), deal)
    given_one = RULES.start(players, RULES.options({"head_start": head_start}), deal)
    for _ in range(rng.randrange(1, 4 * players)):
        move = RULES.random_move(plain, rng)
        plain, given_one = RULES.apply(plain, move), RULES.apply(given_one, move)
        expected = [t + (head_start if s == 0 else 0) for s, t in enumerate(totals(plain))]
        assert totals(given_one) == expected
        assert RULES.totals(given_one) == [float(t) for t in expected]
        assert RULES.decode(RULES.encode(given_one)) == given_one


# Each seat's head start (HEAD_STARTS' order): the seat it is given to, and the option.
GIVEN_TO = [(0, "head_start"), (1, "second_head_start")]


def loses_by_one(seat: int) -> tuple[TopasState, int, int]:
    """A seeded two-player match `seat` loses by exactly one point, found by playing seeds:
    the match, its seed and the seat's total."""
    for seed in range(500):
        plain, _ = both_ways(2, seed, head_start=0)
        mine, other = totals(plain)[seat], totals(plain)[1 - seat]
        if other - mine == 1:
            return plain, seed, mine
    raise AssertionError("no seeded match lost by one point")


@pytest.mark.parametrize("seat, option", GIVEN_TO)
def test_a_head_start_that_makes_up_the_gap_shares_the_win(seat, option):
    plain, seed, _ = loses_by_one(seat)
    lost = RULES.outcome(plain)
    assert lost is not None and lost.winners == (1 - seat,)
    _, level = both_ways(2, seed, **{option: 1})
    outcome = RULES.outcome(level)
    assert outcome is not None
    assert outcome.winners == (0, 1) and outcome.ranking == ((0, 1),)
    assert "shared win" in outcome.reason


@pytest.mark.parametrize("seat, option", GIVEN_TO)
def test_a_head_start_of_two_decides_a_match_lost_by_one(seat, option):
    _, seed, mine = loses_by_one(seat)
    _, decided = both_ways(2, seed, **{option: 2})
    outcome = RULES.outcome(decided)
    assert outcome is not None
    assert outcome.winners == (seat,) and outcome.ranking == ((seat,), (1 - seat,))
    assert outcome.reason == f"most points after 7 rounds: {mine + 2}"


def test_the_score_says_the_head_start_and_its_categories_add_up():
    _, given_one = both_ways(3, seed=5, head_start=3)
    first, second = RULES.score(given_one)[:2]
    assert first["categories"]["head start"] == 3 and first["details"]["head_start"] == 3
    assert second["categories"]["head start"] == 0 and "head_start" not in second["details"]
    for entry in (first, second):
        assert sum(entry["categories"].values()) == entry["total"]
    shown = RULES.render(given_one, SEATS[:3])
    assert "Ann began with a head start of 3 points" in shown
    assert f"Ann: {first['total']} points (3 of them a head start)" in shown


def test_without_a_head_start_the_score_and_state_read_as_before():
    plain, _ = both_ways(2, seed=1, head_start=0)
    assert all("head start" not in e["categories"] for e in RULES.score(plain))
    assert all("head_start" not in e["details"] for e in RULES.score(plain))
    assert "head_start" not in RULES.encode(plain)
    assert "head start" not in RULES.render(plain, SEATS[:2])


@pytest.mark.parametrize("value", [-1, 11])
def test_a_head_start_beyond_0_to_10_is_refused(value):
    with pytest.raises(InvalidSetup, match="head_start must be between 0 and 10"):
        RULES.options({"head_start": value})


def test_solitaire_refuses_a_head_start_in_one_line_and_stores_nothing(recorder, store):
    with pytest.raises(InvalidSetup) as refused:
        recorder.start("topas", ["Sol"], {"head_start": 2}, {"start": "R2-B1"})
    assert "solitaire" in str(refused.value) and "\n" not in str(refused.value)
    assert stored_rows(store) == []
    recorder.start("topas", ["Sol"], {"head_start": 0}, {"start": "R2-B1"})  # 0 is the rulebook


def test_the_command_line_takes_a_head_start_and_refuses_it_in_solitaire(any_store, tmp_path):
    """On SQLite and on PostgreSQL: one line, and the store as it was."""
    store = any_store
    setup = tmp_path / "setup.json"
    setup.write_text('{"start": "R2-B1"}')
    run, given = CliRunner(), ["--option", "head_start=2", "--setup", str(setup), "--store", store]
    refused = run.invoke(main, ["new", "topas", "--players", "Sol", *given])
    assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "solitaire" in refused.stderr
    assert stored_rows(store) == []
    started = run.invoke(main, ["new", "topas", "--players", "Ann,Ben", *given])
    assert started.exit_code == 0, started.output
    match = started.output.split()[-1] if started.output.split() else ""
    shown = run.invoke(main, ["show", match, "--store", store])
    assert "Ann began with a head start of 2 points" in shown.output, shown.output
    assert "Ann: 2 points (2 of them a head start)" in shown.output


# ---- the score sheet ---------------------------------------------------------------------------


def sheet(scores, winners, head_start=2, seats=("Ann", "Ben")):
    return check_sheet(
        "topas",
        list(seats),
        {"head_start": head_start},
        None,
        {"scores": scores, "winners": winners},
    )


def test_a_sheet_counts_the_head_start_in_the_first_total_listed_or_not():
    colours = {"red": 10, "green": 5, "yellow": 0, "blue": 3}  # 18 scored
    listed = {"total": 20, "categories": {**colours, "head start": 2}}
    left_out = {"total": 20, "categories": colours}
    other = {"total": 20, "categories": {"red": 20, "green": 0, "yellow": 0, "blue": 0}}
    for first in (listed, left_out):
        _, outcome = sheet([first, other], ["Ann", "Ben"])
        assert outcome["winners"] == [0, 1]  # 18 + 2 ties 20: a shared win


@pytest.mark.parametrize(
    ("scores", "words"),
    [
        (
            [{"total": 18, "categories": {"red": 18}}, {"total": 10}],
            "seat 1 (Ann): categories add up to 18, with the head start 20, not the total 18",
        ),
        (
            [{"total": 21, "categories": {"red": 18, "head start": 3}}, {"total": 10}],
            "seat 1 (Ann): head start 3, but the first player's head start is 2 points",
        ),
        (
            [{"total": 20}, {"total": 12, "categories": {"red": 10, "head start": 2}}],
            "seat 2 (Ben): head start 2, but only the first player begins with one",
        ),
        ([{"total": 1}, {"total": 0}], "the first player begins with a head start of 2 points"),
    ],
)
def test_a_sheet_that_miscounts_the_head_start_is_refused(scores, words):
    winners = ["Ann"] if scores[0]["total"] > scores[1]["total"] else ["Ben"]
    with pytest.raises(Refused) as refused:
        sheet(scores, winners)
    assert words in str(refused.value)


def test_a_solitaire_sheet_refuses_a_head_start():
    with pytest.raises(Refused, match="solitaire has nobody to make up to"):
        sheet([{"total": 12}], ["Sol"], seats=("Sol",))


def test_a_sheet_without_a_head_start_lists_no_such_category():
    with pytest.raises(Refused, match="category 'head start' is not one of"):
        sheet([{"total": 3, "categories": {"red": 3, "head start": 0}}, {"total": 1}], ["Ann"], 0)


# ---- the words a person reads ------------------------------------------------------------------


def test_the_variant_and_the_tuner_say_the_head_start_in_points():
    from tablelog.domain import wording
    from tablelog.tune.service import _choices_words

    assert wording.game_option_words("topas", {"head_start": 2}) == "head start: 2 points"
    assert wording.game_option_words("topas", {"head_start": "1"}) == "head start: 1 point"
    assert wording.game_option_words("topas", {"head_start": 0}) == "standard rules"
    stored = "expert=false, head_start=3, manifest=topas"
    assert wording.game_variant_words("topas", stored) == "head start: 3 points"
    assert _choices_words([0, 2], "topas", "head_start") == "0 points or 2 points"


def test_the_record_page_asks_the_head_start_of_two_or_more_players_only():
    from tablelog.dashboard.record import setup as setups
    from tablelog.dashboard.record.picking import Question, Ready

    asked = setups.menu("topas", 3, [["expert", False]])
    assert isinstance(asked, Question) and "Head start" in asked.prompt
    assert [o.label for o in asked.options][:3] == ["0 points (standard)", "1 point", "2 points"]
    picks: list[list[Any]] = [["expert", False], ["head_start", 2]]
    after = setups.menu("topas", 3, picks)  # the second player's head start is asked next
    assert isinstance(after, Question) and after.key == "second_head_start"
    picks += [["second_head_start", 0], ["start", "R2-B1"]]
    ready = setups.menu("topas", 3, picks)
    assert isinstance(ready, Ready) and ready.move["options"]["head_start"] == 2
    alone = setups.menu("topas", 1, [["expert", False]])
    assert isinstance(alone, Question) and alone.key == "start"
