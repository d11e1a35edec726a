"""The lab's metrics on small hand-built match sets. Each metric named after one of Ludii's is
worked out in the comments from Ludii's own definition (Evaluation/src/metrics/ in
github.com/Ludeme/Ludii; docs/metrics.md quotes it), with the score as Ludii's evaluation of a
position: a seat's own points minus every opponent's. Ludii evaluates the position BEFORE each
move (the start, 0 points each, and after every move but the last), never the final one."""

from __future__ import annotations

import math

import pytest

from tablelog.projections.lab_stats import compare, head_to_head, skill_trace, summary
from tablelog.projections.metrics import per_match, utilities
from tablelog.projections.traces import Trace


def seat_one_always_wins(n=20):
    return [
        Trace(2, (0,), True, (0, 1, 0, 1), totals=((2, 0), (2, 1), (4, 1), (4, 3)))
        for _ in range(n)
    ]


def always_drawn(n=20):
    return [Trace(2, (), True, (0, 1), totals=((1, 0), (1, 1))) for _ in range(n)]


def ties_in_the_lead():
    # Totals after each move: 1-0, 1-1, 1-3, 2-3, 6-3; seat 1 wins.
    totals = ((1, 0), (1, 1), (1, 3), (2, 3), (6, 3))
    return Trace(2, (0,), True, (0, 1, 1, 0, 0), totals=totals)


def leads_early_then_falls_back():
    # Totals after each move: 5-0, 5-2, 5-7, 9-7, 9-8; seat 1 wins 9 to 8.
    totals = ((5, 0), (5, 2), (5, 7), (9, 7), (9, 8))
    return Trace(2, (0,), True, (0, 1, 1, 0, 1), totals=totals)


def estimate(table, metric):
    return table.set_index("metric").loc[metric]


def test_lead_change_counts_changes_of_the_set_of_leaders_per_move():
    # Ludii's LeadChange. Positions before the five moves: 0-0, 1-0, 1-1, 1-3, 2-3; leaders
    # {1,2}, {1}, {1,2}, {2}, {2}. Changes: {} -> {1,2} (the start counts), -> {1}, -> {1,2},
    # -> {2}; then none. 4 changes / 5 moves = 0.8.
    row = per_match([ties_in_the_lead()]).iloc[0]
    assert row["lead_change"] == pytest.approx(4 / 5)
    # Tablelog's own: the sole leader after each move is 1, (tie), 2, 2, 1: 1->2 and 2->1.
    assert row["sole_lead_changes"] == 2


def test_decisiveness_is_the_first_move_a_winner_passes_the_threshold():
    # Ludii's DecisivenessMoves. Positions before the moves: 0-0, 5-0, 5-2, 5-7, 9-7. The loser's
    # evaluation (its points minus the winner's): 0, -5, -3, +2, -2, so the threshold is +2.
    # The winner's: 0, +5, +3, -2, +2; first above +2 before move 2 (index 1): 1/5 = 0.2.
    row = per_match([leads_early_then_falls_back()]).iloc[0]
    assert row["decisiveness"] == pytest.approx(1 / 5)
    # Tablelog's lead for good: sole leaders after each move 1, 1, 2, 1, 1; the last move
    # after which seat 1 did not lead is the third: 3/5.
    assert row["lead_for_good"] == pytest.approx(3 / 5)
    # Leaders before each move: {1,2}, {1}, {1}, {2}, {1}: 4 changes / 5 moves.
    assert row["lead_change"] == pytest.approx(4 / 5)
    # The winner's largest deficit: 7 - 5 after the third move.
    assert row["deficit"] == 2 and row["score_margin"] == 1


def test_decisiveness_never_reached_reads_one():
    # Ties in the lead: the loser's evaluations before the moves 0, -1, 0, +2, +1 (threshold
    # +2); the winner's 0, +1, 0, -2, -1 never pass it (6-3 is the final position, never
    # evaluated): 5/5. Tablelog's lead for good: it led for good from the fifth move, 4/5.
    row = per_match([ties_in_the_lead()]).iloc[0]
    assert row["decisiveness"] == 1
    assert row["lead_for_good"] == pytest.approx(4 / 5)


