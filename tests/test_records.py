"""Export then import: the same matches, the same states at every step; bad records refused
whole, naming the line and the move."""

from __future__ import annotations

import pytest

from tablelog.domain.errors import BadRecord
from tablelog.domain.matches.records import check_all, from_record
from tablelog.store import open_recorder
from tests.conftest import stored_rows
from tests.test_recorder import OPENING, WIN, play
from tests.unsealed import unsealed


def test_export_then_import_gives_the_same_matches_at_every_step(any_recorder, tmp_path):
    """From either store into an empty SQLite file."""
    recorder = any_recorder
    won = play(recorder, WIN)
    recorder.claim(won, "Ben", {"Ann": 0, "Ben": 2})
    recorder.dispute(won, "Ann", "I won")
    recorder.end(won)
    undone = play(recorder, OPENING)
    recorder.undo(undone, "Ann", "slip")
    recorder.abandon(undone, "Ben", "fire alarm")
    records = [recorder.export(m) for m in (won, undone)]

    target = open_recorder(str(tmp_path / "other.sqlite"))
    target.save_new(check_all(records))
    for match_id in (won, undone):
        original, copy = recorder.get(match_id), target.get(match_id)
        assert copy.status == original.status and copy.outcome == original.outcome
        assert target.export(match_id)["events"] == [
            {**e, "at": c["at"]}
            for e, c in zip(recorder.export(match_id)["events"], target.export(match_id)["events"])
        ]
        for step in range(original.version):
            assert target.get(match_id, step).state == recorder.get(match_id, step).state


def test_a_record_already_in_the_store_is_refused(recorder, store):
    record = recorder.export(play(recorder, OPENING))
    before = stored_rows(store)
    with pytest.raises(BadRecord, match="already in this store"):
        recorder.save_new(check_all([record]))
    assert stored_rows(store) == before


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            lambda r: r["events"][2].update(move={"from": "a1", "to": "c3"}),
            "event 3 (move 3 by Ann",
        ),
        (lambda r: r["events"][1].update(seat="Ann"), "event 2 (move 2 by Ann: "),
        (lambda r: r.update(game="chess"), "unknown game"),
        (lambda r: r.update(format="csv"), "format must be"),
        (lambda r: r["events"].append({"type": "teleport"}), "unknown entry type"),
        (lambda r: r.update(rules_version="0"), "rules version 0"),
        (lambda r: r["events"].append({"type": "end"}), "not over by the rules"),
    ],
)
def test_a_bad_record_names_what_broke(recorder, change, words):
    record = unsealed(recorder.export(play(recorder, OPENING)))
    change(record)
    with pytest.raises(BadRecord, match=words.replace("(", r"\(")):
        from_record(record)


def test_one_bad_record_refuses_the_whole_batch_with_its_line(recorder, tmp_path):
    good = recorder.export(play(recorder, OPENING))
    bad = unsealed(recorder.export(play(recorder, OPENING)))
    bad["events"][0]["move"] = {"place": "bucket", "to": "z9"}
    with pytest.raises(BadRecord, match=r"^line 2: event 1"):
        check_all([good, bad])
