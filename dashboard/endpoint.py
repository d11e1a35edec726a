"""`/_dash-update-component`, the one endpoint every callback runs through, answered honestly.

- **A call that is not one of the app's callbacks** (not a JSON object; an output no callback
  has; inputs, state or outputs other than the callback declares; a trigger that is none of
  the inputs sent) is refused with 400 and one line, before Dash reads it. Each callback's
  shape is a JSON Schema made from the app's own callback map, the declaration the page
  itself is built from.
- **A value of the wrong kind** is 400 and one line too: for a property whose kind is Dash's
  (a click count, the address: `kinds.PROPERTIES`) checked here, for every callback; for the
  rest, by the callback's own declaration (`dashboard/callbacks.py`, `WrongInput`).
- **A refusal inside a callback** (a `Refused` of the domain, such as `Damaged`) is the page's
  own message: the page module's `MESSAGE` element, or the line under the menu (`SHELL`).
- **Anything else a callback raises** is a fault of the server: written to its log with the
  traceback, and the page says, in the same place, that it could not do that. Never a 500.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

import dash
import flask
import orjson
from dash import Dash
from dash._utils import clean_property_name, split_callback_id, stringify_id
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from tablelog.domain.errors import Refused
from tablelog.domain.games import RulesError

from . import kinds
from .callbacks import WrongInput, check

ENDPOINT = "_dash-update-component"
SHELL = "page-message"  # the line under the menu, for pages without a message of their own
FAULT = "could not do that: the server failed (its log says why); reload the page to go on"
NOT_A_CALL = "not a Dash callback call: a JSON object naming its output, inputs and state"
LOG = logging.getLogger("tablelog.dashboard")


def check_requests(app: Dash) -> None:
    """Put the request check in front of Dash's dispatch on `app`, and answer `WrongInput`
    (raised by a callback's `takes`) with 400."""
    name = app.config.routes_pathname_prefix + ENDPOINT
    dispatch = app.server.view_functions[name]
    shapes: dict[str, Draft202012Validator] = {}

    def checked() -> Any:
        refused = malformed(app.callback_map, flask.request.get_json(silent=True), shapes)
        if refused is not None:
            return refusal(refused)
        return dispatch()

    app.server.view_functions[name] = checked
    app.server.register_error_handler(WrongInput, lambda err: refusal(str(err)))


def refusal(message: str) -> flask.Response:
    line = " ".join(message.split())
    return flask.Response(line + "\n", status=400, mimetype="text/plain")


def malformed(
    callbacks: dict[str, Any], body: object, shapes: dict[str, Draft202012Validator]
) -> str | None:
    """Why `body` is not a call of one of `callbacks` (Dash's callback map), or None."""
    if not isinstance(body, dict) or not isinstance(body.get("output"), str):
        return NOT_A_CALL
    output = body["output"]
    if "callback" not in callbacks.get(output, {}):  # none, or one that runs in the browser
        return f"no callback answers for {output[:80]!r}"
    if output not in shapes:
        shapes[output] = Draft202012Validator(call_schema(output, callbacks[output]))
    error = best_match(shapes[output].iter_errors(body))
    if error is not None:
        return f"not a call of this callback: {error.json_path} {_wrong(error)}"
    try:  # what Dash can write back (orjson), and what a browser's number holds exactly
        orjson.dumps(body, option=orjson.OPT_STRICT_INTEGER)
    except orjson.JSONEncodeError as err:
        return f"the call holds a value no page holds ({err})"
    sent = {
        f"{stringify_id(item['id'])}.{item['property']}"
        for slot in body["inputs"]
        for item in (slot if isinstance(slot, list) else [slot])
    }
    unknown = [changed for changed in body["changedPropIds"] if changed not in sent]
    if unknown:
        return f"not a call of this callback: {unknown[0][:80]!r} is none of its inputs"
    return _wrong_kind([*body["inputs"], *body.get("state", [])])


def _wrong_kind(sent: list) -> str | None:
    """Why a value of a property whose kind is Dash's own (`kinds.PROPERTIES`) is not of it."""
    for slot in sent:
        for item in slot if isinstance(slot, list) else [slot]:
            schema = kinds.PROPERTIES.get(item["property"])
            if schema is None:
                continue
            try:
                check(item.get("value"), schema, f"{stringify_id(item['id'])}.{item['property']}")
            except WrongInput as wrong:
                return str(wrong)
    return None


def _wrong(error: Any) -> str:
    """What is wrong, without the value (which may be large)."""
    if error.validator == "required":
        return f"lacks {error.message.removesuffix(' is a required property')}"
    return WRONG.get(error.validator, "is not as the callback declares it")


WRONG = {
    "type": "is of the wrong kind",
    "minItems": "has fewer items than the callback declares",
    "maxItems": "has more items than the callback declares",
}


def call_schema(output: str, callback: dict[str, Any]) -> dict[str, object]:
    """The JSON Schema of a call of `callback` (an entry of Dash's callback map), whose key is
    `output`: the outputs, inputs and state exactly as it declares them, in order."""
    outputs = split_callback_id(output)
    required = ["output", "outputs", "inputs", "changedPropIds"]
    schema: dict[str, object] = {
        "type": "object",
        "required": required,
        "properties": {
            "output": {"const": output},
            "outputs": (
                _in_order([_slot(o, output=True) for o in outputs])
                if isinstance(outputs, list)
                else _slot(outputs, output=True)
            ),
            "inputs": _in_order([_slot(i) for i in callback["inputs"]]),
            "state": _in_order([_slot(s) for s in callback["state"]]),
            "changedPropIds": {"type": "array", "items": {"type": "string"}},
        },
    }
    if callback["state"]:
        required.append("state")
    return schema


def _in_order(slots: list[dict[str, object]]) -> dict[str, object]:
    exactly: dict[str, object] = {"type": "array", "minItems": len(slots), "maxItems": len(slots)}
    return {**exactly, "prefixItems": slots} if slots else exactly  # prefixItems: not empty


def _slot(spec: dict[str, str], output: bool = False) -> dict[str, object]:
    """One declared dependency: {"id", "property"} as sent; a list of them for a wildcard
    (ALL) id, the components the wildcard matched on the page."""
    prop = spec["property"]
    # An output may be named with or without the suffix Dash gives a duplicate output.
    named = {"enum": sorted({prop, clean_property_name(prop)})} if output else {"const": prop}
    if not spec["id"].startswith("{"):
        return _item({"const": spec["id"]}, named)
    pattern = json.loads(spec["id"])
    wild = {key for key, value in pattern.items() if isinstance(value, list)}
    item = _item(
        {
            "type": "object",
            "required": sorted(pattern),
            "additionalProperties": False,
            "properties": {
                key: {"type": ["string", "number", "boolean"]} if key in wild else {"const": value}
                for key, value in pattern.items()
            },
        },
        named,
    )
    if any(pattern[key] != ["MATCH"] for key in wild):
        return {"type": "array", "items": item}
    return item


def _item(id_schema: Mapping[str, object], prop_schema: Mapping[str, object]) -> dict[str, object]:
    return {
        "type": "object",
        "required": ["id", "property"],
        "properties": {"id": id_schema, "property": prop_schema},
    }


def on_error(messages: dict[str, str]):
    """Dash's `on_error` for the app: what a callback raises, said on its page. `messages`
    maps each callback (its output key) to its page's message element."""

    def said(error: Exception) -> None:
        if isinstance(error, WrongInput):
            raise error  # the request's fault: 400 (check_requests)
        if isinstance(error, (Refused, RulesError)):
            line = str(error)
        else:
            LOG.error("a dashboard callback failed", exc_info=error)
            line = FAULT
        output = str(flask.request.get_json()["output"])  # a call check_requests let through
        dash.set_props(messages.get(output, SHELL), {"children": line, "hidden": False})
        return None  # every output stays as it is

    return said
