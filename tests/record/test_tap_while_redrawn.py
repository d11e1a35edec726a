"""A write button's tap is answered even when the question is redrawn with new buttons while
its answer is on its way, in headless Chromium on a phone (390x844). The server holds the
write's answer longer than the redraw, as on a loaded machine (issue 44: with the write buttons
as the write callback's inputs, the redraw bringing the Record button called it afresh and Dash
threw the answer away: the undo was stored and the page never said so)."""

from __future__ import annotations

import pytest

from tablelog.dashboard.record import tapping

from .conftest import answered, enter_move, held, move_labels, tap

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROUNDS = 3
DRAW_S = 0.8  # a redraw of the buttons, held on the server
ANSWER_S = 1.6  # a tap's answer, held longer: it is still on its way when the redraw arrives
SLIP = {"place": "small", "to": "b2"}  # Ann's slip, taken back each round
BENS = {"place": "small", "to": "a1"}  # Ben's move, entered while the slip is taken back


def undo_ready(page) -> None:
    """The undo's who and why filled in, its button not tapped yet."""
    if not page.locator("#record-more").evaluate("details => details.open"):
        page.get_by_text("Undo the last move", exact=True).first.click()
    page.get_by_label("Ann").check()
    page.fill("#record-undo-reason", "wrong cell entered")


def test_an_undo_is_said_when_the_question_is_redrawn_with_record_while_it_is_on_its_way(
    serve, phone
):
    served = serve()
    slow = held(served, "record-picker.children", tapping.WRITTEN + ".data", DRAW_S, ANSWER_S)
    match_id = str(served.recorder.start("topitop", ["Ann", "Ben"], {}, {}))
    phone.goto(f"{served.url}/record?match={match_id}")
    for _round in range(ROUNDS):
        enter_move(phone, served.recorder, match_id, SLIP)
        undo_ready(phone)
        *first, last = move_labels(served.recorder, match_id, BENS)
        for number, label in enumerate(first, start=1):
            tap(phone, "#record-picker", label)
            answered(phone, "#record-picker", number)
        slow.set()
        tap(phone, "#record-picker", last)  # its redraw brings the Record button
        phone.get_by_role("button", name="Undo the last move").click()  # at once
        phone.wait_for_selector("#record-message:has-text('withdrew')")
        answered(phone, "#record-picker", 0)
        slow.clear()
        assert phone.inner_text("#record-to-move") == "To move: Ann"

    events = served.recorder.export(match_id)["events"]
    assert [e["type"] for e in events] == ["move", "undo"] * ROUNDS
    assert "another device" not in phone.inner_text("#record-message")
    assert not phone.errors
