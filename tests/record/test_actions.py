"""The Record page's writes without a browser: the token rule, and a stale page's entry."""

from __future__ import annotations

from datetime import datetime

import pytest

from tablelog.access import WritePolicy
from tablelog.dashboard.record import actions
from tablelog.domain.errors import Conflict, Refused
from tests.conftest import stored_rows

OPEN, GUARDED = WritePolicy.for_bind("127.0.0.1"), WritePolicy.for_bind("0.0.0.0", "s3cret")


@pytest.mark.parametrize(
    ("policy", "token", "host", "refusal"),
    [
        (OPEN, None, "127.0.0.1:8050", None),
        (OPEN, None, "evil.example:8050", "open to this machine only"),
        (GUARDED, None, "192.168.1.5:8050", "enter it above"),
        (GUARDED, "wrong", "192.168.1.5:8050", "the write token is wrong"),
        (GUARDED, " s3cret ", "192.168.1.5:8050", None),
        (None, "s3cret", "127.0.0.1", "recording is off"),
    ],
)
def test_who_may_write(recorder, policy, token, host, refusal):
    _, said = actions.admit(policy, recorder, token, host, "commit")
    assert said is None if refusal is None else said is not None and refusal in said


def test_an_entry_made_on_a_stale_page_is_a_conflict_and_stores_nothing(recorder, store):
    match_id, _ = actions.start(recorder, "topitop", "Ann, Ben", [["small", 4], ["large", 4]])
    shown = recorder.get(match_id).version
    actions.record(recorder, match_id, shown, [["piece", "supply:large"], ["to", "b2"]])
    before = stored_rows(store)
    with pytest.raises(Conflict, match="reloaded"):  # the second device still shows move 0
        actions.record(recorder, match_id, shown, [["piece", "supply:small"], ["to", "a1"]])
    with pytest.raises(Conflict):
        actions.undo(recorder, match_id, shown, "Ben", "wrong pile")
    assert stored_rows(store) == before


def test_a_start_needs_the_game_the_players_and_the_whole_setup(recorder, store):
    with pytest.raises(actions.Refusal, match="choose the game"):
        actions.start(recorder, None, "Ann, Ben", [])
    with pytest.raises(actions.Refusal, match="Topitop is for 2 players"):
        actions.start(recorder, "topitop", "Ann", [])
    with pytest.raises(actions.Refusal, match="not complete: How many large"):
        actions.start(recorder, "topitop", "Ann, Ben", [["small", 4]])
    assert stored_rows(store) == []


def test_a_game_logged_afterwards_keeps_when_it_was_played(recorder, store):
    typed = "2026-11-28T19:30"  # what the form's date-and-time field gives: the server's time
    match_id, _ = actions.start(
        recorder, "topitop", "Ann, Ben", [["small", 4], ["large", 4]], typed
    )
    assert (
        recorder.get(match_id).played_at == datetime.fromisoformat(typed).astimezone().isoformat()
    )
    before = stored_rows(store)
    with pytest.raises(Refused, match="lies in the future"):
        actions.start(
            recorder, "topitop", "Ann, Ben", [["small", 4], ["large", 4]], "2999-01-01T00:00"
        )
    assert stored_rows(store) == before


@pytest.mark.parametrize("action", ["commit", "undo", "end"])
def test_a_write_that_fails_after_it_is_stored_says_stored_never_refused(
    any_recorder, any_store, monkeypatch, action
):
    """A write answers success exactly when it stored: wording the message after the commit
    can fail (here, describing the move), and the page then says the entry is stored, so
    nobody enters it a second time."""
    from tablelog.dashboard.record.matches import Matches

    recorder = any_recorder
    match_id, _ = actions.start(recorder, "topitop", "Ann, Ben", [["small", 4], ["large", 4]])
    actions.record(recorder, match_id, None, [["piece", "supply:large"], ["to", "b2"]])
    matches, shown = Matches(recorder), recorder.get(match_id).version
    rules = recorder.get(match_id).rules
    broken = RuntimeError("no words for it")
    monkeypatch.setattr(type(rules), "describe", lambda *_: (_ for _ in ()).throw(broken))
    monkeypatch.setattr(actions, "said_outcome", lambda *_: (_ for _ in ()).throw(broken))
    form = actions.Form(
        match_id=match_id,
        version=shown,
        picks=[["piece", "supply:small"], ["to", "a1"]],
        undo_by="Ben",
        reason="a slip",
    )
    if action == "end":  # a draw by agreement: the rules have not decided the game
        action = "draw"
    written = actions.write(matches, action, form, OPEN, "127.0.0.1")
    assert written.message.startswith("stored, but the page could not show it")
    assert "no words for it" in written.message and not written.message.startswith("refused")
    assert recorder.get(match_id).version == shown + 1  # stored, once
    assert written.version == shown + 1
