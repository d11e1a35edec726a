"""The Flask side: the blueprint that serves the route table, and the checks every request passes.

A write goes through, in order: the write policy (401/403), the media type (415), the size (413),
JSON parsing and the operation's request schema (400), and only then the recorder, whose
refusals `errors.py` maps. A read's query parameters are converted and checked against their
schemas (400). Whatever the input, the answer is JSON and never a 5xx: an unexpected exception is
a bug, and is left to Flask so that it shows as one; but never once a write has been stored:
from then on the answer is 2xx, saying what failed (`answer_written`).
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from collections.abc import Callable
from typing import Any, Never
from uuid import UUID

from eventsourcing.persistence import DatabaseError
from flask import Blueprint, Flask, Response, current_app, request
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound, RequestEntityTooLarge

from tablelog.access import WritePolicy
from tablelog.domain.errors import Refused
from tablelog.domain.games import RulesError
from tablelog.domain.matches.entering import entering_as
from tablelog.domain.plain import PlainDict, PlainValue, read_json
from tablelog.domain.recording.recorder import Recorder
from tablelog.domain.recording.stored import stored_but
from tablelog.gate import ACTIONS, Denied, Gate
from tablelog.guard import MAX_BODY, guard
from tablelog.store import UNREACHABLE, damaged_file, unreachable

from .errors import ApiError, bad_request, from_refusal
from .errors import one_line as _short
from .openapi import build_document, build_index
from .routes import ENDPOINTS, PREFIX, WRITE_ACTIONS, Endpoint, Param, Reply, Service, Written
from .validation import PER_MATCH, check, request_validator

INTEGER = re.compile(r"-?[0-9]{1,20}")
ANY_METHOD = ["GET", "POST", "PUT", "PATCH", "DELETE"]
ROUTING_KINDS = {404: "not-found", 405: "method-not-allowed", 413: "too-large"}


# Each write endpoint and the write it makes, as the role matrix names it (tablelog.gate).


def create_blueprint(recorder: Recorder, policy: WritePolicy) -> Blueprint:
    """The API over one store's recorder, with its write policy, mounted at /api/v1."""
    service = Service(recorder)
    gate = Gate(policy, recorder)
    document = build_document(policy)
    blueprint = Blueprint("tablelog_api", __name__, url_prefix=PREFIX)
    for endpoint in ENDPOINTS:
        if endpoint.write and WRITE_ACTIONS.get(endpoint.operation_id) not in ACTIONS:
            # A write nobody decided the roles of is never served (the role matrix).
            raise RuntimeError(f"{endpoint.operation_id} writes but is not in WRITE_ACTIONS")
        blueprint.add_url_rule(
            _flask_path(endpoint.path),
            endpoint.operation_id,
            _view(endpoint, service, gate),
            methods=[endpoint.method],
        )
    index = build_index()
    blueprint.add_url_rule("/", "index", lambda: json_response(index))
    blueprint.add_url_rule("/openapi.json", "openapi", lambda: json_response(document))
    # A host app may route every other path to itself (the dashboard's pages do): not under
    # here, where an unknown path is a JSON 404 whatever the method.
    blueprint.add_url_rule("/<path:anything>", "nothing_here", _nothing_here, methods=ANY_METHOD)
    blueprint.register_error_handler(ApiError, _answer_error)
    for error in UNREACHABLE:
        blueprint.register_error_handler(error, _store_unreachable)
    for error in (DatabaseError, sqlite3.DatabaseError):  # the library's wrapper, and bare
        blueprint.register_error_handler(error, _store_damaged)
    return blueprint


def _store_unreachable(error: Exception) -> Response:
    """503: the store stopped answering; the client may try again once it is back."""
    return _answer_error(ApiError(503, "store-unavailable", unreachable(error)))


def _store_damaged(error: Exception) -> Response:
    """503: the store file is damaged (any other database error is a bug, and stays one)."""
    damaged = damaged_file(error)
    if damaged is None:
        raise error
    return _answer_error(ApiError(503, "store-damaged", damaged))


