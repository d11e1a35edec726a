"""The same run is the same matches: a simulated match's id is a function of the run's
arguments and its number, so running a command again stores only what is missing, and a run
killed at any point (kill -9: no chance to clean up) is completed by running it again, with no
match stored twice, on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.domain.integrity.audit import audit_all
from tablelog.simulation import make_plan, match_id, played, simulate
from tablelog.simulation.run import Writer
from tablelog.store import open_recorder

from .helpers import exports, run, started_in


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**63), number=st.integers(0, 10**6))
def test_a_match_id_is_the_run_s_arguments_and_the_match_number(seed, number):
    plan = make_plan("topiary", 10, seed, players=3, bots="greedy")
    same = make_plan("topiary", 99, seed, bots="greedy,greedy,greedy", options={})
    assert match_id(plan, number) == match_id(same, number)  # -n and spelling aside
    others = [
        match_id(plan, number + 1),
        match_id(make_plan("topiary", 10, seed + 1, players=3, bots="greedy"), number),
        match_id(make_plan("topiary", 10, seed, players=3, bots="random"), number),
        match_id(make_plan("topiary", 10, seed, players=2, bots="greedy"), number),
        match_id(make_plan("topas", 10, seed, players=3, bots="greedy"), number),
        match_id(
            make_plan(
                "topiary", 10, seed, players=3, bots="greedy", options={"last_player_chooses": True}
            ),
            number,
        ),
    ]
    assert len({match_id(plan, number), *others}) == len(others) + 1


def test_the_same_run_stores_its_matches_once(any_recorder):
    first = simulate(any_recorder, make_plan("topitop", 6, seed=3), workers=1, progress=False)
    again = simulate(any_recorder, make_plan("topitop", 6, seed=3), workers=1, progress=False)
    more = simulate(any_recorder, make_plan("topitop", 9, seed=3), workers=2, progress=False)
    assert (first.matches, again.matches, again.already) == (6, 0, 6)
    assert (more.already, more.matches) == (6, 3)
    ids = [started.originator_id for started in any_recorder.started()]
    plan = make_plan("topitop", 9, seed=3)
    assert ids == [match_id(plan, number) for number in range(9)]  # once each, in order
    assert again.summary() == "all 6 topitop matches were already stored; nothing to store"
    assert more.summary().startswith("6 of 9 topitop matches were already stored; stored the ")
    assert "of the 3 stored now: " in more.summary()


def test_a_batch_that_another_run_stored_first_is_counted_not_stored_twice(any_recorder):
    # Two runs of the same arguments at once: the slower one's batch holds matches the faster
    # one stored after the slower one looked; it stores only the others.
    plan = make_plan("topas", 4, seed=2)
    simulate(any_recorder, make_plan("topas", 2, seed=2), workers=1, progress=False)
    report = simulate(any_recorder, plan, workers=1, progress=False)
    writer = Writer(any_recorder, [report])
    for number in range(4):
        writer.add(0, played(plan, number, any_recorder.mapper, match_id(plan, number)))
    writer.flush()
    assert report.already == 2 + 4 and report.matches == 2
    assert len(list(any_recorder.started())) == 4


def test_the_command_says_what_was_already_stored(store):
    args = ["simulate", "topas", "-n", "5", "--seed", "4", "--workers", "1"]
    assert run(store, *args).stdout.startswith("stored 5 topas matches")
    records = exports(store)
    again = run(store, *args)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("all 5 topas matches were already stored; nothing to store")
    more = run(store, *args[:2], "-n", "8", *args[4:])
    assert more.stdout.startswith("5 of 8 topas matches were already stored; stored the other 3")
    assert exports(store)[:5] == records  # the first five untouched


KILL_AFTER = sorted(random.Random(42).sample(range(1, 400), 3))  # matches stored, then kill -9


@pytest.mark.slow
@pytest.mark.parametrize("kill_after", KILL_AFTER)
def test_a_run_killed_at_any_point_is_completed_by_running_it_again(any_store, kill_after):
    args = ["simulate", "topitop", "-n", "400", "--seed", "5"]
    args += ["--workers", str(min(2, os.cpu_count() or 1))]
    env = {**os.environ, "TABLELOG_STORE": any_store}
    process = subprocess.Popen(
        [sys.executable, "-m", "tablelog", *args, "--quiet"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its workers too: the whole group is killed
    )
    try:
        while started_in(any_store) < kill_after and process.poll() is None:
            time.sleep(0.02)
        os.killpg(process.pid, signal.SIGKILL)  # no handler runs: as a power cut
        process.communicate(timeout=60)
    finally:
        process.kill()
    kept = started_in(any_store)
    assert kept >= kill_after
    result = run(any_store, *args)
    assert result.returncode == 0, result.stderr
    if kept < 400:
        assert result.stdout.startswith(
            f"{kept} of 400 topitop matches were already stored; stored the other {400 - kept} "
        )
    plan = make_plan("topitop", 400, seed=5)
    records = exports(any_store)
    assert sorted(r["id"] for r in records) == sorted(str(match_id(plan, n)) for n in range(400))
    assert all(record["events"][-1]["type"] == "end" for record in records)
    recorder = open_recorder(any_store)
    try:
        assert audit_all(recorder)["clean"]
    finally:
        recorder.close()
