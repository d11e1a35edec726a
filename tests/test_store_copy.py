"""Copying a store (`tablelog.store_copy`): a live SQLite store keeps its newest commits in its
write-ahead log until the last connection closes, so a file copy may miss them; the copy made
through SQLite's backup API holds every event whatever is still in the log."""

from __future__ import annotations

import pytest

from tablelog.domain.integrity.audit import audit_match
from tablelog.store import open_recorder
from tablelog.store_copy import copy_store
from tests.audit.helpers import played_with_everything


def test_a_store_copied_while_its_writer_is_open_holds_every_event(tmp_path):
    live = tmp_path / "live.sqlite"
    recorder = open_recorder(str(live))
    try:
        match_id = played_with_everything(recorder)
        assert (tmp_path / "live.sqlite-wal").stat().st_size > 0  # the events are in the log
        copy_store(live, tmp_path / "copy.sqlite")
        copied = open_recorder(str(tmp_path / "copy.sqlite"))
        assert [s.originator_id for s in copied.started()] == [match_id]
        assert copied.get(match_id).status == "ended"
        assert audit_match(copied, match_id)["clean"]
        copied.close()
    finally:
        recorder.close()


def test_a_copy_never_overwrites_a_file_nor_makes_a_store_from_nothing(tmp_path):
    existing = tmp_path / "existing.sqlite"
    open_recorder(str(existing)).close()
    with pytest.raises(FileExistsError):
        copy_store(existing, existing)
    with pytest.raises(FileNotFoundError):
        copy_store(tmp_path / "missing.sqlite", tmp_path / "new.sqlite")
    assert not (tmp_path / "new.sqlite").exists() and not (tmp_path / "missing.sqlite").exists()
