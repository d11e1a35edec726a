"""The projection tables built from a real store: incremental equals all at once, a restart
resumes without counting anything twice, and undos, abandoned, disputed and drawn matches come out
as a player would read them."""

from __future__ import annotations

import json
import random

import pandas as pd
import pytest

from tablelog.projections.load import read_table
from tablelog.projections.runner import TablesProjection
from tablelog.projections.tables import TABLES
from tablelog.store import open_recorder
from tests.projections.matches import random_match
from tests.test_recorder import OPENING, WIN, play

NAMES = ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def store(any_store):
    """Every test here runs on an SQLite file and on a PostgreSQL database."""
    return any_store


def snapshot(projection: TablesProjection) -> dict[str, pd.DataFrame]:
    """Every table, rows in key order, for comparing two projections."""
    tables = {}
    for name, table in TABLES.items():
        frame = read_table(projection, name)
        tables[name] = frame.sort_values(list(table.key)).reset_index(drop=True)
    return tables


def assert_same_tables(one, other):
    for name in TABLES:
        pd.testing.assert_frame_equal(one[name], other[name], obj=name)


def some_matches(rng, games=("topitop", "topiary", "topas", "total-landscaping", "geoshapes")):
    from tablelog.domain.games import GAMES

    matches = []
    for game in games:
        rules = GAMES[game]
        for players in range(rules.min_players, rules.max_players + 1):
            finish = rng.choice(["end", "end", "abandon", "open"])
            matches.append(random_match(game, NAMES[:players], rng, finish=finish, cap=60))
    return matches


def test_a_projection_built_in_steps_equals_one_built_at_once(recorder, store):
    rng = random.Random(8)
    stepwise = TablesProjection(recorder, page=7, capacity=2)  # small pages, a tiny cache
    recorder.save_new(some_matches(rng)[:4])
    stepwise.catch_up()
    running = play(recorder, OPENING[:2])
    stepwise.catch_up()
    for seat, move in OPENING[2:]:
        recorder.record(running, seat, move)
        stepwise.catch_up()
    recorder.undo(running, "Ben", "wrong cell")
    recorder.save_new(some_matches(rng)[4:])
    stepwise.catch_up()
    recorder.record(running, "Ben", {"place": "bucket", "to": "a3"})
    recorder.dispute(running, "Ann", "who moved first?")
    recorder.save_new(some_matches(rng))
    stepwise.catch_up()
    assert stepwise.behind() == 0

    at_once = TablesProjection(open_recorder(store))
    at_once.reset()
    assert at_once.catch_up() == recorder.recorder.max_notification_id()
    assert_same_tables(snapshot(stepwise), snapshot(at_once))
    assert len(snapshot(at_once)["matches"]) == 1 + 2 * len(some_matches(random.Random(0)))


def test_a_projection_whose_tables_another_moved_on_quarantines_nothing(recorder, store):
    """A long-lived projection (a dashboard's polling) and another process (`tablelog
    project`) take turns on one store's tables: every sound match stays sound."""
    match_id = play(recorder, OPENING[:2])
    polling = TablesProjection(recorder)
    polling.catch_up()
    recorder.record(match_id, *OPENING[2])
    TablesProjection(open_recorder(store)).catch_up()  # the other process, one move further
    recorder.record(match_id, *OPENING[3])
    polling.catch_up()
    assert polling.damaged() == []
    assert [row["moves"] for row in polling.view.select("matches")] == [4]


def test_a_restart_resumes_without_counting_twice(store):
    first = open_recorder(store)
    done = play(first, WIN)
    first.end(done)
    TablesProjection(first).catch_up()
    first.close()

    again = open_recorder(store)  # a new process: nothing cached, position from the file
    projection = TablesProjection(again)
    assert projection.behind() == 0 and projection.catch_up() == 0
    second = play(again, WIN)
    again.end(second)
    assert projection.catch_up() == len(WIN) + 2
    tables = snapshot(projection)
    assert len(tables["matches"]) == 2 and len(tables["moves"]) == 2 * len(WIN)
    assert len(tables["scores"]) == 4
    ann = tables["ratings"][tables["ratings"].player == "Ann"]
    assert list(ann.after_match) == [1, 2]  # rated once per match, in order
    assert ann.mu.iloc[1] > ann.mu.iloc[0]  # she won both


def test_a_failed_write_leaves_tables_and_position_as_they_were(recorder, store, monkeypatch):
    recorder.save_new(some_matches(random.Random(3), games=("topitop", "topiary")))
    projection = TablesProjection(recorder, page=10)
    calls = []
    original = projection.view.write

    def failing(rows, tracking, **since):
        calls.append(tracking.notification_id)
        if len(calls) == 3:
            raise OSError("disk full")
        original(rows, tracking, **since)

    monkeypatch.setattr(projection.view, "write", failing)
    with pytest.raises(OSError):
        projection.catch_up()
    assert projection.position() == calls[1]
    monkeypatch.undo()
    projection.catch_up()
    fresh = TablesProjection(open_recorder(store))
    fresh.reset()
    fresh.catch_up()
    assert_same_tables(snapshot(projection), snapshot(fresh))


