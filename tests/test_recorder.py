"""The recorder over a real SQLite file: validation before storing, undo, replay to any step,
the hash chain, and the closing events."""

from __future__ import annotations

import itertools
import json

import pytest

from tablelog.domain.errors import Conflict, MatchClosed, NotYourTurn, Refused
from tablelog.domain.games import IllegalMove, InvalidSetup
from tablelog.domain.matches.match import event_hash
from tests.conftest import stored_rows

OPENING = [
    ("Ann", {"place": "large", "to": "b2"}),
    ("Ben", {"place": "small", "to": "a1"}),
    ("Ann", {"from": "a1", "to": "b2"}),
    ("Ben", {"place": "bucket", "to": "c3"}),
]
# Ann (Blue) wins: two castles, then both buckets onto them.
WIN = OPENING + [
    ("Ann", {"place": "large", "to": "a3"}),
    ("Ben", {"place": "small", "to": "c1"}),
    ("Ann", {"place": "bucket", "to": "a1"}),
    ("Ben", {"from": "c1", "to": "c2"}),
    ("Ann", {"from": "a1", "to": "b2"}),
    ("Ben", {"from": "c2", "to": "b3"}),
    ("Ann", {"place": "small", "to": "b1"}),
    ("Ben", {"from": "b3", "to": "a3"}),
    ("Ann", {"place": "bucket", "to": "a2"}),
    ("Ben", {"from": "c3", "to": "c2"}),
    ("Ann", {"from": "a2", "to": "a3"}),
]


def play(recorder, moves, game="topitop"):
    match_id = recorder.start(game, ["Ann", "Ben"])
    for seat, move in moves:
        recorder.record(match_id, seat, move)
    return match_id


def test_a_recorded_match_replays_to_the_same_state(any_recorder, any_store):
    match_id = play(any_recorder, OPENING)
    from tablelog.store import open_recorder

    again = open_recorder(any_store).get(match_id)  # a new process would do the same
    assert again.state == any_recorder.get(match_id).state
    assert [m["move"] for m in again.moves] == [m for _, m in OPENING]
    assert again.state.cells[4] == "LS" and again.state.cells[8] == "R"


@pytest.mark.parametrize(
    ("seat", "move", "error", "words"),
    [
        ("Ann", {"place": "bucket", "to": "a2"}, NotYourTurn, "not Ann's turn"),
        ("Ben", {"place": "small", "to": "b2"}, IllegalMove, "empty cells only"),
        ("Ben", {"from": "b2", "to": "d4"}, IllegalMove, "not a cell of the board"),
        ("Cat", {"place": "small", "to": "c1"}, Refused, "not a seat"),
        ("Ben", {"place": float("nan"), "to": "c1"}, Refused, "plain JSON"),
    ],
)
def test_a_refused_entry_stores_nothing(any_recorder, any_store, seat, move, error, words):
    match_id = play(any_recorder, OPENING[:1])
    before = stored_rows(any_store)
    with pytest.raises(error, match=words):
        any_recorder.record(match_id, seat, move)
    assert stored_rows(any_store) == before


def test_a_bad_start_stores_nothing(any_recorder, any_store):
    for game, seats, options, error in [
        ("chess", ["A", "B"], {}, InvalidSetup),
        ("topitop", ["A", "B", "C"], {}, Refused),
        ("topitop", ["A", "A"], {}, Refused),
        ("topitop", ["A", ""], {}, Refused),
        ("topitop", ["A", "B"], {"small": "lots"}, InvalidSetup),
    ]:
        with pytest.raises(error):
            any_recorder.start(game, seats, options)
    assert stored_rows(any_store) == []


def test_undo_withdraws_the_latest_move_and_keeps_it_in_the_log(any_recorder):
    match_id = play(any_recorder, OPENING)
    before_last = any_recorder.get(match_id, step=3).state
    match = any_recorder.undo(match_id, "Ben", "misplaced the bucket")
    assert match.state == before_last
    assert match.undos[-1]["move"]["move"] == OPENING[-1][1]
    assert [type(e).__name__ for e in any_recorder.stored_events(match_id)][-2:] == [
        "MoveRecorded",
        "MoveUndone",
    ]
    # The withdrawn seat is to move again, and the same entry can be made again.
    any_recorder.record(match_id, "Ben", {"place": "bucket", "to": "c2"})
    with pytest.raises(Refused, match="who undoes"):
        any_recorder.undo(match_id, " ", "no name")


def test_undo_with_no_move_is_refused(any_recorder, any_store):
    match_id = play(any_recorder, [])
    before = stored_rows(any_store)
    with pytest.raises(Refused, match="no move to undo"):
        any_recorder.undo(match_id, "Ann", "oops")
    assert stored_rows(any_store) == before


