"""The read side the command line, the HTTP API and the dashboard share (projections/queries.py),
and the words they share for an outcome and a wrong player count (domain/wording.py)."""

from __future__ import annotations

from uuid import UUID

import pytest
from flask import Flask

from tablelog.access import WritePolicy
from tablelog.dashboard.policy import set_write_policy, write_policy
from tablelog.domain.errors import Conflict, MatchNotFound
from tablelog.domain.games import IllegalMove, get_rules
from tablelog.domain.matches.match import start_match
from tablelog.domain.recording.recorder import Recorder
from tablelog.domain.wording import outcome_text, player_count_refusal, winners_text
from tablelog.projections.queries import Queries
from tablelog.store import open_recorder
from tests.conftest import stored_rows
from tests.test_recorder import OPENING, WIN, play


@pytest.fixture
def store(tmp_path):
    return str(tmp_path / "store.sqlite")


@pytest.fixture
def recorder(store):
    recorder = open_recorder(store)
    yield recorder
    recorder.close()


def started_as(recorder, match_id: str, played_at: str | None = None) -> UUID:
    """A Topitop match stored under an id of the test's choosing (to share a prefix)."""
    match = start_match(UUID(match_id), "topitop", ["Ann", "Ben"], played_at=played_at)
    recorder.save_new([match])
    return match.id


# ---- finding a match ---------------------------------------------------------------------------


def test_a_match_is_found_by_its_id_or_any_unique_prefix(recorder):
    match_id = play(recorder, OPENING)
    queries = Queries(recorder)
    assert queries.find(str(match_id)) == match_id
    assert queries.find(str(match_id).upper()) == match_id
    assert queries.find(match_id.hex[:6]) == match_id
    assert queries.find(match_id.hex[:12]) == match_id  # dashes left out past the first group
    assert queries.find(f" {str(match_id)[:13]} ") == match_id


def test_a_match_started_after_the_tables_were_built_is_found_by_prefix(recorder, store):
    queries = Queries(recorder)
    first = play(recorder, [])
    assert queries.find(first.hex[:8]) == first  # builds the tables
    second = play(recorder, OPENING)  # stored after: the tables do not hold it yet
    assert queries.find(second.hex[:8]) == second
    # As a command run next would: a new process, a new service, the same store.
    assert Queries(open_recorder(store)).find(second.hex[:5]) == second


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("ab", "too short"),
        ("a-b-", "too short"),
        ("zzzz", "ids are hexadecimal"),
        ("0123456789abcdef0123456789abcdef0", "ids are hexadecimal"),  # longer than any id
        ("0123456789abcdef0123456789abcdef", "no match 01234567-89ab-cdef-0123-456789abcdef"),
        ("ffff", "no match whose id starts with 'ffff'"),
    ],
)
def test_an_id_that_names_no_match_is_refused_saying_why(recorder, text, words):
    started_as(recorder, "aaaa0000-0000-4000-8000-000000000000")
    with pytest.raises(MatchNotFound, match=words):
        Queries(recorder).find(text)


def test_an_ambiguous_prefix_is_refused_naming_the_candidates(recorder, store):
    one = started_as(recorder, "abcd1111-0000-4000-8000-000000000000")
    two = started_as(recorder, "abcd2222-0000-4000-8000-000000000000")
    before = stored_rows(store)
    with pytest.raises(MatchNotFound) as refused:
        Queries(recorder).find("abcd")
    assert "2 matches have ids starting with 'abcd'" in str(refused.value)
    assert str(one) in str(refused.value) and str(two) in str(refused.value)
    assert Queries(recorder).find("abcd2") == two
    assert stored_rows(store) == before


def test_candidates_are_the_most_recently_played_first(recorder):
    older = started_as(recorder, "abcd1111-0000-4000-8000-000000000000", "2026-01-01T10:00Z")
    newer = started_as(recorder, "abcd2222-0000-4000-8000-000000000000", "2026-06-01T10:00Z")
    queries = Queries(recorder)
    assert queries.candidates("abcd") == [str(newer), str(older)]
    assert queries.candidates("ABCD", limit=1) == [str(newer)]