def test_decisiveness_with_three_players_weighs_every_opponent():
    # Totals after the moves: 3-0-0, 3-4-0, 3-4-5, 8-4-5; seat 1 wins. Positions before the
    # moves: 0-0-0, 3-0-0, 3-4-0, 3-4-5; an evaluation is own points minus the others' (2s -
    # total): (0,0,0), (3,-3,-3), (-1,1,-7), (-6,-4,-2). Threshold: the others' best, +1
    # (seat 2 before move 3). Seat 1 is above it before move 2 (+3): 1/4. Leaders {1,2,3},
    # {1}, {2}, {3}: 4 changes / 4 moves.
    totals = ((3, 0, 0), (3, 4, 0), (3, 4, 5), (8, 4, 5))
    row = per_match([Trace(3, (0,), True, (0, 1, 2, 0), totals=totals)]).iloc[0]
    assert row["decisiveness"] == pytest.approx(1 / 4)
    assert row["lead_change"] == 1


def test_a_draw_is_decided_from_the_start_and_has_no_lead_for_good():
    # A draw: every seat is highest-ranked, so no other seat sets a threshold (Ludii's starts
    # at its lowest evaluation) and the first position already passes it: 0.
    row = per_match(always_drawn(1)).iloc[0]
    assert row["decisiveness"] == 0
    assert math.isnan(row["lead_for_good"]) and math.isnan(row["score_margin"])


def test_drawishness_leaves_out_the_draws_at_the_cap():
    # Four matches: a draw at the move cap (agreed, not by the rules), a draw by the rules,
    # two wins. Ludii's Drawishness: draws by the rules / all matches = 1/4; Tablelog's drawn:
    # nobody won = 2/4. Ludii's Completion (a seat ranked first alone): 2/4; ended by the
    # rules: 3/4.
    traces = [
        Trace(2, (), False, (0, 1)),
        Trace(2, (), True, (0, 1)),
        Trace(2, (0,), True, (0, 1)),
        Trace(2, (1,), True, (0, 1)),
    ]
    table = summary(per_match(traces))
    assert estimate(table, "drawishness")["estimate"] == 1 / 4
    assert estimate(table, "drawn")["estimate"] == 2 / 4
    assert estimate(table, "completion")["estimate"] == 2 / 4
    assert estimate(table, "ended_by_rules")["estimate"] == 3 / 4


def test_a_win_shared_by_every_seat_is_a_draw_to_ludii():
    # Topas: all three seats tie on points, a win for each. Every seat's rank is 2, its utility
    # 0: Ludii's Drawishness counts it; nobody is first alone, so Completion does not.
    row = per_match([Trace(3, (0, 1, 2), True, (0, 1, 2), ranking=((0, 1, 2),))]).iloc[0]
    assert row["drawishness"] == 1 and row["drawn"] == 0 and row["completion"] == 0


def shared_win_set():
    # Three players, four matches: seat 1 alone; seat 2 alone (seats 1 and 3 tied behind);
    # seats 1 and 2 share; seat 3 alone (then seat 1, then seat 2).
    return [
        Trace(3, (0,), True, (0, 1, 2), ranking=((0,), (1,), (2,))),
        Trace(3, (1,), True, (0, 1, 2), ranking=((1,), (0, 2))),
        Trace(3, (0, 1), True, (0, 1, 2), ranking=((0, 1), (2,))),
        Trace(3, (2,), True, (0, 1, 2), ranking=((2,), (0,), (1,))),
    ]


def test_balance_counts_a_shared_win_for_nobody_and_tablelogs_for_each_sharer():
    # Ludii's Balance: wins alone 1, 1, 1 of 4: rates 1/4 each, balance 1 - 0 = 1. Tablelog's:
    # seat wins 2, 2, 1 of 4: rates 1/2, 1/2, 1/4, balance 1 - 1/4 = 0.75.
    table = summary(per_match(shared_win_set()))
    assert estimate(table, "balance")["estimate"] == 1
    assert estimate(table, "balance_shared")["estimate"] == 0.75
    assert estimate(table, "completion")["estimate"] == 3 / 4


