"""Attacks on the dashboard's callback endpoint (issue 42: 17 answers were 500), over HTTP to
`tablelog serve`'s app on a real port, seeded with matches of every game and a damaged one:

- the issue's own calls (tests/dashboard/test_dash_endpoint.py's ISSUE_42: an unknown output,
  POST {}, values of the wrong type, a token that is a list, ...);
- every callback that reads a match, given the damaged match (what /record?match=<damaged id>
  makes the page send) and its short prefix;
- values of the wrong JSON type in each input and state of each callback, the others empty;
- tests/dashboard/test_dash_fuzz.py's calls: what the pages hold, one value anything at all.

Counted: a 5xx; a traceback (logged by the server, or the page's "could not do that", which
only a fault says); a 400 that is not one line of text; the stored events changed by a call
whose answer does not say it stored a write."""

from __future__ import annotations

import random
from typing import Any

from tests.conftest import stored_rows
from tests.dashboard.dash_calls import (
    FAULT,
    WRITTEN,
    Served,
    call,
    is_pattern,
    lab_done,
    served_app,
    wildcards,
)
from tests.dashboard.test_dash_endpoint import ISSUE_42
from tests.dashboard.test_dash_fuzz import ID_PARTS, calls
from tests.rerun.tally import Tally, each_drawn, logged_tracebacks, short

WRONG = [[], ["x"], 7, 2.5, {"a": 1}, "x", True, None, [[1, 2]], "9" * 400]
MATCH_READERS = ("search", "record-match", "match-pick", "record-version", "lab-experiment")


def run(store: str, size: int) -> Tally:
    tally = Tally("Dash endpoint").measures(
        "server_errors", "tracebacks", "untidy", "stored_but_refused"
    )
    with served_app(store) as served:
        for body in [make(served) for make, _ in ISSUE_42.values()]:
            judge(served, body, tally)
        for body in damaged_calls(served):
            judge(served, body, tally)
        for body in wrong_types(served, size):
            judge(served, body, tally)
        each_drawn(calls(served), size, lambda body: judge(served, body, tally))
    return tally


def judge(served: Served, body: Any, tally: Tally) -> None:
    before = stored_rows(served.store)
    tally.tried += 1
    said = short(body)
    with logged_tracebacks() as logged:
        answer = served.post(body)
        if "Started:" in answer.text:  # a lab experiment, which stores its matches as it runs
            lab_done(served)
    if logged:
        tally.add("tracebacks", f"{said}: {logged[0].getMessage()} {logged[0].exc_info!r}")
    elif answer.status_code == 200 and FAULT in answer.text:
        tally.add("tracebacks", f"{said}: the page said {FAULT!r}")
    if answer.status_code >= 500:
        tally.add("server_errors", f"{said}: {answer.status_code} {answer.text[:200]}")
    elif answer.status_code == 400 and not one_line(answer):
        tally.add("untidy", f"{said}: {answer.text[:200]!r}")
    wrote = answer.status_code == 200 and any(words in answer.text for words in WRITTEN)
    if stored_rows(served.store) != before and not wrote:
        tally.add("stored_but_refused", f"{said}: {answer.status_code}, yet the store changed")


def one_line(answer: Any) -> bool:
    text = answer.text
    plain = answer.headers.get("Content-Type", "").startswith("text/plain")
    return plain and text.endswith("\n") and "\n" not in text[:-1] and "Traceback" not in text


def empty(spec: dict) -> Any:
    return [] if is_pattern(spec) else None


def damaged_calls(served: Served) -> list[dict]:
    """Each callback that reads a match, given the damaged one in each place a match is read."""
    bodies = []
    for callback in served.callbacks:
        specs = [*callback["inputs"], *callback["state"]]
        for index, spec in enumerate(specs):
            if is_pattern(spec) or not any(
                r in (spec["id"], spec["property"]) for r in MATCH_READERS
            ):
                continue
            for damaged in (served.damaged, served.damaged[:8]):
                shown = f"?match={damaged}" if spec["property"] == "search" else damaged
                bodies.append(_call(callback, index, shown))
    return bodies


def wrong_types(served: Served, size: int) -> list[dict]:
    """`size` calls (or all there are), each with one value of a kind its place never holds."""
    places = [
        (callback, index, value)
        for callback in served.callbacks
        for index in range(len(callback["inputs"]) + len(callback["state"]))
        for value in WRONG
    ]
    chosen = random.Random(42).sample(places, min(size, len(places)))
    return [_call(callback, index, value) for callback, index, value in chosen]


def _call(callback: dict, index: int, value: Any) -> dict:
    """A call of `callback`, every value empty but the one at `index` (a wildcard's: one
    component of the pages' own id holding it)."""
    specs = [*callback["inputs"], *callback["state"]]
    values = [empty(spec) for spec in specs]
    spec = specs[index]
    if is_pattern(spec):
        value = [({k: ID_PARTS.get(k, ["x"])[0] for k in wildcards(spec)}, value)]
    values[index] = value
    inputs, state = values[: len(callback["inputs"])], values[len(callback["inputs"]) :]
    return call(callback, inputs, state, trigger=0)
