"""A study in parallel: on a Dask LocalCluster of two worker processes (as `simulate --cluster
local` runs), over the one storage. The trials interleave, so the study is not the one-worker
study; it must still be a whole study: every candidate asked for played, none left running,
the best confirmed once on its seeds by the rule."""

from __future__ import annotations

import pytest
from optuna.trial import TrialState

from tablelog.tune.command import report_of
from tablelog.tune.rule import met
from tablelog.tune.storage import storage_url
from tablelog.tune.study import counted, load

from .helpers import space_file, study_id, trials, tuned


@pytest.mark.parametrize("how", [{"cluster": "local", "workers": 2}, {"workers": 2}])
def test_a_parallel_study_is_whole_and_confirmed_by_the_rule(tmp_path, how):
    store = str(tmp_path / "s.sqlite")
    code, said = tuned(store, space_file=space_file(tmp_path), trials=4, **how)
    assert code == 0
    name = study_id(said)
    study, _ = load(storage_url(store), name)
    assert counted(study)[0] >= 4  # workers may each finish the trial in hand
    assert TrialState.RUNNING not in {t.state for t in trials(store, name)}
    confirmation = report_of(store, name)["confirmation"]
    assert confirmation is not None and confirmation["seeds"] == [41, 14]
    assert (confirmation["state"] == "confirmed") == met(
        confirmation["first"], confirmation["pooled"]
    )
