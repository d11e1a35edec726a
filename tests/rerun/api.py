"""Hostile API requests (issue 42: 20 answers were 5xx, two of them stored), over HTTP to
`tablelog serve`'s app on a real port (tests/dashboard/dash_calls.py's `served_app`: seeded
matches of every game and a damaged one). Every operation the API publishes is called with its
path and query parameters hostile or real, and each write with tests/api/test_hardening.py's
hostile bodies, tests/api/test_write_honesty.py's real ones, or bytes that are no JSON at all.
Starting a lab experiment is left out: it is long work, which tests/lab tries on its own.

Counted: a 5xx (or no answer in two minutes); a traceback in the server's log; a refusal that
is not a JSON {error, message} of one line; a write refused that still changed the stored
events; a write answered 2xx that stored nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import requests
from hypothesis import strategies as st

from tablelog.domain.games import GAMES
from tests.api.test_hardening import WRITES as HOSTILE
from tests.api.test_write_honesty import WRITES as REAL
from tests.conftest import stored_rows
from tests.dashboard.dash_calls import Served, served_app
from tests.hostile import JSON, OBJECTS, SCALARS, TEXT, as_text
from tests.rerun.tally import Tally, each_drawn, logged_tracebacks

PREFIX = "/api/v1"
LEFT_OUT = {("post", "/lab/experiments")}
WRITING = ("/matches", "/sheets", "/moves", "/undo", "/claims", "/disputes", "/resolve", "/end")
WRITING_TOO = ("/abandon",)
Request = tuple[str, str, bytes, str]  # method, path and query, body, content type


def run(store: str, size: int) -> Tally:
    tally = Tally("API").measures(
        "server_errors", "tracebacks", "untidy", "stored_but_refused", "said_stored_but_lost"
    )
    with served_app(store) as served:
        document = served.http.get(served.url + PREFIX + "/openapi.json").json()
        operations = [
            (method, path[len(PREFIX) :], op.get("parameters", []))
            for path, ops in document["paths"].items()
            for method, op in ops.items()
            if (method, path[len(PREFIX) :]) not in LEFT_OUT
        ]
        each_drawn(hostile_requests(operations, served), size, lambda r: judge(served, r, tally))
    return tally


def is_write(method: str, path: str) -> bool:
    return method == "POST" and path.split("?")[0].endswith(WRITING + WRITING_TOO)


def judge(served: Served, request: Request, tally: Tally) -> None:
    method, path, body, kind = request
    write = is_write(method, path)
    before = stored_rows(served.store) if write else None
    tally.tried += 1
    said = f"{method} {path[:120]} {body[:120]!r}"
    with logged_tracebacks() as logged:
        try:
            answer = served.http.request(
                method,
                served.url + PREFIX + path,
                data=body or None,
                headers={"Content-Type": kind},
                timeout=120,
            )
        except requests.Timeout:
            tally.add("server_errors", f"{said}: no answer in 120 s")
            return
    if logged:
        tally.add("tracebacks", f"{said}: {logged[0].getMessage()} {logged[0].exc_info!r}")
    if answer.status_code >= 500:
        tally.add("server_errors", f"{said}: {answer.status_code} {answer.text[:200]}")
    elif answer.status_code >= 400 and not one_json_line(answer):
        tally.add("untidy", f"{said}: {answer.status_code} {answer.text[:200]!r}")
    if before is None:
        return
    changed = stored_rows(served.store) != before
    if changed and answer.status_code >= 400:
        tally.add("stored_but_refused", f"{said}: {answer.status_code}, yet stored")
    if not changed and 200 <= answer.status_code < 300:
        tally.add("said_stored_but_lost", f"{said}: {answer.status_code}, nothing stored")


def one_json_line(answer: requests.Response) -> bool:
    try:
        said = answer.json()
    except ValueError:
        return False
    return (
        isinstance(said, dict)
        and set(said) == {"error", "message"}
        and "\n" not in str(said["message"])
    )


def hostile_requests(operations: list, served: Served) -> st.SearchStrategy[Request]:
    ids = [*served.ids, served.damaged]
    known = {
        "match": st.sampled_from([*ids, *[i[:8] for i in ids]]),
        "game": st.sampled_from(list(GAMES)),
        "experiment": st.sampled_from(ids),
    }
    hostile = TEXT | SCALARS.map(as_text) | st.sampled_from(["1" * 30, "-1", "0", "1e9"])
    return st.sampled_from(operations).flatmap(lambda op: _request(op, known, hostile))


def _request(operation: tuple, known: dict, hostile: st.SearchStrategy) -> st.SearchStrategy:
    method, path, parameters = operation

    def spelled(value: Any) -> str:
        return quote(str(value), safe="", errors="surrogatepass")

    def value(name: str) -> st.SearchStrategy:
        return (known.get(name, hostile) | hostile).map(spelled)

    in_path = [p["name"] for p in parameters if p.get("in") == "path"]
    in_query = [p["name"] for p in parameters if p.get("in") == "query"]
    filled = st.fixed_dictionaries({name: value(name) for name in in_path})
    query = st.dictionaries(st.sampled_from(in_query or ["x"]), hostile.map(spelled), max_size=3)
    body = _body(path) if method == "post" else st.just((b"", "application/json"))
    return st.tuples(filled, query, body).map(
        lambda parts: (
            method.upper(),
            path.format(**parts[0]) + ("?" + "&".join(f"{k}={v}" for k, v in parts[1].items())),
            *parts[2],
        )
    )


def _body(path: str) -> st.SearchStrategy[tuple[bytes, str]]:
    """A write's body: hostile values in the write's shape, a real body, or bytes at random."""
    end = path.rsplit("/", 1)[-1]
    hostile_shape: Callable | None = {
        "moves": HOSTILE["move"][1],
        "claims": HOSTILE["claim"][1],
        "disputes": HOSTILE["dispute"][1],
        "undo": HOSTILE["undo"][1],
        "matches": HOSTILE["start"][1],
    }.get(end)
    real = [body for _, where, body, *_ in REAL.values() if where.rsplit("/", 1)[-1] == end]
    shaped = (
        st.builds(hostile_shape, JSON | OBJECTS, TEXT)
        if hostile_shape is not None
        else (JSON | OBJECTS)
    )
    as_json = (shaped | st.sampled_from(real or [{}])).map(
        lambda v: as_text(v).encode("utf-8", "surrogatepass")
    )
    junk = st.binary(max_size=60) | st.just(b"[" * 5000)
    kinds = st.sampled_from(["application/json"] * 4 + ["text/plain", "application/x-www-form"])
    return st.tuples(as_json | junk, kinds)