def test_a_store_without_tables_is_read_from_the_recorder():
    recorder = Recorder()  # the library's in-memory store: no projection tables
    match_id = play(recorder, WIN)
    recorder.end(match_id)
    queries = Queries(recorder)
    assert queries.find(match_id.hex[:6]) == match_id
    (row,) = queries.matches()
    assert row["id"] == str(match_id) and row["outcome"]["winners"] == ["Ann"]


# ---- many matches -------------------------------------------------------------------------------


def test_the_list_is_oldest_played_first_with_outcomes_by_name(recorder):
    later = play(recorder, WIN)
    recorder.end(later)
    earlier = started_as(recorder, "abcd1111-0000-4000-8000-000000000000", "2020-05-01T10:00Z")
    rows = Queries(recorder).matches()
    assert [row["id"] for row in rows] == [str(earlier), str(later)]
    assert rows[0]["outcome"] is None and rows[0]["status"] == "running"
    assert rows[1]["outcome"]["winners"] == ["Ann"] and rows[1]["seats"] == ["Ann", "Ben"]
    assert rows[1]["moves"] == len(WIN) and rows[1]["kind"] == "moves"
    assert Queries(recorder).matches("topas") == []
    # One match's summary, replayed, says what its list row says.
    summary = Queries(recorder).summary(str(later)[:8])
    assert {k: summary[k] for k in ("id", "status", "moves", "kind", "outcome")} == {
        k: rows[1][k] for k in ("id", "status", "moves", "kind", "outcome")
    }


def test_the_report_counts_ended_matches_and_a_game_without_any_has_empty_figures(recorder):
    queries = Queries(recorder)
    assert queries.game_report("topitop")["matches"] == 0
    match_id = play(recorder, WIN)
    recorder.end(match_id)
    play(recorder, OPENING)  # still running: not counted
    figures = queries.game_report("topitop")
    assert figures["matches"] == 1 and figures["by_status"] == {"ended": 1, "running": 1}
    assert queries.report()["topitop"] == figures


# ---- the current version -------------------------------------------------------------------------


def test_the_version_is_the_newest_event_and_a_stale_entry_stores_nothing(recorder, store):
    match_id = play(recorder, OPENING)
    assert recorder.version(match_id) == 1 + len(OPENING)  # the start, then one per move
    assert Queries(recorder).version(match_id.hex[:8]) == recorder.version(match_id)
    assert recorder.current(match_id, 1 + len(OPENING)).id == match_id
    before = stored_rows(store)
    with pytest.raises(Conflict, match="reload"):
        recorder.undo(match_id, "Ann", "typo", expected_version=len(OPENING))
    with pytest.raises(Conflict, match="reload"):
        recorder.current(match_id, 1)
    assert stored_rows(store) == before
    with pytest.raises(MatchNotFound):
        recorder.version("not an id")


# ---- shared words --------------------------------------------------------------------------------


def test_an_outcome_is_worded_one_way():
    assert winners_text(["Ann"]) == "Ann wins"
    assert winners_text(["Ann", "Ben"]) == "Ann and Ben win"
    assert winners_text([]) == "no winner"
    assert outcome_text({"winners": ["Ann", "Ben"], "reason": "tied"}) == "Ann and Ben win (tied)"
    assert outcome_text(None) == "the game is still running"


def test_a_wrong_player_count_is_worded_one_way():
    topitop, topiary = get_rules("topitop"), get_rules("topiary")
    assert player_count_refusal(topitop, 2) is None
    assert player_count_refusal(topitop, 3) == "Topitop is for 2 players, not 3"
    assert player_count_refusal(topiary, 5) == "Topiary is for 2-4 players, not 5"


def test_cell_names_on_the_dashboard_are_the_rules_own():
    from tablelog.dashboard.games.topitop import cell_index, cell_name

    assert [cell_name(i) for i in (0, 2, 3, 8)] == ["a1", "c1", "a2", "c3"]
    assert [cell_index(name) for name in ("a1", "c1", "a2", "c3")] == [0, 2, 3, 8]
    with pytest.raises(IllegalMove, match="not a cell"):
        cell_index("d1")


def test_the_write_policy_is_found_where_it_was_set():
    server = Flask(__name__)
    assert write_policy(server) is None
    policy = WritePolicy()
    set_write_policy(server, policy)
    assert write_policy(server) is policy