def test_an_undone_move_stays_listed_as_withdrawn_and_its_number_is_reused(recorder):
    match_id = play(recorder, WIN[:9])  # move 9 puts Ann's first bucket on a castle: +1
    recorder.undo(match_id, "Ann", "meant the other bucket")
    recorder.record(match_id, "Ann", {"place": "small", "to": "b1"})
    projection = TablesProjection(recorder)
    projection.catch_up()
    moves = snapshot(projection)["moves"]
    withdrawn, again = moves.iloc[8], moves.iloc[9]
    assert (withdrawn.number, withdrawn.undone, withdrawn.score_change) == (9, True, 1.0)
    assert (again.number, again.undone, again.score_change) == (9, False, 0.0)
    assert (again.step, again.kind) == (11, "place small")
    row = snapshot(projection)["matches"].iloc[0]
    assert (row.moves, row.undos, row.status) == (9, 1, "running")


def test_an_abandoned_match_is_listed_but_never_counted(recorder):
    from tablelog.projections import stats

    match_id = play(recorder, OPENING)
    recorder.abandon(match_id, "Ben", "rain")
    projection = TablesProjection(recorder)
    projection.catch_up()
    tables = snapshot(projection)
    row = tables["matches"].iloc[0]
    assert (row.status, row.moves, row.reason, row.winners) == ("abandoned", 4, "rain", "[]")
    assert pd.notna(row.ended)
    assert tables["scores"].empty and tables["ratings"].empty
    assert stats.report(tables)["topitop"]["matches"] == 0
    assert stats.report(tables)["topitop"]["seats"] == []


def test_a_disputed_result_is_left_out_until_resolved(recorder):
    from tablelog.projections import stats

    match_id = play(recorder, WIN)
    recorder.end(match_id)
    recorder.claim(match_id, "Ben", {"Ann": 2, "Ben": 1})
    recorder.dispute(match_id, "Ben", "I had a bucket on a castle")
    projection = TablesProjection(recorder)
    projection.catch_up()
    tables = snapshot(projection)
    row = tables["matches"].iloc[0]
    assert (row.status, row.claimed, row.claim_agrees) == ("disputed", True, False)
    assert stats.report(tables)["topitop"]["matches"] == 0
    recorder.resolve(match_id, "Umpire", "Ben's bucket was on a small pile only")
    projection.catch_up()
    tables = snapshot(projection)
    assert tables["matches"].iloc[0].status == "ended"
    seats = stats.report(tables)["topitop"]["seats"]
    assert [(s["seat"], s["wins"], s["matches"]) for s in seats] == [(1, 1, 1), (2, 0, 1)]


def test_a_draw_by_agreement_is_a_tie_of_everyone(recorder):
    match_id = play(recorder, OPENING)
    recorder.end(match_id, agreed_draw=True)
    projection = TablesProjection(recorder)
    projection.catch_up()
    tables = snapshot(projection)
    row = tables["matches"].iloc[0]
    assert (row.agreed_draw, json.loads(row.winners), json.loads(row.ranking)) == (
        True,
        [],
        [["Ann", "Ben"]],
    )
    assert list(tables["scores"].won) == [False, False] and list(tables["scores"]["rank"]) == [1, 1]
    ratings = tables["ratings"]
    assert ratings.mu.iloc[0] == pytest.approx(ratings.mu.iloc[1])
    assert ratings.sigma.iloc[0] < 25 / 3  # a result was learnt all the same


def test_the_final_scores_are_the_rules_scores(recorder):
    from tablelog.domain.games import GAMES

    rng = random.Random(5)
    matches = [
        random_match(game, NAMES[: GAMES[game].min_players], rng)
        for game in ("topiary", "topas", "total-landscaping", "geoshapes")
    ]
    recorder.save_new(matches)
    projection = TablesProjection(recorder)
    projection.catch_up()
    tables = snapshot(projection)
    for match in matches:
        expected = match.rules.score(match.state)
        scores = tables["scores"][tables["scores"].match_id == str(match.id)]
        assert list(scores.total) == [float(e["total"]) for e in expected]
        categories = tables["score_categories"][
            tables["score_categories"].match_id == str(match.id)
        ]
        for seat, entry in enumerate(expected, start=1):
            mine = categories[categories.seat == seat]
            assert dict(zip(mine.category, mine.points)) == {
                k: float(v) for k, v in entry["categories"].items()
            }
