"""Calls of the dashboard's callbacks over HTTP, as the page's renderer makes them, built from
what the served app publishes at /_dash-dependencies (not from the app's code); and the
served app itself over a seeded store, on a real port (issue 42)."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import requests

from tablelog.access import WritePolicy
from tablelog.cli.serve import build_app
from tablelog.store import open_recorder
from tests.api.test_schemathesis import seeded
from tests.audit.helpers import played_with_everything
from tests.conftest import serving, stored_rows
from tests.hostile import as_text
from tests.test_quarantine import cut_short

ENDPOINT = "/_dash-update-component"
# What a page says after a write it stored (the Record page's lines, the sheet's, the Lab's).
WRITTEN = ("started for", "recorded:", "withdrew", "claimed:", "has ended", "logged:", "Started:")
FAULT = "could not do that"  # the page's words for a fault of the server


@dataclasses.dataclass
class Served:
    url: str
    store: str
    ids: list[str]  # the seeded matches: finished, running, abandoned
    damaged: str  # a match whose stored events no longer decode
    callbacks: list[dict]  # /_dash-dependencies: the server's callbacks
    http: requests.Session

    def post(self, body: Any) -> requests.Response:
        """POST the call (JSON text as it comes, or any value written as JSON: NaN, huge and
        deep values included, as tests/hostile.py writes them)."""
        text = body if isinstance(body, str) else as_text(body)
        return self.http.post(
            self.url + ENDPOINT,
            data=text.encode("utf-8", "surrogatepass"),
            headers={"Content-Type": "application/json"},
        )

    def callback(self, output: str) -> dict:
        """The callback of this output key, else the one whose key contains it."""
        exact = [c for c in self.callbacks if c["output"] == output]
        (found,) = exact or [c for c in self.callbacks if output in c["output"]]
        return found


@contextmanager
def served_app(store: str) -> Iterator[Served]:
    """`tablelog serve`'s app (writes open, as on loopback) over `store`, seeded with a
    finished match of each game, running and abandoned ones, and a damaged match."""
    recorder = open_recorder(store)
    ids = seeded(recorder)
    damaged = played_with_everything(recorder)
    recorder.close()
    cut_short(store, damaged, 5)
    app = build_app(store, WritePolicy())
    try:
        with serving(app) as url, requests.Session() as http:
            listed = http.get(url + "/_dash-dependencies").json()
            callbacks = [c for c in listed if not c.get("clientside_function")]
            yield Served(url, store, ids, str(damaged), callbacks, http)
    finally:
        app.server.extensions["tablelog"].recorder.close()


def is_pattern(spec: dict) -> bool:
    return spec["id"].startswith("{")


def dependency(spec: dict, value: Any) -> Any:
    """One input or state as sent: {"id", "property", "value"}; for a wildcard id, `value` is
    the list of ({wildcard: value}, value) pairs of the components it matched."""
    if not is_pattern(spec):
        return {"id": spec["id"], "property": spec["property"], "value": value}
    pattern = json.loads(spec["id"])
    return [
        {"id": {**pattern, **keys}, "property": spec["property"], "value": each}
        for keys, each in value
    ]


def wildcards(spec: dict) -> list[str]:
    return [k for k, v in json.loads(spec["id"]).items() if isinstance(v, list)]


def prop_id(item: dict) -> str:
    ident = item["id"]
    if isinstance(ident, dict):
        ident = json.dumps(ident, sort_keys=True, separators=(",", ":"))
    return f"{ident}.{item['property']}"


def outputs(output: str) -> Any:
    """The outputs as the renderer sends them: one {"id", "property"}, or a list for several."""

    def one(text: str) -> dict:
        ident, prop = text.rsplit(".", 1)  # ids have no dots (Dash refuses them)
        return {"id": ident, "property": prop}

    if output.startswith(".."):
        return [one(part) for part in output[2:-2].split("...")]
    return one(output)


def call(callback: dict, inputs: list, state: Sequence = (), trigger: int | None = 0) -> dict:
    """A call of `callback` with these input and state values (see `dependency`); `trigger`
    names the input that changed (None: none, as on a page's first load)."""
    sent_inputs = [dependency(s, v) for s, v in zip(callback["inputs"], inputs)]
    body = {
        "output": callback["output"],
        "outputs": outputs(callback["output"]),
        "inputs": sent_inputs,
        "changedPropIds": [],
    }
    if callback["state"]:
        body["state"] = [dependency(s, v) for s, v in zip(callback["state"], state)]
    if trigger is not None:
        changed = sent_inputs[trigger]
        changed = changed[:1] if isinstance(changed, list) else [changed]
        body["changedPropIds"] = [prop_id(item) for item in changed]
    return body


def one_line_refusal(answer: requests.Response) -> str:
    assert answer.status_code == 400, (answer.status_code, answer.text[:300])
    assert answer.headers["Content-Type"].startswith("text/plain")
    line = answer.text
    assert line.endswith("\n") and "\n" not in line[:-1] and "Traceback" not in line
    return line


def said(answer: requests.Response) -> str:
    """Everything a 200 answer puts on the page, as text."""
    assert answer.status_code == 200, (answer.status_code, answer.text[:300])
    return json.dumps(answer.json())


def unchanged_unless_written(before: list, served: Served, answer: requests.Response) -> list:
    """The store as it is now, which is the store before unless the answer says it wrote."""
    if "Started:" in answer.text:  # a lab experiment, which stores its matches as it runs
        lab_done(served)
    after = stored_rows(served.store)
    if after != before:
        assert answer.status_code == 200 and any(w in answer.text for w in WRITTEN), answer.text
    return after


def lab_done(served: Served, wait: float = 300) -> None:
    """Follow the Lab page's progress line (as its timer does) until the experiment is over."""
    progress = served.callback("..lab-progress.children...lab-finished.data..")
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        line = served.post(call(progress, [1], [None])).text
        if "Done:" in line or "Failed:" in line:
            return
        time.sleep(0.2)
    raise AssertionError(f"the lab experiment did not finish in {wait} s")
