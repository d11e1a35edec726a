"""`tablelog serve` on its production server (issue 42): the real command in a process of its
own, spoken to over loopback sockets. It answers; it closes the connection after refusing a body
that is too large; clients that stall or trickle neither starve the others nor keep their
connection past the deadlines (408); a port it cannot have is one line. No assertion here is
about time: every wait is bounded by a socket timeout generous enough for a loaded machine, and
a test fails only if the server never answers or never closes."""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from waitress import wasyncore

from tablelog.guard import MAX_BODY
from tablelog.serving import listen_socket, make_server
from tests.test_cli_hardening import refused, run

WAIT = 60  # seconds: the most any answer may take here (a bound, not a measurement)
TOKEN = "proxy-t0ken"


@dataclass
class Served:
    port: int
    said: str  # what the command printed at start
    process: subprocess.Popen

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def as_in_a_terminal(files: int | None) -> None:
    """In the server's process before it starts: Ctrl-C interrupts it (a test runner's worker
    may ignore SIGINT, and children inherit that), and at most `files` open files."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if files is not None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))


@contextmanager
def serving(store: str, *options: str, files: int | None = None) -> Iterator[Served]:
    """`tablelog serve` over `store` on a free loopback port, until the block ends."""
    port = free_port()
    env = {
        k: v for k, v in os.environ.items() if k not in ("TABLELOG_STORE", "TABLELOG_WRITE_TOKEN")
    }
    command = [sys.executable, "-m", "tablelog", "serve", "--store", store, "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--refresh", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: as_in_a_terminal(files),
    )
    out, err = process.stdout, process.stderr
    assert out is not None and err is not None
    try:
        said = out.readline()  # printed once it listens
        assert f":{port}/" in said, said + err.read()
        said += err.readline() if files is not None else ""  # printed before it listens
        said += out.readline()
        if "(writes need" in said and "--write-token" not in options:
            said += out.readline()  # the token it made up, printed once
        yield Served(port, said, process)
    finally:
        if process.poll() is None:
            process.terminate()
            process.communicate(timeout=WAIT)


@pytest.fixture(scope="module")
def relaxed(tmp_path_factory) -> Iterator[Served]:
    """The defaults, but deadlines an hour long: a stalled client here is never timed out."""
    store = str(tmp_path_factory.mktemp("serve") / "store.sqlite")
    hour = "3600"
    with serving(store, "--header-timeout", hour, "--idle-timeout", hour) as served:
        yield served


@pytest.fixture(scope="module")
def tight(tmp_path_factory) -> Iterator[Served]:
    """Behind a reverse proxy on this machine, with short deadlines and ten connections."""
    store = str(tmp_path_factory.mktemp("serve") / "store.sqlite")
    options = ["--header-timeout", "1", "--body-timeout", "1", "--idle-timeout", "2"]
    options += ["--connection-limit", "10", "--trusted-proxy", "127.0.0.1"]
    with serving(store, *options) as served:
        yield served


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=WAIT)


def until_closed(conn: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a timeout if it never does)."""
    answer = b""
    try:
        while got := conn.recv(65536):
            answer += got
    except ConnectionResetError:  # closed with bytes of ours unread: closed all the same
        pass
    return answer


def status_of(answer: bytes) -> str:
    return answer.split(b"\r\n", 1)[0].decode()


def body_of(answer: bytes) -> bytes:
    return answer.split(b"\r\n\r\n", 1)[1]


def get(served: Served, path: str, **headers: str) -> tuple[int, bytes]:
    request = urllib.request.Request(served.url(path), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as refusal:
        return refusal.code, refusal.read()


def post(served: Served, path: str, body: dict, **headers: str) -> tuple[int, bytes]:
    data = json.dumps(body).encode()
    request = urllib.request.Request(
        served.url(path), data, {"Content-Type": "application/json", **headers}
    )
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as refusal:
        return refusal.code, refusal.read()


# ---- it serves ---------------------------------------------------------------------------------


def test_the_dashboard_and_the_api_answer(relaxed):
    assert "http://127.0.0.1:" in relaxed.said and "writes open on loopback" in relaxed.said
    status, page = get(relaxed, "/")
    assert status == 200 and b"Tablelog" in page
    status, index = get(relaxed, "/api/v1/")
    assert status == 200 and json.loads(index)
    status, made = post(relaxed, "/api/v1/matches", {"game": "topitop", "players": ["Ann", "Ben"]})
    assert status == 201, made
    status, read = get(relaxed, f"/api/v1/matches/{json.loads(made)['id']}")
    assert status == 200 and json.loads(read)["seats"] == ["Ann", "Ben"]


def test_the_host_checks_are_kept(relaxed):
    status, body = get(relaxed, "/api/v1/", Host="rebound.example")
    assert status == 403 and json.loads(body)["error"] == "forbidden"


# ---- too large ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/v1/matches", "/_dash-update-component"])
def test_a_body_declared_too_large_is_413_and_the_connection_closed(relaxed, path):
    """The issue: the development server answered 413 and then kept the connection open until
    the client closed it. The body is never sent: the answer comes on the headers alone."""
    with connect(relaxed.port) as conn:
        conn.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {100 * MAX_BODY}\r\n\r\n".encode()
        )
        answer = until_closed(conn)
    assert " 413 " in status_of(answer)
    if path.startswith("/api/"):
        assert json.loads(body_of(answer)) == {
            "error": "too-large",
            "message": f"the request body is larger than {MAX_BODY} bytes",
        }


