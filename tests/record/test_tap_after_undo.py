"""The first tap after an undo is answered, in headless Chromium on a phone (390x844), ten times
over. The tap lands on the picker the undo is about to replace (the finger is faster than the
redraw); the server is held so that the redraw comes back while the tap's answer is still on its
way, as on a loaded machine (issue 44: the answer was thrown away and the tap never counted).
Whichever picker the tap landed on, the tap is answered: the answer it names joins the move."""

from __future__ import annotations

import pytest

from tablelog.dashboard.record import tapping

from .conftest import answered, enter_move, held, tap

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROUNDS = 10
SLIP = {"place": "small", "to": "b2"}  # Ann's slip, taken back each round
FIRST_PICK = "a large sand pile from the supply"  # offered to Ben after the slip and to Ann
DRAW_S = 0.8  # the picker's redraw, held on the server
ANSWER_S = 1.6  # a tap's answer, held longer: it is still on its way when the redraw arrives


def undo(page) -> None:
    if not page.locator("#record-more").evaluate("details => details.open"):
        page.get_by_text("Undo the last move", exact=True).first.click()
    page.get_by_label("Ann").check()
    page.fill("#record-undo-reason", "wrong pile entered")
    page.get_by_role("button", name="Undo the last move").click()
    page.wait_for_selector("#record-message:has-text('withdrew')")


def test_the_first_tap_after_an_undo_is_answered_even_when_it_lands_on_the_old_picker(serve, phone):
    served = serve()
    slow = held(served, "record-picker.children", tapping.ANSWER + ".data", DRAW_S, ANSWER_S)
    match_id = str(served.recorder.start("topitop", ["Ann", "Ben"], {}, {}))
    phone.goto(f"{served.url}/record?match={match_id}")
    for _round in range(ROUNDS):
        enter_move(phone, served.recorder, match_id, SLIP)
        slow.set()
        undo(phone)
        # At once, as a finger: the picker may still ask Ben (the slip's next question).
        tap(phone, "#record-picker", FIRST_PICK)
        answered(phone, "#record-picker", 1)
        slow.clear()
        phone.wait_for_selector("#record-picker .record-prompt:has-text('To which cell?')")
        assert "a large sand pile" in phone.inner_text("#record-picker .record-answers")
        assert phone.inner_text("#record-to-move") == "To move: Ann"
        phone.locator("#record-picker .record-chip").click()  # taken back: the next round
        answered(phone, "#record-picker", 0)

    events = served.recorder.export(match_id)["events"]
    assert [e["type"] for e in events] == ["move", "undo"] * ROUNDS
    assert "another device" not in phone.inner_text("#record-message")
    assert not phone.errors
