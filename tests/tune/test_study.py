"""Studies end to end, small: the same seed and arguments give the same trials; a clearly
unfair candidate is cut at the first rung; a candidate the checks refuse plays no match; the
confirmation is played once on its seeds and its seeds are spent; list, show, export."""

from __future__ import annotations

import json

from optuna.trial import TrialState

from tablelog.tune.command import exported_variant, listed, report_of
from tablelog.tune.rule import met

from .helpers import attrs, space_file, study_id, trials, tuned


def played(store: str, name: str) -> list[tuple]:
    return [
        (t.number, t.state, t.params, t.values, t.user_attrs.get("tallies"))
        for t in trials(store, name)
    ]


def test_the_same_seed_and_arguments_give_the_same_trials(tmp_path):
    space = space_file(tmp_path)
    runs = []
    for name in ("one", "two"):
        code, said = tuned(str(tmp_path / f"{name}.sqlite"), space_file=space, trials=4)
        assert code == 0
        study = study_id(said)
        report = [line.replace(study, "ID") for line in said[2:]]
        runs.append((played(str(tmp_path / f"{name}.sqlite"), study), report))
    assert runs[0] == runs[1]
    assert len({json.dumps(t[2], sort_keys=True) for t in runs[0][0]}) > 1  # it did search


def test_a_clearly_unfair_candidate_is_cut_at_the_first_rung(tmp_path):
    store = str(tmp_path / "s.sqlite")
    # A greedy seat against a random one: the greedy bot wins nearly every match.
    _, said = tuned(store, space_file=space_file(tmp_path), bots="greedy,random", trials=1, top=320)
    first = trials(store, study_id(said))[0]
    assert first.state == TrialState.PRUNED
    assert first.user_attrs["rung"] == 20 and first.user_attrs["matches"] == 20
    assert "clearly unfair" in first.user_attrs["pruned"]
    assert any("no candidate reached the last rung" in line for line in said)


def test_an_unfair_candidate_that_played_every_rung_is_finished_and_not_confirmed(tmp_path):
    store = str(tmp_path / "s.sqlite")
    # Rungs of 1, 4 and 16 matches: a greedy seat against a random one is not yet clearly
    # unfair at 4 (4 wins of 4: p = 0.046), and is at 16, the last rung.
    _, said = tuned(store, space_file=space_file(tmp_path), bots="greedy,random", trials=1)
    first = trials(store, study_id(said))[0]
    assert first.state == TrialState.COMPLETE and first.user_attrs["matches"] == 16
    report = report_of(store, study_id(said))
    best, confirmation = report["best"], report["confirmation"]
    assert best is not None and best["trial"] == 0
    assert confirmation is not None and confirmation["state"] == "not confirmed"


def test_a_candidate_the_checks_refuse_plays_no_match(tmp_path):
    store = str(tmp_path / "s.sqlite")
    space = {"base": "geoshapes-v2", "only": True, "fields": {"/deck/Equilateral Triangle": [2, 3]}}
    _, said = tuned(store, "geoshapes", space_file=space_file(tmp_path, space), trials=1)
    every = trials(store, study_id(said))
    assert every and all("Wild example" in t.user_attrs["invalid"] for t in every)
    assert sum(t.user_attrs["matches"] for t in every) == 0
    assert report_of(store, study_id(said))["matches"] == 0


def test_the_best_candidate_is_confirmed_once_on_its_seeds(tmp_path):
    store = str(tmp_path / "s.sqlite")
    code, said = tuned(store, space_file=space_file(tmp_path))
    assert code == 0
    name = study_id(said)
    report = report_of(store, name)
    confirmation, best = report["confirmation"], report["best"]
    assert confirmation is not None and best is not None
    assert confirmation["seeds"] == [41, 14] and report["spent_seeds"] == [41, 14]
    assert confirmation["trial"] == best["trial"]
    assert confirmation["matches"] == 2 * 12  # two seed sets of 12 matches, one count
    assert (confirmation["state"] == "confirmed") == met(
        confirmation["first"], confirmation["pooled"]
    )
    assert any(
        line.startswith(f"confirmation of candidate {confirmation['trial']}") for line in said
    )
    assert report["matches"] == report["search_matches"] + 24
    assert any(name in line for line in listed(store))