def test_every_step_can_be_replayed(any_recorder):
    match_id = play(any_recorder, OPENING)
    any_recorder.undo(match_id, "Ann", "typo")
    steps = [any_recorder.get(match_id, step=n) for n in range(6)]
    assert [len(m.moves) for m in steps] == [0, 1, 2, 3, 4, 3]
    assert steps[5].state == steps[3].state
    with pytest.raises(Refused, match="only 5 steps"):
        any_recorder.get(match_id, step=6)


def test_each_event_carries_the_hash_of_the_one_before(any_recorder):
    match_id = play(any_recorder, OPENING)
    any_recorder.undo(match_id, "Ann", "typo")
    events = any_recorder.stored_events(match_id)
    assert events[0].prev_hash == ""
    for previous, current in itertools.pairwise(events):
        assert current.prev_hash == event_hash(previous)
    assert any_recorder.get(match_id).head_hash == event_hash(events[-1])


def test_the_rules_version_is_pinned_at_the_start(any_recorder):
    match_id = play(any_recorder, [])
    assert any_recorder.stored_events(match_id)[0].rules_version == "1"


def test_a_won_game_is_ended_with_the_rules_outcome(any_recorder, any_store):
    match_id = play(any_recorder, WIN)
    match = any_recorder.get(match_id)
    assert match.rules_outcome().winners == (0,)
    with pytest.raises(MatchClosed, match="game is over"):
        any_recorder.record(match_id, "Ben", {"place": "small", "to": "c1"})
    ended = any_recorder.end(match_id)
    assert ended.status == "ended" and ended.outcome["winners"] == [0]
    before = stored_rows(any_store)
    for attempt in (
        lambda: any_recorder.undo(match_id, "Ann", "late"),
        lambda: any_recorder.end(match_id),
        lambda: any_recorder.abandon(match_id, "Ann", "late"),
    ):
        with pytest.raises(MatchClosed, match="ended"):
            attempt()
    assert stored_rows(any_store) == before


def test_an_undecided_game_ends_only_by_agreement_or_is_abandoned(any_recorder):
    match_id = play(any_recorder, OPENING)
    with pytest.raises(Refused, match="not over by the rules"):
        any_recorder.end(match_id)
    assert any_recorder.end(match_id, agreed_draw=True).outcome == {
        "winners": [],
        "ranking": [[0, 1]],
        "reason": "draw by agreement",
    }
    other = play(any_recorder, OPENING)
    assert any_recorder.abandon(other, "Ann", "closing time").status == "abandoned"
    with pytest.raises(MatchClosed):
        any_recorder.record(other, "Ann", {"place": "bucket", "to": "a2"})


def test_claims_and_disputes_are_recorded_as_events(any_recorder):
    match_id = play(any_recorder, WIN)
    any_recorder.claim(match_id, "Ann", {"Ann": 2, "Ben": 0})
    any_recorder.dispute(match_id, "Ben", "the last bucket was lifted, not slid")
    assert any_recorder.get(match_id).open_disputes
    any_recorder.resolve(match_id, "Umpire", "the slide stands")
    match = any_recorder.get(match_id)
    assert not match.open_disputes and match.disputes[0]["ruling"] == "the slide stands"
    with pytest.raises(Refused, match="no open dispute"):
        any_recorder.resolve(match_id, "Umpire", "again")
    with pytest.raises(Refused, match="not a seat"):
        any_recorder.claim(match_id, "Ann", {"Zed": 3})
    with pytest.raises(Refused, match="must be a number"):
        any_recorder.claim(match_id, "Ann", {"Ann": "two"})


def test_a_stale_writer_gets_a_conflict_and_nothing_is_lost(any_recorder, any_store):
    from tablelog.store import open_recorder

    match_id = play(any_recorder, OPENING[:1])
    other = open_recorder(any_store)
    stale = other.get(match_id)
    any_recorder.record(match_id, "Ben", {"place": "small", "to": "a1"})
    stale.record("Ben", {"place": "small", "to": "c1"})  # valid against its stale view
    with pytest.raises(Conflict, match="reload"):
        other._save(stale)
    moves = [m["move"] for m in any_recorder.get(match_id).moves]
    assert moves == [OPENING[0][1], {"place": "small", "to": "a1"}]


def test_started_lists_matches_by_game_in_order(any_recorder):
    first, second = play(any_recorder, []), play(any_recorder, [])
    assert [s.originator_id for s in any_recorder.started("topitop")] == [first, second]
    assert list(any_recorder.started("topas")) == []
    assert json.dumps(any_recorder.export(first))  # a record is plain JSON
