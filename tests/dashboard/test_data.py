"""The app's data source (projection reads, cached by position) and the Match page's rows."""

from __future__ import annotations

import pandas as pd

from tablelog.dashboard import replay
from tablelog.dashboard.data import Source
from tablelog.domain.games import get_rules
from tablelog.store import open_recorder

from .conftest import EVE, hand_logged_match


def test_tables_are_read_by_filter_and_reread_only_when_events_arrive(store):
    recorder = open_recorder(store)
    source = Source(recorder)
    first = hand_logged_match(recorder)
    source.refresh()
    matches = source.table("matches", game="topitop")
    assert list(matches["match_id"]) == [str(first)]
    assert source.table("matches", game="topitop") is matches  # nothing new: the same frame
    assert source.table("matches", game="topiary").empty
    second = hand_logged_match(recorder)
    assert source.table("matches", game="topitop") is matches  # not projected yet
    source.refresh()
    assert set(source.table("matches", game="topitop")["match_id"]) == {str(first), str(second)}
    assert source.queries.candidates(str(second)[:6]) == [str(second)]
    assert list(source.table("matches", columns=["game"]).columns) == ["game"]


def test_event_log_marks_the_withdrawn_move_the_claim_and_the_open_dispute(store):
    recorder = open_recorder(store)
    match_id = hand_logged_match(recorder)
    log = replay.event_log(recorder.stored_events(match_id), get_rules("topitop"))
    assert [row["step"] for row in log] == list(range(11))
    kinds = [row["event"] for row in log]
    assert kinds == ["Started"] + ["MoveRecorded"] * 6 + [
        "MoveUndone",
        "MoveRecorded",
        "ResultClaimed",
        "DisputeRaised",
    ]
    assert log[6]["flag"] == "withdrawn"  # the sixth move was taken back at step 7
    assert log[7]["who"] == "Ben" and log[7]["what"].startswith("withdrew step 6")
    assert log[1]["who"] == EVE
    assert log[9]["what"] == f"{EVE} 0, Ben 3"
    assert log[10]["flag"] == "open"
    assert replay.caption(log[10]).startswith("Step 10 (DisputeRaised): <b>Eve</b>: ")


def test_claims_beside_the_rules_from_the_audit(store):
    from tablelog.domain.integrity.audit import audit_match

    recorder = open_recorder(store)
    match_id = hand_logged_match(recorder)
    rows = replay.claims_against_rules(audit_match(recorder, match_id))
    # The claim came after the last move, so the rules' totals are those of the final position.
    eve, ben = (
        entry["total"] for entry in get_rules("topitop").score(recorder.get(match_id).state)
    )
    assert rows == [
        {"step": 9, "by": "Ben", "seat": EVE, "claimed": 0, "recomputed": eve, "agrees": eve == 0},
        {
            "step": 9,
            "by": "Ben",
            "seat": "Ben",
            "claimed": 3,
            "recomputed": ben,
            "agrees": ben == 3,
        },
    ]


def _ended_then_disputed(recorder, moves):
    from tests.test_recorder import play

    match_id = play(recorder, moves)
    recorder.end(match_id)
    recorder.dispute(match_id, "Ben", "that was not a castle")
    return match_id


def test_the_sql_tallies_are_the_statistics_tallies(filled_store):
    """The dashboard's GROUP BY reads give, for every game's largest group, the same frames as
    `projections.stats` folding the rows with pandas (and so the same statistics)."""
    from tablelog.dashboard import data
    from tablelog.projections import stats
    from tablelog.projections.load import load_tables

    path, _ = filled_store
    recorder = open_recorder(path)
    source, tables = Source(recorder), load_tables(recorder)
    groups = data.counts(source, "matches", ["game", "players", "variant"])
    assert int(groups["n"].sum()) == len(tables["matches"])
    for game, players, variant in groups[["game", "players", "variant"]].itertuples(index=False):
        pick = {"game": game, "players": players, "variant": variant}
        rows = {
            name: stats.filtered(table, **pick)
            for name, table in tables.items()
            if name != "moves" and name != "ratings"
        }
        expected = {
            "seat": stats.seat_tallies(rows["scores"], rows["matches"]),
            "score": stats.score_tallies(rows["score_categories"], rows["scores"], rows["matches"]),
            "component": stats.component_tallies(rows["components"], rows["matches"]),
            "length": stats.length_tallies(rows["matches"]),
        }
        for name, frame in expected.items():
            got = getattr(data, f"{name}_tallies")(source, game, players, variant)
            key = list(got.columns)
            pd.testing.assert_frame_equal(
                got.sort_values(key, ignore_index=True),
                frame.sort_values(key, ignore_index=True),
                check_dtype=False,
                obj=f"{game} {name} tallies",
            )


def test_a_disputed_match_leaves_the_sql_tallies_until_resolved(store):
    from tablelog.dashboard import data
    from tests.test_recorder import WIN

    recorder = open_recorder(store)
    source = Source(recorder)
    _ended_then_disputed(recorder, WIN)
    from tests.test_recorder import play

    recorder.end(play(recorder, WIN))  # Ann (seat 1, Blue) wins both
    source.refresh()
    pick = ("topitop", 2, "large=4, small=4")
    seats = data.seat_tallies(source, *pick)
    assert list(zip(seats.seat, seats.matches, seats.wins)) == [(1, 1, 1), (2, 1, 0)]
    lengths = data.length_tallies(source, *pick)
    assert list(zip(lengths.moves, lengths.matches)) == [(len(WIN), 1)]
    counts = data.counts(source, "matches", ["status"])
    assert dict(zip(counts.status, counts.n)) == {"ended": 1, "disputed": 1}


def test_page_results_are_remembered_until_new_events_arrive(store):
    from tests.test_recorder import WIN, play

    recorder = open_recorder(store)
    source = Source(recorder)
    computed = []

    def work():
        computed.append(source.position())
        return len(computed)

    assert source.remember(("page",), work) == 1
    assert source.remember(("page",), work) == 1  # nothing new: not worked out again
    recorder.end(play(recorder, WIN))
    assert source.remember(("page",), work) == 1  # not projected yet
    source.refresh()
    assert source.remember(("page",), work) == 2
    assert computed[0] < computed[1]


def test_players_page_reads_results_and_latest_ratings_per_player(store):
    import sys

    from tablelog.dashboard import data
    from tablelog.dashboard.app import create_app
    from tests.test_recorder import WIN, play

    recorder = open_recorder(store)
    for _ in range(2):
        recorder.end(play(recorder, WIN))  # Ann wins twice; Ben loses twice
    source = create_app(recorder, refresh_every=None).server.extensions["tablelog"]
    results = sys.modules["tablelog.dashboard.pages.players"].results  # page modules run per app
    played = data.player_results(source, "topitop").set_index("player")
    assert played.loc["Ann", "matches"] == 2 and played.loc["Ann", "wins"] == 2
    assert played.loc["Ben", "wins"] == 0
    latest = data.latest_ratings(source, "topitop").set_index("player")
    assert list(latest.loc[["Ann", "Ben"], "after_match"]) == [2, 2]
    table = results(data.player_results(source, "topitop"), data.latest_ratings(source, "topitop"))
    assert list(table.player) == ["Ann", "Ben"]  # the winner is rated higher
    assert list(table.win_rate) == [1.0, 0.0]
    chosen = source.table("ratings", game="topitop", player=["Ben"])
    assert set(chosen.player) == {"Ben"} and len(chosen) == 2
    assert source.table("ratings", game="topitop", player=[]).empty
