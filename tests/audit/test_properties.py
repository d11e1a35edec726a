"""Property: whatever single byte a forger changes, the audit answers with a report (never a
crash), and a change to any event but the last is found at or next to that event, unless the
bytes still decode to the very same event (a "T" in a timestamp turned into a space is the same
time to the decoder, so there is nothing to find)."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelog.domain.integrity.audit import audit_match
from tablelog.domain.matches.match import event_hash
from tablelog.store import open_recorder
from tablelog.store_copy import copy_store
from tests.audit.helpers import played_with_everything, rows, update_state

EVENTS = 22  # played_with_everything stores 22 events


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A store of one match (its id), copied for each example."""
    path = tmp_path_factory.mktemp("pristine") / "store.sqlite"
    with contextlib.closing(open_recorder(str(path))) as recorder:
        return path, played_with_everything(recorder)


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    position=st.integers(1, EVENTS),
    where=st.floats(0, 1, exclude_max=True),
    byte=st.integers(0, 255),
)
def test_any_changed_byte_is_reported_never_a_crash(
    tmp_path_factory, pristine, position, where, byte
):
    path, match_id = pristine
    store = str(tmp_path_factory.mktemp("forged") / "store.sqlite")
    copy_store(path, store)  # the store as a reader sees it, whatever is still in its WAL
    state = bytearray(rows(store, match_id)[position])
    offset = int(where * len(state))
    if state[offset] == byte:
        return
    state[offset] = byte
    update_state(store, match_id, position, bytes(state))

    with (
        contextlib.closing(open_recorder(store)) as forged,
        contextlib.closing(open_recorder(str(path))) as original,
    ):
        report = audit_match(forged, match_id)
        if position < EVENTS and not same_event(original, forged, match_id, position):
            assert not report["clean"]
            assert {position, position + 1} & {f["event"] for f in report["findings"]}


def same_event(before, after, match_id, position) -> bool:
    def decoded(recorder):
        row = recorder.recorder.select_events(match_id, gt=position - 1, limit=1)[0]
        return event_hash(recorder.mapper.to_domain_event(row))

    try:
        return decoded(after) == decoded(before)
    except Exception:  # noqa: BLE001 - no longer decodes: certainly not the same event
        return False
