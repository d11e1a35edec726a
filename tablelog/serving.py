"""`tablelog serve` on waitress, a maintained production WSGI server in pure Python.

Why waitress (docs/deploy.md says it for a user): one process, so the embedded SQLite store and
the background projection thread stay one writer, and no process manager is needed; and its
network side is one asynchronous loop that reads each request whole (headers and body) before a
worker thread sees it, so a slow or stalled client holds a connection, never a worker. What
waitress has not got, this module adds:

- a deadline for the headers and one for the body (waitress closes a connection only after
  `idle_timeout` seconds without a byte, so a client trickling a byte now and then would keep
  its slot for ever): past it the client is answered 408 and the connection closed;
- refusals in the server's own words, JSON under /api/ as every other API answer, and a
  lingering close after them, so that a client still sending its body reads the answer;
- the listening socket bound before the store is opened, so a port in use is refused at once;
- a SIGTERM stops it as Ctrl-C does.

The body limit stays the guard's (`tablelog.guard.MAX_BODY`): waitress refuses a body a little
past it (the slack lets a chunked body's framing through, and the guard refuses exactly).
"""

from __future__ import annotations

import json
import logging
import signal
import socket
import sys
import time
from types import FrameType
from typing import TYPE_CHECKING, Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher
from waitress.utilities import BadRequest, Error

from .guard import API_PREFIX, MAX_BODY
from .serve_limits import Limits

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIApplication

MAX_HEADER = 64 * 1024  # bytes of request line and headers; a browser sends a few hundred
BODY_SLACK = 64 * 1024  # past MAX_BODY, for a chunked body's framing (the guard is exact)
SPARE_FILES = 256  # open files besides the connections
LINGER = 5.0  # seconds a refused client's remaining bytes are read and dropped before closing


class RequestTimeout(BadRequest):
    code = 408
    reason = "Request Timeout"


def listen_socket(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port), not yet listening: connections are refused, not queued,
    until the server starts. Raises OSError (a port in use, an address not of this machine)."""
    family, kind, _, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart after a stop
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


def make_server(
    app: WSGIApplication,
    sock: socket.socket,
    limits: Limits = Limits(),  # noqa: B008 - frozen, shared safely
    trusted_proxy: str | None = None,
) -> TcpWSGIServer:
    """The server over `app` on `sock` (from `listen_socket`), listening; then
    `serve_until_stopped(server)`. With `trusted_proxy` (the proxy's address, as this server
    sees it), X-Forwarded-For and X-Forwarded-Proto from that address are believed; the Host
    header is never taken from X-Forwarded-Host, so the guard checks the Host that came."""
    proxy: dict[str, str | int | set[str]] = {}
    if trusted_proxy:
        proxy = {
            "trusted_proxy": trusted_proxy,
            "trusted_proxy_count": 1,
            "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-proto"},
        }
    adjustments = Adjustments(
        sockets=[sock],
        threads=limits.threads,
        connection_limit=room_for(limits.connection_limit),
        channel_timeout=limits.idle_timeout,
        cleanup_interval=1,  # how often the deadlines are looked at
        max_request_header_size=MAX_HEADER,
        max_request_body_size=MAX_BODY + BODY_SLACK,
        asyncore_use_poll=True,  # select() stops at file descriptor 1024
        ident="tablelog",
        **proxy,
    )
    workers = ThreadedTaskDispatcher()
    workers.set_thread_count(limits.threads)
    return _Server(
        app,
        limits,
        map={},
        _sock=sock,
        dispatcher=workers,
        adj=adjustments,
        sockinfo=(sock.family, sock.type, sock.proto, sock.getsockname()),
        bind_socket=False,
    )


def room_for(connections: int) -> int:
    """Raise this process's limit of open files, as far as the system allows, to fit
    `connections` (one file each; the store, the libraries and the logs keep SPARE_FILES more
    open); the connections that fit, said on stderr when fewer than asked. Past that limit
    accepting a connection would fail, again and again, instead of waiting its turn."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return connections
    fit = max(1, soft - SPARE_FILES)
    print(
        f"tablelog serve: at most {fit} connections at once, not {connections}: the system "
        f"lets this process open {soft} files (ulimit -n)",
        file=sys.stderr,
    )
    return fit


def serve_until_stopped(server: TcpWSGIServer) -> None:
    """Serve until Ctrl-C or SIGTERM, then let running requests finish (a few seconds at most)."""
    _quiet_logs()
    previous = signal.signal(signal.SIGTERM, _exit)
    try:
        server.run()  # waitress stops its worker threads on KeyboardInterrupt and SystemExit
    finally:
        signal.signal(signal.SIGTERM, previous)