def register_api(app: Flask, recorder: Recorder, policy: WritePolicy) -> None:
    """Mount the API on `app` (the dashboard's Flask server, or `create_app`'s). Routing errors
    under /api/ (no such path, a method the path does not take) answer JSON too."""
    app.register_blueprint(create_blueprint(recorder, policy))
    previous = app.error_handler_spec.get(None, {}).get(None, {}).get(HTTPException)

    def routing_error(error: HTTPException) -> Any:
        ours = request.path.startswith(PREFIX + "/") or request.path == PREFIX
        if not ours or (error.code or 500) < 400:
            return previous(error) if previous else error
        kind = ROUTING_KINDS.get(error.code or 400, "bad-request")
        message = error.description or error.name
        if isinstance(error, RequestEntityTooLarge):  # the server's MAX_CONTENT_LENGTH
            message = f"the request body is larger than {MAX_BODY} bytes"
        answer = json_response({"error": kind, "message": message}, error.code or 400)
        for name, value in error.get_headers():
            if name.lower() == "allow":
                answer.headers[name] = value
        return answer

    app.register_error_handler(HTTPException, routing_error)


def create_app(store: str | Recorder | None = None, policy: WritePolicy | None = None) -> Flask:
    """The API alone, on its own Flask app (for tests, and to serve only the API)."""
    if isinstance(store, Recorder):
        recorder = store
    else:
        from tablelog.store import open_recorder

        recorder = open_recorder(store)
    app = Flask("tablelog.api")
    policy = policy or WritePolicy()
    guard(app, policy)
    register_api(app, recorder, policy)
    return app


# ---- one request ---------------------------------------------------------------------------------


def _flask_path(template: str) -> str:
    return re.sub(r"\{(\w+)\}", r"<\1>", template)


def _view(endpoint: Endpoint, service: Service, gate: Gate) -> Callable[..., Response]:
    def view(**path: str) -> Response:
        arguments: dict[str, object] = dict(path)
        who = _admitted(gate, service, endpoint, path) if endpoint.write else None
        if endpoint.body is not None:  # exactly the endpoints that write
            arguments["body"] = _body(endpoint.body)
        for param in endpoint.params:
            if param.where == "query":
                arguments[param.name] = _query(param)
        try:
            with entering_as(who):
                result = endpoint.handler(service, **arguments)
        except (Refused, RulesError) as err:
            raise from_refusal(err) from None
        if isinstance(result, Written):
            return answer_written(service, result)
        if isinstance(result, Reply):
            answer = json_response(result.body, result.status)
            answer.headers.update(result.headers)
            return answer
        return json_response(result)

    view.__name__ = endpoint.operation_id
    return view


def answer_written(service: Service, written: Written) -> Response:
    """The answer to a write the store has committed: its status with the match's state, or,
    when making that fails (reading the match back, rendering it, its signed receipt), what is
    certain about the entry, marked `stored`. Either way `warnings` says what failed: the entry
    is stored, so the answer is never an error (a client would enter it again)."""
    warnings = list(written.warnings)
    try:
        body = written.state(service)
        answer = json_response(
            {**body, **({"warnings": warnings} if warnings else {})}, written.status
        )
    except Exception as err:  # anything at all: the entry is stored
        current_app.logger.exception("match %s: stored, but the answer failed", written.match_id)
        warnings.append(stored_but("its state could not be given", err))
        answer = json_response(
            {**_certain(written), "stored": True, "warnings": warnings}, written.status
        )
    answer.headers.update(written.headers())
    return answer


def _certain(written: Written) -> PlainDict:
    try:
        return written.certain()
    except Exception:  # noqa: BLE001 - the id at least is known
        return {"id": str(written.match_id)}