def test_a_spent_seed_set_is_refused_for_another_confirmation(tmp_path):
    from tablelog.domain.errors import Refused

    store = str(tmp_path / "s.sqlite")
    _, said = tuned(store, space_file=space_file(tmp_path), trials=2)
    name = study_id(said)
    try:
        tuned(store, resume_id=name, confirm_seeds="41,99")
    except Refused as refused:
        assert "spent" in str(refused)
    else:
        raise AssertionError("a spent seed was taken again")
    assert attrs(store, name)["spent_seeds"] == [41, 14]


def test_the_export_is_a_manifest_simulate_takes(tmp_path):
    from tablelog.simulation import make_plan, play_match

    store = str(tmp_path / "s.sqlite")
    _, said = tuned(store, space_file=space_file(tmp_path), trials=2)
    variant = exported_variant(store, study_id(said))
    plan = make_plan(
        "topiary", 1, 0, 2, "random", variant["options"],
        {"name": "tuned", "content": variant["manifest"]},
    )  # fmt: skip
    assert play_match(plan, 0).outcome is not None
    manifest = variant["manifest"]
    assert isinstance(manifest, dict) and isinstance(manifest["values"], list)
    assert manifest["values"][:4] == [1, 2, 3, 4]  # only the fifth value varied


def test_a_study_lives_in_the_postgresql_store_in_its_own_schema(postgres_store, tmp_path):
    import psycopg

    code, said = tuned(postgres_store, space_file=space_file(tmp_path), trials=2)
    assert code == 0
    assert any(study_id(said) in line for line in listed(postgres_store))
    with psycopg.connect(postgres_store) as connection:
        tables = connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'tablelog_tune'"
        ).fetchall()
    assert ("studies",) in tables


def test_bad_input_is_one_line_and_starts_nothing(any_store, tmp_path):
    import subprocess
    import sys

    def tune(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "tablelog", "tune", *args, "--store", any_store],
            capture_output=True,
            text=True,
        )

    for args, words in [
        (("show", "nope"), "no study 'nope'"),
        (("topiary", "--also", "beauty"), "--also takes"),
        (("topiary", "--confirm-seeds", "0,1"), "must differ from the screening seed"),
        (("topiary", "--space", str(tmp_path / "none.json")), "--space: no file"),
    ]:
        refused = tune(*args)
        assert refused.returncode == 2 and words in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
    assert "no study in this store yet" in tune("list").stdout


def test_a_further_confirmation_on_fresh_seeds_keeps_the_first_on_the_record(tmp_path):
    store = str(tmp_path / "s.sqlite")
    _, said = tuned(store, space_file=space_file(tmp_path), trials=2)
    name = study_id(said)
    first = report_of(store, name)
    code, said = tuned(store, resume_id=name, trials=3, confirm_seeds="51,15")
    assert code == 0
    report = report_of(store, name)
    assert [e["seeds"] for e in report["earlier_confirmations"]] == [[41, 14]]
    assert report["confirmation"] is not None and report["confirmation"]["seeds"] == [51, 15]
    assert report["spent_seeds"] == [41, 14, 51, 15]
    assert report["confirmation_matches"] == 2 * 24  # both confirmations are spent matches
    assert report["matches"] == report["search_matches"] + 48
    assert report["search_matches"] >= first["search_matches"]
    assert first["confirmation"] is not None
    earlier = f"earlier confirmation of candidate {first['confirmation']['trial']} on seeds 41, 14"
    assert any(line.startswith(earlier) for line in said)


def test_a_search_that_spent_its_budget_goes_on_with_a_new_one(tmp_path):
    store = str(tmp_path / "s.sqlite")
    _, said = tuned(store, space_file=space_file(tmp_path), trials=20, budget=1)
    name = study_id(said)
    stopped = report_of(store, name)
    assert stopped["candidates"] < 20  # the budget ended the search
    tuned(
        store,
        resume_id=name,
        trials=20,
        budget=stopped["search_matches"] + 40,
        confirm_seeds="6,60",
    )
    goes_on = report_of(store, name)
    assert goes_on["candidates"] > stopped["candidates"]
    assert goes_on["settings"]["budget"] == stopped["search_matches"] + 40