def test_first_player_advantage_is_seat_ones_utility_as_a_partial_win():
    # Ludii's AdvantageP1: (utility + 1) / 2 with utility 1 - (rank - 1) * 2 / (3 - 1). Seat 1's
    # ranks: 1; 2.5 (tied 2nd-3rd); 1.5 (tied 1st-2nd); 2. Utilities 1, -0.5, 0.5, 0; partial
    # wins 1, 0.25, 0.75, 0.5; mean 0.625. Tablelog's share: 1, 0, 1/2, 0; mean 0.375.
    table = summary(per_match(shared_win_set()))
    assert estimate(table, "advantage_p1")["estimate"] == pytest.approx(0.625)
    assert estimate(table, "seat1_share")["estimate"] == pytest.approx(0.375)


def test_utilities_follow_ludiis_ranks():
    # Two players drawn: ranks 1.5, 1.5, utilities 0. Three, seats 1 and 2 share: ranks 1.5,
    # 1.5, 3: utilities 0.5, 0.5, -1. With no ranking stored, the winners come first.
    assert utilities(Trace(2, (), True, ())) == [0, 0]
    assert utilities(Trace(3, (0, 1), True, ())) == [0.5, 0.5, -1]
    assert utilities(Trace(3, (2,), True, (), ranking=((2,), (0,), (1,)))) == [0, -1, 1]


def test_skill_trace_is_ludiis_regression_and_area():
    # Steps 0, 1, 2 with mean utilities 0, 0.2, 0.1: slope 0.05, intercept 0.05; predicted at
    # step 3 + 1 = 4: 0.25. Area: mean of the results at least 0: 0.1. 0.25 + 0.75 * 0.1.
    assert skill_trace([0.0, 0.2, 0.1]) == pytest.approx(0.325)
    # Falling: 0.5, 0, -0.5 predicts -1.5 at step 4, clamped to 0; area (0.5 + 0 + 0) / 3.
    assert skill_trace([0.5, 0.0, -0.5]) == pytest.approx(1 / 6)
    assert math.isnan(skill_trace([0.3]))


def test_a_game_seat_one_always_wins():
    table = summary(per_match(seat_one_always_wins()))
    assert estimate(table, "advantage_p1")["estimate"] == 1
    assert estimate(table, "won_1")["estimate"] == 1 and estimate(table, "won_2")["estimate"] == 0
    assert estimate(table, "balance")["estimate"] == 0
    assert estimate(table, "drawishness")["estimate"] == 0
    assert estimate(table, "sole_lead_changes")["estimate"] == 0
    assert estimate(table, "lead_for_good")["estimate"] == 0  # led from the first move
    assert estimate(table, "score_margin")["estimate"] == 1
    low, high = estimate(table, "won_1")[["low", "high"]]
    assert 0.8 < low < 1 and high == pytest.approx(1)  # Wilson: never the point itself


def test_a_game_that_always_draws():
    table = summary(per_match(always_drawn()))
    assert estimate(table, "drawishness")["estimate"] == 1
    assert estimate(table, "advantage_p1")["estimate"] == 0.5
    assert estimate(table, "balance")["estimate"] == 1
    assert estimate(table, "lead_for_good")["n"] == 0  # nobody won: nothing to lead for good
    assert math.isnan(estimate(table, "score_margin")["estimate"])


def test_duration_in_rounds():
    row = per_match([ties_in_the_lead()]).iloc[0]
    assert row["duration_rounds"] == 1.5  # three turns (0 | 1 1 | 0 0) by two seats


def test_branching_and_decision_moves():
    trace = Trace(2, (0,), True, (0, 1, 0, 1), branching=(3, 1, 5, 1))
    row = per_match([trace]).iloc[0]
    assert row["branching"] == 2.5 and row["decision_moves"] == 0.5


def test_comparing_two_arms_finds_a_real_difference_and_no_false_one():
    a = per_match(seat_one_always_wins(30))
    b = per_match(always_drawn(30))
    frame = compare(a, b).set_index("metric")
    assert frame.loc["drawishness", "real"] and frame.loc["drawishness", "difference"] == 1
    assert frame.loc["duration_moves", "difference"] == -2
    assert not compare(a, per_match(seat_one_always_wins(30)))["real"].any()
    tested = frame[~frame["no_variation"]]
    assert (tested["p_holm"] >= tested["p"]).all()


