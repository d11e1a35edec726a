"""The Lab page's Tune section without a browser: Optuna's figures drawn from a study in the
game's words, the balance table, the progress line, and a start from the page bounded as the
lab's experiments are (a refusal leaves the store without a study)."""

from __future__ import annotations

from typing import Any

import optuna
import pytest
from optuna.distributions import CategoricalDistribution, IntDistribution
from optuna.trial import TrialState, create_trial

from tablelog.dashboard.figures import tune as figures
from tablelog.dashboard.tune import balance_table, progress_words
from tablelog.domain.errors import Refused
from tablelog.tune.service import TuneService
from tests.tune.helpers import space_file, study_id, tuned

RAW = ("Trial", "Objective", "Hyperparameter", "Distribution", "True", "False", "/values")
NAMES = ["seat imbalance"]


def study_of(values: list[float | None], objectives: int = 1) -> optuna.Study:
    """A study in words: candidates with a tile value and a yes/no choice; None is pruned."""
    study = optuna.create_study(directions=["minimize"] * objectives)
    for n, value in enumerate(values):
        study.add_trial(
            create_trial(
                state=TrialState.PRUNED if value is None else TrialState.COMPLETE,
                values=None if value is None else [value] + [float(n)] * (objectives - 1),
                params={"tile value 5": 5 + n, "last player chooses": ["no", "yes"][n % 2]},
                distributions={
                    "tile value 5": IntDistribution(1, 9),
                    "last player chooses": CategoricalDistribution(["no", "yes"]),
                },
            )
        )
    return study


def visible(figure) -> str:
    """The words a figure shows: titles, axis titles, trace names, tick and hover texts (the
    figure's JSON, its own braces and keys aside)."""
    return figure.to_json().replace('"hovertemplate"', "").replace('"showlegend"', "")


def test_the_history_draws_each_finished_candidate_and_the_best_so_far():
    figure = figures.history(study_of([3.0, None, 1.0, 2.0]), NAMES)
    by_name = {trace.name: trace for trace in figure.data}
    assert list(by_name["seat imbalance"].y) == [3.0, 1.0, 2.0]  # the pruned one is not drawn
    assert list(by_name["best so far"].y)[-1] == 1.0
    assert figure.layout.xaxis.title.text == "candidate"
    assert figure.layout.title.text == figures.HISTORY
    assert not [w for w in RAW if w in visible(figure)]


def test_importances_parallel_and_pareto_speak_the_games_words():
    study = study_of([3.0, 1.0, 2.0, 0.5])
    importances = figures.importances(study, NAMES)
    assert set(importances.data[0].y) == {"tile value 5", "last player chooses"}
    parallel = figures.parallel(study, NAMES)
    assert "last player chooses" in visible(parallel) and "seat imbalance" in visible(parallel)
    for figure in (importances, parallel):
        assert not [w for w in RAW if w in visible(figure)]
    two = figures.pareto(study_of([3.0, 1.0, 2.0], objectives=2), [*NAMES, "drawishness"])
    front = next(t for t in two.data if t.name == "on the front")
    assert sorted(front.text) == [
        "candidate 0: seat imbalance 3, drawishness 0<br>tile value 5: 5, last player chooses: no",
        "candidate 1: seat imbalance 1, drawishness 1<br>tile value 5: 6, last player chooses: yes",
    ]  # 2 (values 2, 2) is beaten by 1 (1, 1) on both
    assert two.layout.xaxis.title.text == "seat imbalance"
    assert not [w for w in RAW if w in visible(two)]


def test_nothing_to_draw_yet_is_said():
    one = study_of([2.0])
    assert figures.history(None, NAMES).layout.annotations[0].text.replace("<br>", " ") == (
        figures.NOT_YET
    )
    assert "two candidates" in figures.importances(one, NAMES).layout.annotations[0].text
    assert "one objective" in figures.pareto(one, NAMES).layout.annotations[0].text
    assert len(figures.figures(None, NAMES)) == 4