def _nothing_here(anything: str) -> Response:
    """No endpoint at this path for this method: a 405 naming the methods the path takes, or
    a 404 when no method would do (the catch-all itself matches every path, so it is skipped)."""
    adapter = request.url_rule.map.bind_to_environ(request.environ) if request.url_rule else None
    allowed = []
    for method in ANY_METHOD:
        try:
            rule, _ = adapter.match(request.path, method=method, return_rule=True)  # type: ignore[union-attr]
        except HTTPException:
            continue
        if rule.endpoint != request.url_rule.endpoint:  # type: ignore[union-attr]
            allowed.append(method)
    if allowed:
        raise MethodNotAllowed(valid_methods=allowed)
    raise NotFound(f"no such path in the API: {request.path} (the index: {PREFIX}/)")


def _admitted(gate: Gate, service: Service, endpoint: Endpoint, path: dict[str, str]) -> PlainDict:
    """Who makes this write (their `entered_by`), or the 401/403 of the gate."""

    def match() -> UUID | None:
        try:
            return service.match_id(path["match"]) if "match" in path else None
        except Refused:
            return None  # the handler answers for a match that is not there

    try:
        admitted = gate.admit(
            request.headers.get("Authorization"),
            request.headers.get("Host"),
            WRITE_ACTIONS[endpoint.operation_id],
            match,
        )
    except Denied as denied:
        kind = "unauthorized" if denied.status == 401 else "forbidden"
        raise ApiError(denied.status, kind, str(denied)) from None
    return admitted.entered_by


def _body(schema_name: str) -> PlainValue:
    if request.mimetype != "application/json":
        raise ApiError(
            415,
            "unsupported-media-type",
            "the request body must be JSON, sent as 'Content-Type: application/json'",
        )
    if (request.content_length or 0) > MAX_BODY:
        raise ApiError(413, "too-large", f"the request body is larger than {MAX_BODY} bytes")
    # Under the guard (tablelog.guard) the server bounds every body and a chunked one is
    # already read; mounted on an unguarded app, read at most one byte past the limit here.
    guarded = request.max_content_length is not None
    data = request.get_data(cache=True) if guarded else request.stream.read(MAX_BODY + 1)
    if len(data) > MAX_BODY:
        raise ApiError(413, "too-large", f"the request body is larger than {MAX_BODY} bytes")
    try:
        body = read_json(
            data.decode("utf-8"), parse_constant=_no_constant, parse_float=_finite_float
        )
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise bad_request(f"the request body is not valid JSON ({_short(_why(err))})") from None
    if schema_name not in PER_MATCH:  # a move: against its match's schema (routes.record_move)
        check(request_validator(schema_name), body)
    return body


def _why(error: Exception) -> str:
    """Why a body did not parse, in the client's terms (not Python's advice on its limits)."""
    if isinstance(error, json.JSONDecodeError):
        return error.msg
    if isinstance(error, RecursionError):
        return "nested too deep"
    if "integer string conversion" in str(error):
        return "a number of more than 4,300 digits"
    return str(error)


def _no_constant(name: str) -> Never:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{_short(text)} is too large a number")
    return value


def _query(param: Param) -> int | str | None:
    raw = request.args.get(param.name)
    if raw is None:
        if param.required:
            raise bad_request(f"query parameter {param.name} is required")
        return None
    value: int | str = raw
    if param.schema["type"] == "integer":
        if not INTEGER.fullmatch(raw.strip()):
            raise bad_request(
                f"query parameter {param.name} must be an integer, got {_short(repr(raw))}"
            )
        value = int(raw)
    error = best_match(Draft202012Validator(param.schema).iter_errors(value))
    if error is not None:
        raise bad_request(f"query parameter {param.name}: {_short(error.message)}")
    return value


def _answer_error(error: ApiError) -> Response:
    answer = json_response(error.body(), error.status)
    if error.status == 401:
        answer.headers["WWW-Authenticate"] = 'Bearer realm="tablelog"'
    return answer


def json_response(value: object, status: int = 200) -> Response:
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, default=str)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate quoted in a message: JSON escapes it
        text = json.dumps(value, ensure_ascii=True, allow_nan=False, default=str)
    return Response(text, status=status, mimetype="application/json")
