"""The recorder over a real SQLite file: validation before storing, undo, replay to any step,
the hash chain, and the closing events."""

from __future__ import annotations

import json

import pytest

from domain.errors import Conflict, MatchClosed, MatchNotFound, NotYourTurn, Refused
from domain.games import IllegalMove, InvalidSetup
from domain.match import event_hash
from tests.conftest import stored_rows

OPENING = [("Ann", {"place": "large", "to": "b2"}), ("Ben", {"place": "small", "to": "a1"}),
           ("Ann", {"from": "a1", "to": "b2"}), ("Ben", {"place": "bucket", "to": "c3"})]
# Ann (Blue) wins: two castles, then both buckets onto them.
WIN = OPENING + [("Ann", {"place": "large", "to": "a3"}), ("Ben", {"place": "small", "to": "c1"}),
                 ("Ann", {"place": "bucket", "to": "a1"}), ("Ben", {"from": "c1", "to": "c2"}),
                 ("Ann", {"from": "a1", "to": "b2"}), ("Ben", {"from": "c2", "to": "b3"}),
                 ("Ann", {"place": "small", "to": "b1"}), ("Ben", {"from": "b3", "to": "a3"}),
                 ("Ann", {"place": "bucket", "to": "a2"}), ("Ben", {"from": "c3", "to": "c2"}),
                 ("Ann", {"from": "a2", "to": "a3"})]


def play(recorder, moves, game="topitop"):
    match_id = recorder.start(game, ["Ann", "Ben"])
    for seat, move in moves:
        recorder.record(match_id, seat, move)
    return match_id


def test_a_recorded_match_replays_to_the_same_state(recorder, store):
    match_id = play(recorder, OPENING)
    from tablelog.store import open_recorder
    again = open_recorder(store).get(match_id)  # a new process would do the same
    assert again.state == recorder.get(match_id).state
    assert [m["move"] for m in again.moves] == [m for _, m in OPENING]
    assert again.state.cells[4] == "LS" and again.state.cells[8] == "R"


@pytest.mark.parametrize(("seat", "move", "error", "words"), [
    ("Ann", {"place": "bucket", "to": "a2"}, NotYourTurn, "not Ann's turn"),
    ("Ben", {"place": "small", "to": "b2"}, IllegalMove, "empty cells only"),
    ("Ben", {"from": "b2", "to": "d4"}, IllegalMove, "not a cell of the board"),
    ("Cat", {"place": "small", "to": "c1"}, Refused, "not a seat"),
    ("Ben", {"place": float("nan"), "to": "c1"}, Refused, "plain JSON"),
])
def test_a_refused_entry_stores_nothing(recorder, store, seat, move, error, words):
    match_id = play(recorder, OPENING[:1])
    before = stored_rows(store)
    with pytest.raises(error, match=words):
        recorder.record(match_id, seat, move)
    assert stored_rows(store) == before


def test_a_bad_start_stores_nothing(recorder, store):
    for game, seats, options, error in [
        ("chess", ["A", "B"], {}, InvalidSetup),
        ("topitop", ["A", "B", "C"], {}, Refused),
        ("topitop", ["A", "A"], {}, Refused),
        ("topitop", ["A", ""], {}, Refused),
        ("topitop", ["A", "B"], {"small": "lots"}, InvalidSetup),
    ]:
        with pytest.raises(error):
            recorder.start(game, seats, options)
    assert stored_rows(store) == []


def test_an_unknown_match_is_reported(recorder):
    with pytest.raises(MatchNotFound, match="no match"):
        recorder.find("0123456789abcdef0123456789abcdef")
    with pytest.raises(MatchNotFound, match="too short"):
        recorder.find("ab")
    match_id = play(recorder, [])
    assert recorder.find(match_id.hex[:6]) == match_id
    assert recorder.find(str(match_id).upper()) == match_id


def test_undo_withdraws_the_latest_move_and_keeps_it_in_the_log(recorder):
    match_id = play(recorder, OPENING)
    before_last = recorder.get(match_id, step=3).state
    match = recorder.undo(match_id, "Ben", "misplaced the bucket")
    assert match.state == before_last
    assert match.undos[-1]["move"]["move"] == OPENING[-1][1]
    assert [type(e).__name__ for e in recorder.stored_events(match_id)][-2:] == [
        "MoveRecorded", "MoveUndone"]
    # The withdrawn seat is to move again, and the same entry can be made again.
    recorder.record(match_id, "Ben", {"place": "bucket", "to": "c2"})
    with pytest.raises(Refused, match="who undoes"):
        recorder.undo(match_id, " ", "no name")


