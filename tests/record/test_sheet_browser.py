"""The Record page's score-sheet form in headless Chromium on a phone-sized screen: a sheet
logged by tapping and typing is stored as the command line stores it; a sheet the game's rules
refuse says why, naming the seat and field, and stores nothing."""

from __future__ import annotations

import pytest

from tests.conftest import stored_rows

from .conftest import shot

pytestmark = pytest.mark.browser


def fill_sheet(phone, game: str, players: str, totals: list, hand: list, winner: str) -> None:
    phone.locator("#record-sheet-game").get_by_text(game, exact=True).click()
    phone.fill("#record-sheet-players", players)
    seats = phone.locator(".record-sheet-seat")
    seats.nth(len(totals) - 1).wait_for()
    for seat, (total, points) in enumerate(zip(totals, hand)):
        fields = seats.nth(seat).locator("input")
        fields.nth(0).fill(str(total))  # the total; then visitors, type bonus, hand
        if points is not None:
            fields.nth(1).fill(str(total - points))
            fields.nth(2).fill("0")
            fields.nth(3).fill(str(points))
    phone.locator("#record-sheet-winners").get_by_text(winner, exact=True).click()


def test_a_topiary_sheet_logged_on_a_phone_is_stored_as_checked(serve, phone):
    served = serve()
    phone.goto(f"{served.url}/record")
    phone.get_by_text("Log a match from its score sheet").click()
    fill_sheet(phone, "Topiary", "Ann, Ben", [40, 41], [3, None], "Ann")
    phone.get_by_role("button", name="Log this score sheet").click()
    phone.wait_for_selector("#record-sheet-message:has-text('refused')")
    assert "winners: the sheet names Ann, but by the totals Ben wins" in phone.inner_text(
        "#record-sheet-message"
    )
    assert stored_rows(served.store) == []
    shot(phone, "sheet-refused")

    phone.locator("#record-sheet-winners").get_by_text("Ann", exact=True).click()  # untick
    phone.locator("#record-sheet-winners").get_by_text("Ben", exact=True).click()
    phone.fill("#record-sheet-location", "Club")
    phone.get_by_role("button", name="Log this score sheet").click()
    phone.wait_for_selector("#record-sheet-message:has-text('logged')")
    shot(phone, "sheet-logged")
    (started,) = list(served.recorder.started())
    match = served.recorder.get(started.originator_id)
    assert match.kind == "sheet" and match.outcome["winners"] == [1]
    assert match.sheet["scores"] == [
        {
            "total": 40,
            "categories": {"visitors": 37, "type bonus": 0, "hand": 3},
            "team": None,
            "role": None,
            "colour": None,
            "new": None,
        },
        {"total": 41, "categories": None, "team": None, "role": None, "colour": None, "new": None},
    ]
    assert match.sheet["first"] == "Ann" and match.sheet["location"] == "Club"
    width = phone.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 390  # phone-sized: nothing scrolls sideways

    # The link shows the logged sheet: its result and scores, no board to tap moves on.
    phone.get_by_role("link", name="(see it)").click()
    phone.wait_for_selector("#record-summary:has-text('score sheet')")
    assert "Ben wins" in phone.inner_text("#record-to-move")
    assert "Ann: 40 = visitors 37, type bonus 0, hand 3" in phone.inner_text("#record-score")
    shot(phone, "sheet-shown")
    assert not phone.errors
