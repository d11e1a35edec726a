"""The write rule: open on loopback, a bearer token anywhere else; reads always open."""

from __future__ import annotations

import pytest

from tablelog.access import WritePolicy, host_without_port, is_loopback
from tablelog.api.routes import ENDPOINTS, PREFIX
from tests.conftest import stored_rows

from .conftest import TOKEN, new_match


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("LocalHost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.20", False),
        ("10.0.0.1", False),
        ("tablelog.example.org", False),
        ("127.0.0.1.nip.io", False),
        ("", False),
    ],
)
def test_which_addresses_are_loopback(host, loopback):
    assert is_loopback(host) is loopback


@pytest.mark.parametrize(
    ("header", "host"),
    [
        ("127.0.0.1:8050", "127.0.0.1"),
        ("[::1]:8050", "::1"),
        ("localhost", "localhost"),
        ("example.org:80", "example.org"),
    ],
)
def test_the_host_header_without_its_port(header, host):
    assert host_without_port(header) == host


def test_a_loopback_bind_opens_writes_and_any_other_needs_a_token():
    assert WritePolicy.for_bind("127.0.0.1").open
    assert WritePolicy.for_bind("localhost", token="  ").open  # a blank token is no token
    network = WritePolicy.for_bind("0.0.0.0")
    assert not network.open and network.generated
    assert network.token is not None and len(network.token) >= 32
    assert WritePolicy.for_bind("0.0.0.0").token != network.token
    given = WritePolicy.for_bind("192.168.1.20", token="club-night")
    assert (given.token, given.generated) == ("club-night", False)
    # Whoever gives a token on loopback wants it asked for.
    assert WritePolicy.for_bind("127.0.0.1", token="club-night").token == "club-night"


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Bearer",
        "Bearer ",
        f"Basic {TOKEN}",
        "Bearer wrong",
        f"Bearer {TOKEN}x",
        f"Bearer {TOKEN[:-1]}",
    ],
)
def test_a_write_without_the_token_is_refused_and_stores_nothing(guarded, store, authorization):
    headers = {"Authorization": authorization} if authorization is not None else {}
    before = stored_rows(store)
    answer = guarded.post(
        "/api/v1/matches", json={"game": "topitop", "players": ["A", "B"]}, headers=headers
    )
    assert answer.status_code == 401
    assert answer.get_json()["error"] == "unauthorized"
    assert answer.headers["WWW-Authenticate"].startswith("Bearer")
    assert stored_rows(store) == before


def test_every_write_endpoint_asks_for_the_token_first(guarded, recorder, store):
    match_id = recorder.start("topitop", ["Ann", "Ben"])
    before = stored_rows(store)
    writes = [e for e in ENDPOINTS if e.write]
    # start, sheet, move, undo, claim, dispute, resolve, end, abandon; the lab's experiment
    # and its cancel
    assert len(writes) == 11
    for endpoint in writes:
        path = PREFIX + endpoint.path.replace("{match}", str(match_id))
        answer = guarded.open(path, method=endpoint.method, json={})
        assert answer.status_code == 401, endpoint.path
    assert stored_rows(store) == before


def test_with_the_token_writes_go_through_and_reads_never_need_it(guarded):
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    answer = guarded.post(
        "/api/v1/matches", json={"game": "topitop", "players": ["A", "B"]}, headers=bearer
    )
    assert answer.status_code == 201
    match_id = answer.get_json()["id"]
    answer = guarded.post(
        f"/api/v1/matches/{match_id}/moves",
        headers=bearer,
        json={"seat": "A", "move": {"place": "small", "to": "a1"}},
    )
    assert answer.status_code == 200 and answer.get_json()["moves"] == 1
    for path in ("", "/score", "/legal-moves", "/events", "/audit"):
        assert guarded.get(f"/api/v1/matches/{match_id}{path}").status_code == 200
    assert guarded.get("/api/v1/matches").get_json()["count"] == 1


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("localhost", 201),
        ("127.0.0.1:8050", 201),
        ("[::1]:8050", 201),
        ("attacker.example", 403),
        ("attacker.example:8050", 403),
        ("192.168.1.20:8050", 403),
    ],
)
def test_open_writes_take_only_a_loopback_host(client, store, host, status):
    """A page on a hostile name that resolves to 127.0.0.1 (DNS rebinding) cannot write, nor
    read (issue 20: reads answered any Host, so such a page could read the whole store)."""
    before = stored_rows(store)
    answer = client.post(
        "/api/v1/matches", json={"game": "topitop", "players": ["A", "B"]}, headers={"Host": host}
    )
    assert answer.status_code == status
    if status == 403:
        assert answer.get_json()["error"] == "forbidden"
        assert stored_rows(store) == before
    read = client.get("/api/v1/matches", headers={"Host": host})
    assert read.status_code == (200 if status == 201 else 403)


def test_a_form_post_from_a_browser_is_refused(client, store):
    """Cross-site forms send text/plain or form data without a preflight: not JSON, not taken."""
    match = new_match(client)
    before = stored_rows(store)
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        answer = client.post(
            f"/api/v1/matches/{match['id']}/abandon",
            data='{"by": "x", "reason": "y"}',
            content_type=content_type,
        )
        assert answer.status_code == 415
    assert stored_rows(store) == before
