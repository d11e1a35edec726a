"""A candidate the sampler draws again is not played again: on the same numbered matches it
would play the very same games (common random numbers), so it takes the earlier candidate's
result, spends no match, and is named once in the ranking."""

from __future__ import annotations

from optuna.trial import TrialState

from tablelog.tune.command import report_of

from .helpers import space_file, study_id, trials, tuned

TWO_VARIANTS = {"only": True, "options": {"last_player_chooses": [False, True]}}


def test_a_variant_drawn_again_takes_its_earlier_result_and_plays_nothing(tmp_path):
    store = str(tmp_path / "s.sqlite")
    code, said = tuned(store, space_file=space_file(tmp_path, TWO_VARIANTS), trials=6)
    assert code == 0
    played = [t for t in trials(store, study_id(said)) if t.state != TrialState.FAIL]
    firsts = {}
    for trial in played:
        key = trial.params["last_player_chooses"]
        if "repeat_of" not in trial.user_attrs:
            assert key not in firsts, "a variant played twice"
            firsts[key] = trial
            continue
        first = played[trial.user_attrs["repeat_of"]]
        assert first.params == trial.params and trial.user_attrs["matches"] == 0
        assert (trial.state, trial.values) == (first.state, first.values)
    repeats = len(played) - len(firsts)
    assert repeats >= 4  # six candidates of a space of two
    report = report_of(store, study_id(said))
    assert report["candidates"] == 6 and report["repeats"] == repeats
    spent = sum(t.user_attrs["matches"] for t in firsts.values())
    assert report["search_matches"] == spent
    assert any(f"({repeats} drawn again, not played again)" in line for line in said)
