"""The role matrix through the dashboard, in Chromium, on SQLite and PostgreSQL: a person signs
in on the sign-in page and taps the Record page as a player does. A viewer cannot record; a
recorder records but cannot resolve (the page offers no ruling, and her token's ruling is
refused); a disabled person's session stops working at its next request. A few tests only:
each drives a browser."""

from __future__ import annotations

import pytest

from tablelog.access import WritePolicy
from tablelog.cli.serve import build_app
from tablelog.domain.recording.users import users_of
from tests.conftest import serving
from tests.record.conftest import answered, start_match, tap
from tests.record.entering import picks_for, setup_picks_for
from tests.record.test_browser import example_moves

PASSWORD = "a long club password"


@pytest.fixture
def club(any_store):
    """The served app (dashboard, API, sign-in) bound beyond loopback, with an admin, a
    recorder and a viewer who have passwords: (url, people, the recorder)."""
    app = build_app(any_store, WritePolicy.for_bind("0.0.0.0", "service-token"))
    recorder = app.server.extensions["tablelog"].recorder
    people = users_of(recorder)
    for name, role in (("Ada", "admin"), ("Rita", "recorder"), ("Vic", "viewer")):
        people.add(name, role)
        people.set_password(name, PASSWORD)
    with serving(app) as url:
        yield url, people, recorder


def sign_in(page, url: str, name: str) -> None:
    page.goto(f"{url}/signin")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_selector(f"text=Signed in as {name}")


def start_topitop(page, url: str, started: bool = True) -> None:
    record, _ = example_moves("topitop")
    target = {"options": record.get("options") or {}, "setup": record.get("setup") or {}}
    picks = setup_picks_for("topitop", 2, target)
    start_match(page, url, "topitop", "Topitop", "Ann, Ben", picks, started=started)


def stored_matches(recorder) -> list:
    return list(recorder.match_ids())


def test_a_viewer_cannot_record(club, page):
    url, _, recorder = club
    sign_in(page, url, "Vic")
    start_topitop(page, url, started=False)
    page.wait_for_selector("#record-message:has-text('nothing was recorded')")
    said = page.locator("#record-message").inner_text()
    assert "Vic is a viewer" in said
    assert stored_matches(recorder) == []


def test_a_recorder_records_but_cannot_resolve(club, page):
    url, people, recorder = club
    sign_in(page, url, "Rita")
    start_topitop(page, url)
    (match_id,) = stored_matches(recorder)
    assert recorder.stored_events(match_id)[0].entered_by["name"] == "Rita"
    recorder.dispute(match_id, "Ben", "who starts")  # raised by the umpire, elsewhere
    page.reload()
    page.wait_for_selector("#record-summary:has-text('move 0')")
    for words in ("Resolve", "Ruling", "ruling"):
        assert page.get_by_role("button", name=words).count() == 0
    token = people.issue_token("Rita", label="phone")[1]
    answer = page.request.post(
        f"{url}/api/v1/matches/{match_id}/disputes/resolve",
        data={"by": "Rita", "ruling": "Ann starts"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status == 403
    assert "Rita is a recorder: to resolve a dispute takes umpire or admin" in answer.text()
    assert [type(e).__name__ for e in recorder.stored_events(match_id)][-1] == "DisputeRaised"


def test_a_disabled_persons_session_stops_at_its_next_request(club, page):
    url, people, recorder = club
    sign_in(page, url, "Rita")
    start_topitop(page, url)
    (match_id,) = stored_matches(recorder)
    match = recorder.get(match_id)
    _, moves = example_moves("topitop")
    seat = match.rules.to_move(match.state)[0]
    picks = picks_for("topitop", match.rules, match.state, seat, moves[0]["move"], match.seats)
    people.set_disabled("Rita")
    answered(page, "#record-picker", 0)
    from tablelog.dashboard.record import Question, menu

    for number, (_key, value) in enumerate(picks):
        step = menu("topitop", match.rules, match.state, seat, picks[:number], match.seats)
        assert isinstance(step, Question)
        tap(page, "#record-picker", next(o.label for o in step.options if o.value == value))
        answered(page, "#record-picker", number + 1)
    page.get_by_role("button", name="Record this move").click()
    page.wait_for_selector("#record-message:has-text('nothing was recorded')")
    assert "sign in at /signin" in page.locator("#record-message").inner_text()
    assert len(recorder.stored_events(match_id)) == 1  # the start only
    page.goto(f"{url}/record")
    assert page.get_by_text("Signed in as Rita").count() == 0
