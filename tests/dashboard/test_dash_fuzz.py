"""Every server callback the app publishes (/_dash-dependencies), called over HTTP with values
of every kind (tests/hostile.py's JSON, and values the pages really hold: the seeded matches'
ids, games, names, picks), on SQLite and PostgreSQL; then schemathesis over an OpenAPI
description of each callback's call, made here from the same published dependencies.

The property (issue 42): the answer is 200, 204 or a one-line 400, never a 500 nor the page's
message of a server fault (a value the page never sends is refused, not failed on), and the
store is byte-identical afterwards unless the answer says it stored a write.
"""

from __future__ import annotations

import json

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from tablelog.domain.games import GAMES
from tests.conftest import stored_rows
from tests.hostile import JSON, SCALARS

from .dash_calls import (
    ENDPOINT,
    FAULT,
    call,
    is_pattern,
    one_line_refusal,
    outputs,
    said,
    served_app,
    unchanged_unless_written,
    wildcards,
)

EXAMPLES = 300  # calls per store in the hypothesis run
PER_CALLBACK = 8  # schemathesis examples per callback and store
SETTINGS = settings(
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture
def served(any_store):
    with served_app(any_store) as served:
        yield served


def held(served) -> dict[str, st.SearchStrategy]:
    """What the page's components hold (the values a browser sends), by property, and by
    component where the property alone does not say: the test's own reading of the pages."""
    ids = [*served.ids, served.damaged]
    match = st.sampled_from([*ids, *[i[:8] for i in ids], "0" * 8])
    return {**_by_property(match), **_record_page(match), **_other_pages(match, ids)}


WHOLE = st.integers(-1, 40) | st.none()
NUMBER = WHOLE | st.floats(allow_nan=False, allow_infinity=False)


def _by_property(match: st.SearchStrategy) -> dict[str, st.SearchStrategy]:
    count = st.integers(0, 3) | st.none()
    return {
        "n_clicks": count,
        "n_intervals": count,
        "pathname": st.sampled_from(["/", "/record", "/match", "/balance", "/players", "/lab"]),
        "search": st.sampled_from(["", "?x=1", "?game=topitop", "?game=chess"])
        | match.map(lambda m: f"?match={m}")
        | match.map(lambda m: f"?id={m}"),
        "search_value": match | st.sampled_from(["", "abc"]),
        "clickData": st.none()
        | st.fixed_dictionaries(
            {"points": st.lists(st.fixed_dictionaries({"customdata": st.text() | JSON}))}
        ),
    }


def _record_page(match: st.SearchStrategy) -> dict[str, st.SearchStrategy]:
    names = st.sampled_from(["Ann, Ben", "Ann", "Ann, Ben, Cy", " , ", "<b>Eve</b>, Ben"])
    picks = st.sampled_from(
        [[], [["piece", "supply:large"]], [["piece", "supply:large"], ["to", "b2"]], [["to", "a1"]]]
    )
    setup = st.sampled_from(
        [[], [["game", "topitop"]], [["game", "topitop"], ["small", 4], ["large", 4]]]
        + [[["game", game]] for game in GAMES]
    )
    return {
        "record-match": match | st.none(),
        "record-version": WHOLE,
        "record-picks": picks | st.none(),
        "record-setup-picks": setup | st.none(),
        "record-token": st.sampled_from([None, "", "s3cret"]),
        "record-token-input": st.sampled_from([None, "", " s3cret ", "wrong"]),
        "record-players": names | st.none(),
        "record-sheet-players": names | st.none(),
        "record-sheet-game": st.sampled_from([None, *GAMES]),
        "record-undo-by": st.sampled_from([None, "Ann", "Ben", "Nobody"]),
        "record-sheet-winners": st.sampled_from([[], ["Ann"], ["Nobody"]]),
        "record-sheet-first": st.sampled_from([None, "Ann", "Nobody"]),
        "record-played-at": st.sampled_from([None, "", "2026-01-01T10:00", "yesterday"]),
        "record-sheet-played-at": st.sampled_from([None, "", "2026-01-01T10:00"]),
        "record-sheet-duration": NUMBER,
        "record-claim": NUMBER,
        "record-sheet-total": NUMBER,
        "record-sheet-category": NUMBER,
        "record-claim-by": st.sampled_from([None, "Ann", "Ben"]),
    }


def _other_pages(match: st.SearchStrategy, ids: list[str]) -> dict[str, st.SearchStrategy]:
    games = st.sampled_from([None, *GAMES, "chess"])
    return {
        "match-pick": match | st.none(),
        "match-step": WHOLE,
        "match-log-data": st.sampled_from([None, [], [{"step": 0}]]),
        "balance-game": games,
        "players-game": games,
        "lab-game": games,
        "balance-players": WHOLE,
        "balance-variant": st.sampled_from([None, "{}", "x"]),
        "balance-kind": st.sampled_from([None, "all", "humans", "x"]),
        "players-chosen": st.sampled_from([None, [], ["Ann"], ["Nobody"]]),
        "lab-experiment": st.sampled_from([None, "humans", "x", *ids]),
        "lab-matches": st.sampled_from([None, 0, 2, 3, 401, 2.5]),  # few: an experiment runs
        "lab-seed": NUMBER,
        "lab-kind": st.sampled_from([None, "variants", "restriction", "skill", "x"]),
        "lab-budgets": st.sampled_from([None, "1,2", "x"]),
        **{f"{page}-position": WHOLE for page in ["overview", "balance", "players", "match"]},
    }


PLAIN = st.none() | st.sampled_from([0, 1, "", "x", "topitop", [], {}])  # any other component
ID_PARTS: dict[str, list] = {  # the wildcard parts of the pages' own ids, as the pages draw them
    "action": ["start", "commit", "undo", "claim", "end", "draw"],
    "key": ["piece", "to", "small", "large", "game"],
    "value": ['"supply:large"', '"b2"', "4", '"topitop"', "not json"],
    "index": [0, 1, 5],
    "game": list(GAMES),
    "seat": [0, 1],
    "form": ["end"],
    "arm": ["a", "b"],
    "category": ["x"],
}


def held_value(spec: dict, holds: dict, anything: st.SearchStrategy) -> st.SearchStrategy:
    """A value the page could hold at one input or state (a wildcard id: 0-2 components)."""
    ident = spec["id"]
    base = json.loads(ident)["type"] if is_pattern(spec) else ident
    value = next((holds[k] for k in (spec["property"], base) if k in holds), anything)
    if not is_pattern(spec):
        return value
    keys = st.fixed_dictionaries(
        {k: st.sampled_from(ID_PARTS.get(k, ["x"])) | SCALARS for k in wildcards(spec)}
    )
    return st.lists(st.tuples(keys, value), max_size=2)


@st.composite
def calls(draw, served) -> dict:
    """A call of one callback: the values the page could hold, but for one of them (or none),
    which is anything at all."""
    callback = draw(st.sampled_from(served.callbacks), label="callback")
    specs = [*callback["inputs"], *callback["state"]]
    holds = held(served)
    hostile = draw(st.none() | st.integers(0, len(specs) - 1), label="the one hostile value")
    values = [
        draw(given_value(spec, JSON) if i == hostile else held_value(spec, holds, PLAIN))
        for i, spec in enumerate(specs)
    ]
    inputs, state = values[: len(callback["inputs"])], values[len(callback["inputs"]) :]
    first = inputs[0] if inputs else None
    triggered = not (is_pattern(callback["inputs"][0]) and not first) and draw(st.booleans())
    return call(callback, inputs, state, trigger=0 if triggered else None)


def given_value(spec: dict, values: st.SearchStrategy) -> st.SearchStrategy:
    if not is_pattern(spec):
        return values
    keys = st.fixed_dictionaries({k: SCALARS for k in wildcards(spec)})
    return st.lists(st.tuples(keys, values), max_size=2)


def answered_honestly(answer) -> None:
    assert answer.status_code in (200, 204, 400), (answer.status_code, answer.text[:300])
    if answer.status_code == 400:
        one_line_refusal(answer)
    elif answer.status_code == 200:
        assert FAULT not in said(answer), answer.text[:500]


@pytest.mark.slow
def test_every_callback_takes_any_value_without_a_fault_and_stores_only_writes(served):
    before = [stored_rows(served.store)]

    @settings(SETTINGS, max_examples=EXAMPLES)
    @given(body=calls(served))
    def run(body):
        answer = served.post(body)
        answered_honestly(answer)
        before[0] = unchanged_unless_written(before[0], served, answer)

    run()


def openapi(callback: dict) -> dict:
    """An OpenAPI 3.1 description of one callback's call: its outputs, inputs and state by id
    and property, in order, each value anything."""
    body = {
        "type": "object",
        "required": ["output", "outputs", "inputs", "changedPropIds"]
        + (["state"] if callback["state"] else []),
        "properties": {
            "output": {"const": callback["output"]},
            "outputs": {"const": outputs(callback["output"])},
            "inputs": _in_order(callback["inputs"]),
            "state": _in_order(callback["state"]),
            "changedPropIds": {"type": "array", "maxItems": 0},
        },
    }
    content = {"application/json": {"schema": body}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Tablelog dashboard callbacks", "version": "1"},
        "paths": {
            ENDPOINT: {
                "post": {
                    "operationId": "callback",
                    "requestBody": {"required": True, "content": content},
                    "responses": RESPONSES,
                }
            }
        },
    }


RESPONSES = {
    "200": {
        "description": "the outputs",
        "content": {"application/json": {"schema": {"type": "object"}}},
    },
    "204": {"description": "nothing to change"},
    "400": {
        "description": "not a call the page makes",
        "content": {"text/plain": {"schema": {"type": "string"}}},
    },
}


def _in_order(specs: list[dict]) -> dict:
    slots = [_dependency(s) for s in specs]
    exactly = {"type": "array", "minItems": len(slots), "maxItems": len(slots)}
    return {**exactly, "prefixItems": slots} if slots else exactly


def _dependency(spec: dict) -> dict:
    """One input or state: {id, property, value}; a wildcard id's list of them."""
    if not is_pattern(spec):
        ident: dict = {"const": spec["id"]}
    else:
        pattern = json.loads(spec["id"])
        ident = {
            "type": "object",
            "required": sorted(pattern),
            "additionalProperties": False,
            "properties": {
                k: {"type": ["string", "number"]} if isinstance(v, list) else {"const": v}
                for k, v in pattern.items()
            },
        }
    item = {
        "type": "object",
        "required": ["id", "property", "value"],
        "properties": {"id": ident, "property": {"const": spec["property"]}, "value": {}},
    }
    return {"type": "array", "items": item, "maxItems": 2} if is_pattern(spec) else item


# A call of the declared shape can still carry a value of a kind the page never sends: 400.
CONFIG = {"checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "400"]}}}


@pytest.mark.slow
def test_schemathesis_calls_of_every_callback_get_documented_answers(served):
    before = [stored_rows(served.store)]
    config = schemathesis.Config.from_dict(CONFIG)
    calls_made = 0
    for callback in served.callbacks:
        schema = schemathesis.openapi.from_dict(openapi(callback), config=config)
        (result,) = schema.get_all_operations()
        operation = result.ok()  # type: ignore[union-attr]  # an Err raises here, as it should
        cases = st.one_of(*[operation.as_strategy(mode) for mode in GenerationMode])

        @settings(SETTINGS, max_examples=PER_CALLBACK)
        @given(case=cases)
        def run(case):
            nonlocal calls_made
            answer = case.call_and_validate(base_url=served.url, session=served.http)
            calls_made += 1
            if answer.status_code == 200:
                assert FAULT not in answer.text, answer.text[:500]
            before[0] = unchanged_unless_written(before[0], served, answer)

        run()
    assert calls_made >= len(served.callbacks) * 2