def test_undo_with_no_move_is_refused(recorder, store):
    match_id = play(recorder, [])
    before = stored_rows(store)
    with pytest.raises(Refused, match="no move to undo"):
        recorder.undo(match_id, "Ann", "oops")
    assert stored_rows(store) == before


def test_every_step_can_be_replayed(recorder):
    match_id = play(recorder, OPENING)
    recorder.undo(match_id, "Ann", "typo")
    steps = [recorder.get(match_id, step=n) for n in range(6)]
    assert [len(m.moves) for m in steps] == [0, 1, 2, 3, 4, 3]
    assert steps[5].state == steps[3].state
    with pytest.raises(Refused, match="only 5 steps"):
        recorder.get(match_id, step=6)


def test_each_event_carries_the_hash_of_the_one_before(recorder):
    match_id = play(recorder, OPENING)
    recorder.undo(match_id, "Ann", "typo")
    events = recorder.stored_events(match_id)
    assert events[0].prev_hash == ""
    for previous, current in zip(events, events[1:]):
        assert current.prev_hash == event_hash(previous)
    assert recorder.get(match_id).head_hash == event_hash(events[-1])


def test_the_rules_version_is_pinned_at_the_start(recorder):
    match_id = play(recorder, [])
    assert recorder.stored_events(match_id)[0].rules_version == "1"


def test_a_won_game_is_ended_with_the_rules_outcome(recorder, store):
    match_id = play(recorder, WIN)
    match = recorder.get(match_id)
    assert match.rules_outcome().winners == (0,)
    with pytest.raises(MatchClosed, match="game is over"):
        recorder.record(match_id, "Ben", {"place": "small", "to": "c1"})
    ended = recorder.end(match_id)
    assert ended.status == "ended" and ended.outcome["winners"] == [0]
    before = stored_rows(store)
    for attempt in (lambda: recorder.undo(match_id, "Ann", "late"),
                    lambda: recorder.end(match_id),
                    lambda: recorder.abandon(match_id, "Ann", "late")):
        with pytest.raises(MatchClosed, match="ended"):
            attempt()
    assert stored_rows(store) == before


def test_an_undecided_game_ends_only_by_agreement_or_is_abandoned(recorder):
    match_id = play(recorder, OPENING)
    with pytest.raises(Refused, match="not over by the rules"):
        recorder.end(match_id)
    assert recorder.end(match_id, agreed_draw=True).outcome == {
        "winners": [], "ranking": [[0, 1]], "reason": "draw by agreement"}
    other = play(recorder, OPENING)
    assert recorder.abandon(other, "Ann", "closing time").status == "abandoned"
    with pytest.raises(MatchClosed):
        recorder.record(other, "Ann", {"place": "bucket", "to": "a2"})


def test_claims_and_disputes_are_recorded_as_events(recorder):
    match_id = play(recorder, WIN)
    recorder.claim(match_id, "Ann", {"Ann": 2, "Ben": 0})
    recorder.dispute(match_id, "Ben", "the last bucket was lifted, not slid")
    assert recorder.get(match_id).open_disputes
    recorder.resolve(match_id, "Umpire", "the slide stands")
    match = recorder.get(match_id)
    assert not match.open_disputes and match.disputes[0]["ruling"] == "the slide stands"
    with pytest.raises(Refused, match="no open dispute"):
        recorder.resolve(match_id, "Umpire", "again")
    with pytest.raises(Refused, match="not a seat"):
        recorder.claim(match_id, "Ann", {"Zed": 3})
    with pytest.raises(Refused, match="must be a number"):
        recorder.claim(match_id, "Ann", {"Ann": "two"})


def test_a_stale_writer_gets_a_conflict_and_nothing_is_lost(recorder, store):
    from tablelog.store import open_recorder
    match_id = play(recorder, OPENING[:1])
    other = open_recorder(store)
    stale = other.get(match_id)
    recorder.record(match_id, "Ben", {"place": "small", "to": "a1"})
    stale.record("Ben", {"place": "small", "to": "c1"})  # valid against its stale view
    with pytest.raises(Conflict, match="reload"):
        other._save(stale)
    moves = [m["move"] for m in recorder.get(match_id).moves]
    assert moves == [OPENING[0][1], {"place": "small", "to": "a1"}]


def test_started_lists_matches_by_game_in_order(recorder):
    first, second = play(recorder, []), play(recorder, [])
    assert [s.originator_id for s in recorder.started("topitop")] == [first, second]
    assert list(recorder.started("topas")) == []
    assert json.dumps(recorder.export(first))  # a record is plain JSON