def test_a_metric_without_variation_is_left_out_of_the_holm_family():
    # Arm A: 20 matches of two moves; arm B: 10 of two and 10 of four. Only the durations
    # vary (moves and rounds); the advantage, shares, completion, drawishness and draws are
    # one value in every match of both arms. Holm over the 2 tested: the smaller p times 2.
    short = Trace(2, (0,), True, (0, 1))
    long = Trace(2, (0,), True, (0, 1, 0, 1))
    frame = compare(per_match([short] * 20), per_match([short] * 10 + [long] * 10))
    frame = frame.set_index("metric")
    assert set(frame.index[~frame["no_variation"]]) == {"duration_moves", "duration_rounds"}
    same = frame[frame["no_variation"]]
    assert same["p"].isna().all() and same["p_holm"].isna().all() and not same["real"].any()
    smaller = frame.loc[["duration_moves", "duration_rounds"], "p"].min()
    assert frame["p_holm"].min() == pytest.approx(min(1.0, 2 * smaller))


def test_head_to_head_against_the_fair_rate():
    even = head_to_head(50, 50, 3, 2)
    assert even["rate"] == 0.5 and even["p"] == 1 and even["draws"] == 3
    lopsided = head_to_head(45, 5, 0, 2)
    assert lopsided["difference"] == pytest.approx(0.4) and lopsided["p"] < 0.001
    assert lopsided["diff_low"] < 0.4 < lopsided["diff_high"]


def test_head_to_head_expects_the_observed_sharing_of_wins():
    # 3 players, 100 decided matches, each won by 2 of the 3 seats: an even seat is among the
    # winners 2/3 of the time, so winning 40 of them is below fair, not above 1/3.
    shared = head_to_head(40, 60, 0, 3, shared=100 * 2 / 3)
    assert shared["fair"] == pytest.approx(2 / 3)
    assert shared["difference"] == pytest.approx(0.4 - 2 / 3) and shared["p"] < 0.001
    # No win shared: each decided match adds 1/3, and the fair rate is 1/3 as before.
    alone = head_to_head(40, 60, 0, 3, shared=100 / 3)
    assert alone["fair"] == pytest.approx(1 / 3) and alone["difference"] > 0


def test_a_skill_report_gives_ludiis_skill_trace():
    # Two doublings, two matches each; the stronger sits in seat k % 2 in match k. First: it wins
    # match 0 (utility 1), match 1 is drawn (0): mean 0.5. Second: seat 2 wins both, a loss
    # (-1) then a win (1): mean 0. The line through 0.5, 0 predicts -1 at step 2 + 1 = 3,
    # clamped to 0; area (0.5 + 0) / 2: the trace is 0.25.
    from tablelog import lab
    from tablelog.lab.report import report_of

    definition = lab.skill("topitop", [1, 2, 4], matches=2)
    traces = [
        [Trace(2, (0,), True, (0, 1)), Trace(2, (), True, (0, 1))],
        [Trace(2, (1,), True, (0, 1)), Trace(2, (1,), True, (0, 1))],
    ]
    report = report_of(definition, traces)
    assert [arm["head_to_head"]["utility"] for arm in report["arms"]] == [0.5, 0]
    assert report["skill_trace"] == pytest.approx(0.25)
    assert any(w.startswith("Ludii's skill trace: 0.25") for w in report["words"])
    from tablelog.dashboard.figures.lab import skill_trace as drawn

    assert "Ludii's skill trace 0.25" in drawn(report).layout.title.subtitle.text


def test_a_variants_report_names_the_metrics_without_variation():
    from tablelog import lab
    from tablelog.lab.report import report_of

    definition = lab.variants("topas", {"expert": False}, {"expert": True}, matches=20)
    short = Trace(2, (0,), True, (0, 1))
    long = Trace(2, (0,), True, (0, 1, 0, 1))
    report = report_of(definition, [[short] * 20, [short] * 10 + [long] * 10])
    (said,) = [w for w in report["words"] if w.startswith("No variation")]
    assert "completion" in said and "drawishness" in said and "duration in moves" not in said
    untested = [w for w in report["words"] if w.startswith("No real difference")]
    assert not any("completion" in w for w in untested)  # not tested, so not "no difference"
