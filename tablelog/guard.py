"""What every request to a Tablelog server passes, whatever it asks for: the dashboard's pages,
Dash's own endpoints (`/_dash-update-component` takes a JSON body) and the API alike.

- **One body limit** (`MAX_BODY`), as Flask's `MAX_CONTENT_LENGTH`: werkzeug refuses a larger
  declared `Content-Length` with 413 before reading a byte, and stops a chunked body at the
  limit, so a rejected request never holds more than the limit in memory. (Dash read any body
  whole: 100 MB grew the server by 200 MB, and it kept the memory.)
- **Host checks on every request**, reads included, where writes are open (a loopback bind
  without a token, see `tablelog.access`): a web page that rebinds its own name to 127.0.0.1
  could otherwise read the whole store through the user's browser. With a token (a network
  bind, or a reverse proxy in front of a loopback bind) reads stay open to every host name, as
  the token is what guards the store then.
"""

from __future__ import annotations

from flask import Flask, Response, request

from .access import WritePolicy, host_without_port, is_loopback

MAX_BODY = 1 << 20  # 1 MiB: a whole match record is a few kilobytes, a Dash callback less
API_PREFIX = "/api/"


def guard(server: Flask, policy: WritePolicy) -> None:
    """Bound every request body of `server`, and check `Host` on every request when writes
    are open."""
    server.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    server.extensions["tablelog-guard"] = policy
    if policy.open:
        server.before_request(_loopback_host_only)
    server.before_request(_bounded_chunked_body)
    # Flask's JSON reading turns a ValueError into 400 but not the RecursionError of a body
    # nested a thousand deep, which Dash's endpoint would answer with a 500.
    server.register_error_handler(RecursionError, _too_deep)


def host_refusal(host_header: str | None) -> str | None:
    """Why a request under this `Host` is refused on a server open to loopback only, or None."""
    if not host_header:
        return None  # HTTP/1.0 without Host: no name to rebind, the connection is local
    host = host_without_port(host_header)
    if is_loopback(host):
        return None
    return f"this server answers this machine only, and this request came for host {host!r}"


def _loopback_host_only() -> Response | None:
    refused = host_refusal(request.headers.get("Host"))
    if refused is None:
        return None
    if request.path.startswith(API_PREFIX):
        return Response(
            _json({"error": "forbidden", "message": refused}),
            status=403,
            mimetype="application/json",
        )
    return Response(refused + "\n", status=403, mimetype="text/plain")


def _bounded_chunked_body() -> None:
    """A chunked body has no Content-Length to refuse up front: werkzeug stops reading it at
    the limit but hands on the first MAX_BODY bytes as if they were all (a 400 for broken JSON
    at best). Read it here, bounded, and make anything past the limit the 413 it is."""
    if request.content_length is not None or "wsgi.input_terminated" not in request.environ:
        return
    request.get_data(cache=True)  # at most MAX_BODY bytes, kept for the view
    request.stream.read(1)  # past the limit: werkzeug raises RequestEntityTooLarge


def _too_deep(error: RecursionError) -> Response:
    message = "the request body is nested too deep to read"
    if request.path.startswith(API_PREFIX):
        return Response(
            _json({"error": "bad-request", "message": message}),
            status=400,
            mimetype="application/json",
        )
    return Response(message + "\n", status=400, mimetype="text/plain")


def _json(value: object) -> str:
    import json

    return json.dumps(value, ensure_ascii=True)