def test_a_chunked_body_too_large_is_413_and_the_connection_closed(relaxed):
    with connect(relaxed.port) as conn:
        conn.sendall(
            b"POST /api/v1/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        block = b"x" * 65536
        try:
            for _ in range(100 * MAX_BODY // len(block)):
                conn.sendall(b"%x\r\n%s\r\n" % (len(block), block))
        except OSError:  # the server answered and closed before taking it all
            pass
        answer = until_closed(conn)
    assert " 413 " in status_of(answer)
    assert json.loads(body_of(answer))["error"] == "too-large"


def test_a_client_sending_its_whole_body_regardless_reads_the_413(relaxed):
    """As a reverse proxy does: the body is sent in full without waiting for an answer. The
    server must not close under it with the body unread (a reset, which can destroy the
    answer: nginx then answered 502); it drops the rest and closes after the client."""
    body = b"x" * (4 * MAX_BODY)
    with connect(relaxed.port) as conn:
        conn.sendall(
            b"POST /api/v1/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
            b"\r\nContent-Length: %d\r\n\r\n" % len(body)
        )
        conn.sendall(body)  # all of it is taken: read and dropped
        answer = until_closed(conn)
    assert " 413 " in status_of(answer)
    assert json.loads(body_of(answer))["error"] == "too-large"


def test_a_body_just_past_the_limit_gets_the_same_answer(relaxed):
    """Sent whole, a body one byte past the limit reaches the guard; it answers as the server
    does on the headers alone."""
    status, body = post(relaxed, "/api/v1/matches", {"game": "topitop", "pad": "x" * MAX_BODY})
    assert status == 413
    assert json.loads(body)["message"] == f"the request body is larger than {MAX_BODY} bytes"


# ---- slow clients ------------------------------------------------------------------------------


def test_a_hundred_stalled_clients_do_not_starve_the_others(relaxed):
    """Slowloris: 100 connections each send part of a request's headers and stall (half of them
    add a header line now and then). A normal request still answers; and the stalled ones were
    held, not dropped: each, finishing its request, is answered too."""
    stalled = [connect(relaxed.port) for _ in range(100)]
    try:
        for conn in stalled:
            conn.sendall(b"GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for conn in stalled[::2]:
            conn.sendall(b"X-Still-Typing: 1\r\n")
        status, _ = get(relaxed, "/api/v1/")
        assert status == 200
        for conn in stalled:
            conn.sendall(b"Connection: close\r\n\r\n")
        assert {status_of(until_closed(conn)) for conn in stalled} == {"HTTP/1.1 200 OK"}
    finally:
        for conn in stalled:
            conn.close()


def trickle(conn: socket.socket, start: bytes, byte: bytes) -> bytes:
    """Send `start`, then `byte` again and again (never idle for long) until the server stops
    taking them; what it answered."""
    conn.sendall(start)
    stop = threading.Event()
    try:
        while not stop.wait(0.2):
            conn.sendall(byte)
            conn.setblocking(False)
            try:
                if conn.recv(1, socket.MSG_PEEK):
                    break  # the answer has begun
            except BlockingIOError:
                pass
            finally:
                conn.setblocking(True)
                conn.settimeout(WAIT)
    except OSError:  # closed under it
        pass
    return until_closed(conn)


LATE = [
    (b"GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", b"z", "headers"),
    (
        b"POST /api/v1/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{",
        b" ",
        "body",
    ),
]


@pytest.mark.parametrize(("start", "byte", "part"), LATE, ids=["headers", "body"])
def test_a_request_trickled_past_its_deadline_is_answered_408(tight, start, byte, part):
    """A byte every fifth of a second keeps the connection from ever being idle; the deadline
    for the whole of the headers, or of the body, still ends it."""
    with connect(tight.port) as conn:
        answer = trickle(conn, start, byte)
    assert " 408 " in status_of(answer)
    assert json.loads(body_of(answer)) == {
        "error": "timeout",
        "message": f"the request's {part} did not arrive within 1 s",
    }


def test_headers_too_large_are_answered_431_and_closed(relaxed):
    with connect(relaxed.port) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        try:
            for n in range(100):
                conn.sendall(b"X-Filler-%d: %s\r\n" % (n, b"f" * 4000))
        except OSError:  # refused and closed before taking them all
            pass
        answer = until_closed(conn)
    assert " 431 " in status_of(answer)
    assert body_of(answer) == b"the request's headers are larger than 65536 bytes\n"


def test_an_idle_connection_is_closed(tight):
    with connect(tight.port) as conn:
        conn.sendall(b"GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = until_closed(conn)  # keep-alive: the server closes it once it sits idle
    assert status_of(answer) == "HTTP/1.1 200 OK"


def test_with_every_connection_held_by_stalled_clients_a_request_still_answers(tight):
    """Ten connections (the limit) stall in their headers; a new client waits in the kernel's
    queue until the deadline frees their places, and is answered."""
    stalled = [connect(tight.port) for _ in range(10)]
    try:
        for conn in stalled:
            conn.sendall(b"GET / HTTP/1.1\r\n")
        status, _ = get(tight, "/api/v1/")
        assert status == 200
    finally:
        for conn in stalled:
            conn.close()


# ---- behind a reverse proxy --------------------------------------------------------------------


def test_behind_a_proxy_writes_need_the_token_printed_at_start(tight):
    token = tight.said.rsplit(": ", 1)[1].strip()
    assert "write token, shown once" in tight.said and len(token) > 20
    match = {"game": "topitop", "players": ["Ann", "Ben"]}
    assert post(tight, "/api/v1/matches", match)[0] == 401
    assert post(tight, "/api/v1/matches", match, Authorization=f"Bearer {token}")[0] == 201
    # Reads answer under the public name the proxy passes on in Host.
    assert get(tight, "/api/v1/", Host="tablelog.example.org")[0] == 200


def environ_echo(environ, start_response):
    seen = {k: environ.get(k) for k in ("wsgi.url_scheme", "REMOTE_ADDR", "HTTP_HOST")}
    seen["forwarded"] = sorted(k for k in environ if k.startswith("HTTP_X_FORWARDED"))
    start_response("200 OK", [("Content-Type", "application/json")])
    return [json.dumps(seen).encode()]


@contextmanager
def echo_server(trusted_proxy: str | None) -> Iterator[int]:
    """`make_server` over `environ_echo`, in a thread; stopped on its own loop afterwards."""
    server: Any = make_server(
        environ_echo, listen_socket("127.0.0.1", 0), trusted_proxy=trusted_proxy
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        server.task_dispatcher.shutdown()
        server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
        thread.join(WAIT)


FORWARDED = {
    "X-Forwarded-For": "203.0.113.9",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "rebound.example",
}


@pytest.mark.parametrize("trusted", ["127.0.0.1", None])
def test_forwarded_headers_are_believed_from_the_trusted_proxy_only(trusted):
    with echo_server(trusted) as port:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/", headers=FORWARDED)
        with urllib.request.urlopen(request, timeout=WAIT) as answer:
            seen = json.loads(answer.read())
    assert seen["HTTP_HOST"] == f"127.0.0.1:{port}"  # never X-Forwarded-Host: the guard checks Host
    if trusted:
        assert (seen["wsgi.url_scheme"], seen["REMOTE_ADDR"]) == ("https", "203.0.113.9")
    else:
        assert (seen["wsgi.url_scheme"], seen["REMOTE_ADDR"]) == ("http", "127.0.0.1")
        assert seen["forwarded"] == []  # a client's own X-Forwarded-* never reach the app


# ---- starting and stopping ----------------------------------------------------------------------


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_ctrl_c_and_sigterm_stop_it_quietly(tmp_path, stop):
    with serving(str(tmp_path / "store.sqlite")) as served:
        assert get(served, "/api/v1/")[0] == 200
        served.process.send_signal(stop)
        _, err = served.process.communicate(timeout=WAIT)
    assert served.process.returncode == 0 and err == ""


def test_with_few_files_allowed_it_says_how_many_connections_fit(tmp_path):
    """A connection is an open file: past the system's limit, accepting fails again and again
    instead of waiting. The server raises its limit as far as allowed, and says what fits."""
    with serving(str(tmp_path / "store.sqlite"), files=300) as served:
        fit = re.search(r"at most (\d+) connections at once, not 1000", served.said)
        assert fit and 0 < int(fit[1]) < 300, served.said
        assert "open 300 files (ulimit -n)" in served.said
        assert get(served, "/api/v1/")[0] == 200


# ---- the port ----------------------------------------------------------------------------------


@pytest.mark.parametrize("port", ["-1", "0", "70000", "http"])
def test_a_port_out_of_range_is_one_line(tmp_path, port):
    refused(run(str(tmp_path / "s.sqlite"), "serve", "--port", port), "--port")


def test_a_port_in_use_is_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        result = run(str(tmp_path / "s.sqlite"), "serve", "--port", port)
    refused(result, f"tablelog: cannot listen on 127.0.0.1:{port}: another program is serving")
    assert not (tmp_path / "s.sqlite").exists()  # refused before the store was opened