def test_a_real_study_is_drawn_in_words(tmp_path):
    store = str(tmp_path / "s.sqlite")
    code, said = tuned(store, space_file=space_file(tmp_path), trials=3)
    assert code == 0
    study, names = TuneService(store).worded(study_id(said))
    assert names == ["seat imbalance"]
    params = {k for t in study.trials for k in t.params}
    assert params == {"last player chooses", "tile value 5"}
    assert {t.params["last player chooses"] for t in study.trials} <= {"yes", "no"}
    assert not [w for w in RAW if w in visible(figures.history(study, names))]


def test_the_balance_table_has_a_row_per_seat_and_the_pooled_test():
    confirmation = {
        "state": "not confirmed",
        "trial": 4,
        "seeds": [41, 14],
        "first": [
            {
                "players": 2,
                "seat": s,
                "wins": w,
                "matches": 50,
                "rate": w / 50,
                "low": 0.3,
                "high": 0.6,
                "inside": s == 1,
            }
            for s, w in ((1, 20), (2, 30))
        ],
        "pooled_p": {"2": 0.0312},
    }
    title, table = balance_table(confirmation)
    assert table is not None
    assert title == "Balance table of candidate 4 (not confirmed, seed set 41)"
    rows = table.children[1].children
    assert [cell.children for cell in rows[1].children] == [
        "2", "seat 2", "30", "50", "60.0%", "30.0% to 60.0%", "outside"
    ]  # fmt: skip
    assert rows[2].children.children == "2 players, the seed sets pooled: p = 0.031"
    assert balance_table(None) == ("", None)
    assert balance_table({"state": "seeds spent", "seeds": [41, 14]}) == ("", None)


def test_the_progress_line():
    running = {"state": "running", "id": "topiary-ab12", "played": 2, "trials": 5,
               "phase": "search", "estimate": "3 minutes"}  # fmt: skip
    assert progress_words(running) == (
        "Study ab12 running: 2 of 5 candidates played (at most 3 minutes)"
    )
    confirming = {**running, "phase": "confirmation", "confirmed": 1200}
    assert progress_words(confirming) == "Study ab12: confirming the best candidate, 1,200 matches"
    assert progress_words({**running, "state": "ended", "ended": "cancelled"}) == (
        "Study ab12 ended: cancelled."
    )


GOOD: dict[str, Any] = {
    "game": "topiary", "players": [2], "vary": ["/values/4"], "also": [], "bots": "random",
    "trials": 2, "top": 16, "budget": None, "confirm_matches": 50, "seed": 0,
}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"players": [5]}, "pick one or more player counts of 2, 3, 4"),
        ({"players": []}, "pick one or more player counts"),
        ({"vary": []}, "pick at least one thing to vary"),
        ({"vary": ["/nothing"]}, "pick at least one thing to vary"),
        ({"trials": 61}, "candidates: a whole number from 1 to 60, not 61"),
        ({"top": 17}, "matches per candidate: one of 16, 64, 400, 1,600"),
        ({"confirm_matches": 10}, "confirmation matches: one of 50, 500, 2,000"),
        ({"budget": 5}, "budget: one of 1,000, 10,000, 100,000"),
        ({"also": ["speed"]}, "the further objectives are"),
        ({"bots": "mcts"}, "the bots are"),
        ({"game": "topitop"}, "topitop declares nothing to tune"),
    ],
)
def test_a_start_out_of_bounds_is_refused_in_one_line_and_stores_nothing(tmp_path, change, words):
    tuner = TuneService(str(tmp_path / "s.sqlite"))
    with pytest.raises(Refused) as refused:
        tuner.start({**GOOD, **change})
    assert words in str(refused.value) and "\n" not in str(refused.value)
    assert tuner.studies(GOOD["game"]) == [] and tuner.progress == {"state": "idle"}