def _exit(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def _quiet_logs() -> None:
    """Waitress's warnings on stderr, one readable line each; not its "task queue depth" line,
    which it writes for every request that waits for a free thread."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("tablelog serve: %(message)s"))
    waitress = logging.getLogger("waitress")
    if not waitress.handlers:
        waitress.addHandler(handler)
    waitress.setLevel(logging.WARNING)
    waitress.propagate = False
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)


# ---- deadlines ---------------------------------------------------------------------------------


class _Parser(HTTPRequestParser):
    """One request as it arrives, with when its first byte and its last header came."""

    def __init__(self, adj: Adjustments) -> None:
        super().__init__(adj)
        self.started = time.monotonic()
        self.headers_at: float | None = None

    def received(self, data: bytes) -> int:
        consumed = super().received(data)
        if self.headers_finished and self.headers_at is None:
            self.headers_at = time.monotonic()
        return consumed

    def target(self) -> str:
        """The path asked for, as far as it arrived: a refusal before the headers were read
        (late or too large) still answers in the form that path takes."""
        line = self.header_plus.lstrip().split(b"\r\n", 1)[0].split()
        if len(line) > 1:
            return line[1].decode("latin-1")
        return getattr(self, "path", "") or ""


class _ErrorTask(ErrorTask):
    """A request the server itself refuses: one line of text, JSON under /api/, and the
    connection closed."""

    def execute(self) -> None:
        request: Any = self.request  # the parser (waitress's stubs say its error)
        error, message = request.error, _message(request.error)
        if request.target().startswith(API_PREFIX):
            body = json.dumps({"error": _kind(error), "message": message}).encode()
            kind = "application/json"
        else:
            body, kind = (message + "\n").encode(), "text/plain; charset=utf-8"
        self.status = f"{error.code} {error.reason}"
        self.response_headers = [*self.response_headers, ("Content-Type", kind)]
        self.set_close_on_finish()
        channel: Any = self.channel
        channel.refused = True
        self.content_length = len(body)
        self.write(body)


class _Channel(HTTPChannel):
    parser_class = _Parser
    error_task_class = _ErrorTask
    refused = False  # the server refused a request here, which may still be arriving
    draining_since: float | None = None

    def handle_close(self) -> None:
        """After a refusal, a lingering close: a client still sending the body it was refused
        would otherwise meet a reset, which can destroy the answer before it is read (nginx
        then answers 502). So stop sending, drop what still comes, and close at the client's
        end, at the idle timeout, or LINGER seconds on."""
        sock = self.socket
        if self.refused and self.draining_since is None and self.connected and sock:
            try:
                sock.shutdown(socket.SHUT_WR)
            except OSError:
                super().handle_close()
                return
            self.draining_since = time.monotonic()
            self.will_close = self.close_when_flushed = False
            return
        super().handle_close()

    def received(self, data: bytes) -> bool:
        if self.draining_since is not None:
            return True  # the rest of a refused request: dropped
        return super().received(data)


class _Server(TcpWSGIServer):
    """Waitress's server whose maintenance (every second) also answers 408 to a request whose
    headers or body are late."""

    channel_class = _Channel

    def __init__(self, app: WSGIApplication, limits: Limits, **kw: Any) -> None:
        self.limits = limits
        super().__init__(app, **kw)

    def maintenance(self, now: float) -> None:
        self._late_requests()  # first: a late request is answered 408, not dropped as idle
        super().maintenance(now)  # type: ignore[arg-type]  # the stubs say int; waitress passes time.time()

    def _late_requests(self) -> None:
        clock, limits = time.monotonic(), self.limits
        channels: dict[int, HTTPChannel] = self.active_channels  # type: ignore[assignment]  # the stubs say one channel
        for channel in list(channels.values()):
            lingering = getattr(channel, "draining_since", None)
            if lingering is not None and clock - lingering > LINGER:
                channel.will_close = True
            request = channel.request
            if channel.requests or not isinstance(request, _Parser) or request.completed:
                continue  # a request is being answered, or none is arriving
            if request.headers_at is None:
                late = clock - request.started > limits.header_timeout
                what = f"the request's headers did not arrive within {limits.header_timeout:g} s"
            else:
                late = clock - request.headers_at > limits.body_timeout
                what = f"the request's body did not arrive within {limits.body_timeout:g} s"
            if late:
                _refuse(channel, request, RequestTimeout(what))


def _refuse(channel: Any, request: _Parser, error: Error) -> None:
    """Answer `error` to the request arriving on `channel`, as waitress does with a request it
    cannot parse (on the network loop's thread: the one that feeds `received`)."""
    with channel.requests_lock:
        if channel.request is not request:
            return
        if not request.headers_finished:
            request.parse_header(b"GET / HTTP/1.0\r\n")  # what waitress fills in for a refusal
        request.error, request.completed = error, True
        channel.request = None
        channel.requests.append(request)
    channel.server.add_task(channel)


def _message(error: Error) -> str:
    if error.code == 413:
        return f"the request body is larger than {MAX_BODY} bytes"
    if error.code == 431:
        return f"the request's headers are larger than {MAX_HEADER} bytes"
    if error.code == 408:
        return str(error.body)
    return f"the request is not HTTP this server reads ({' '.join(str(error.body).split())})"


def _kind(error: Error) -> str:
    return {408: "timeout", 413: "too-large", 431: "too-large", 501: "not-implemented"}.get(
        error.code, "bad-request"
    )
