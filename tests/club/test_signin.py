"""Sign-in on the dashboard, on SQLite and PostgreSQL: a new session at sign-in, CSRF on the
forms, sign-in attempts limited per account without locking out others, a disabled person's
session ending at its next request, and the Record page's writes under the signed-in role."""

from __future__ import annotations

import re

import pytest

from tablelog.access import WritePolicy
from tablelog.cli.serve import build_app
from tablelog.dashboard.record import actions
from tablelog.domain.recording.users import users_of
from tablelog.signin import signed_in_user

PASSWORD = "a long club password"


@pytest.fixture
def served(any_store):
    app = build_app(any_store, WritePolicy.for_bind("0.0.0.0", "service-token"))
    probe(app)
    people = users_of(app.server.extensions["tablelog"].recorder)
    for name, role in (("Ada", "admin"), ("Rita", "recorder"), ("Vic", "viewer")):
        people.add(name, role)
        people.set_password(name, PASSWORD)
    return app, people


def form_token(client) -> str:
    page = client.get("/signin").get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None, page
    return found[1]


def sign_in(client, name: str, password: str = PASSWORD):
    token = form_token(client)
    return client.post("/signin", data={"name": name, "password": password, "csrf_token": token})


def probe(app):
    """A route of the test's own, answering from inside a request of the signed-in client:
    who is signed in, what the Record page says of it, and whether it may start a match."""
    from tablelog.dashboard.pages.record import who_is_signed_in  # a page: after the app

    recorder = app.server.extensions["tablelog"].recorder
    policy = WritePolicy.for_bind("0.0.0.0", "service-token")

    def answer():
        person = signed_in_user()
        who, said = actions.admit(policy, recorder, None, "192.168.1.5", "start")
        return {
            "name": person and person.name,
            "page": str(who_is_signed_in().children),
            "entered_by": who,
            "refused": said,
        }

    app.server.add_url_rule("/test-probe", "test_probe", answer)


def test_signing_in_starts_a_new_session_and_the_record_page_says_who(served):
    app, _ = served
    client = app.server.test_client()
    form_token(client)
    before = client.get_cookie("session").value
    answer = sign_in(client, "Rita")
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/record")
    after = client.get_cookie("session")
    assert after.value != before
    assert after.http_only and after.same_site == "Strict"
    said = client.get("/test-probe").get_json()
    assert said["name"] == "Rita" and "Signed in as Rita (recorder)" in said["page"]


def test_a_wrong_password_and_a_form_without_its_csrf_token_are_refused(served):
    app, _ = served
    client = app.server.test_client()
    assert sign_in(client, "Rita", "not the password").status_code == 401
    cross_site = client.post("/signin", data={"name": "Rita", "password": PASSWORD})
    assert cross_site.status_code == 400  # CSRF: the form carries no token
    assert client.get_cookie("session") is None or "_user_id" not in str(
        client.get_cookie("session").value
    )
    assert app.server.test_client().post("/signout").status_code == 400


def test_sign_in_attempts_are_limited_per_account_not_against_everyone(served):
    app, _ = served
    client = app.server.test_client()
    answers = [sign_in(client, "Rita", "guess").status_code for _ in range(6)]
    assert answers[:5] == [401] * 5 and answers[5] == 429
    assert sign_in(client, "Vic").status_code == 302  # another account signs in as ever


def test_a_disabled_persons_session_ends_at_its_next_request(served):
    app, people = served
    client = app.server.test_client()
    sign_in(client, "Rita")
    assert client.get("/test-probe").get_json()["name"] == "Rita"
    people.set_disabled("Rita")
    said = client.get("/test-probe").get_json()
    assert said["name"] is None and "sign in" in said["page"]


def test_the_record_pages_writes_follow_the_signed_in_role(served):
    app, _ = served
    for name, refused in (("Vic", "is a viewer"), ("Rita", None)):
        client = app.server.test_client()
        sign_in(client, name)
        said = client.get("/test-probe").get_json()
        if refused:
            assert said["entered_by"] is None and refused in said["refused"]
        else:
            assert said["refused"] is None
            assert said["entered_by"]["name"] == name and said["entered_by"]["via"] == "dashboard"
