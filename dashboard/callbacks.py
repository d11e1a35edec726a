"""What a callback takes, declared beside it: `@takes(players=kinds.TEXT, version=kinds.COUNT)`
checks each named argument against its kind, a JSON Schema (`dashboard/kinds.py`), before the
callback runs (the values arrive as JSON, from a browser or from anyone who can reach
`/_dash-update-component`). A value of the wrong kind is `WrongInput`, which the endpoint
answers with 400 and one line (`dashboard/endpoint.py`): the page never sends one, so it is a
forged or broken request, and nothing runs on it.

Every argument a callback uses is declared (those it leaves alone start with `_`; a callback's
`*args` take `@takes(*kinds_in_order)`): `takes` refuses, when the app is built, a callback
whose used arguments are not all declared. `check(value, kind, where)` is the same check for a
value a callback reads from Dash's context (the id of the button tapped).
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from dash import callback_context
from dash._utils import stringify_id
from dash.exceptions import MissingCallbackContextException
from jsonschema import Draft202012Validator

from tablelog.domain.plain import PlainMapping

from . import kinds

F = TypeVar("F", bound=Callable[..., object])


class WrongInput(ValueError):
    """A callback's argument is not of the kind the page sends; the message is one line."""


def takes(*in_order: PlainMapping, **named: PlainMapping) -> Callable[[F], F]:
    """Check the named arguments of the decorated callback against their kinds (`kinds`), and
    the values of its `*args`, if it has them, against `in_order`, one by one; put it under
    `@app.callback`."""
    for name, schema in [*named.items(), *enumerate(in_order)]:
        if "description" not in schema:  # a value's kind in words, for the refusal
            raise TypeError(f"{name}: {schema!r} is not a kind of dashboard/kinds.py")

    def decorate(func: F) -> F:
        signature = inspect.signature(func)
        rest = [p.name for p in signature.parameters.values() if p.kind is p.VAR_POSITIONAL]
        used = {n for n in signature.parameters if not n.startswith("_") and n not in rest}
        if used != set(named) or bool(in_order) != any(not n.startswith("_") for n in rest):
            raise TypeError(
                f"{func.__qualname__} must declare what each argument it uses takes: "
                f"undeclared {sorted(used - set(named))}, unknown {sorted(set(named) - used)}"
            )
        kinds_by_name = {**named, **{name: in_order for name in rest}}

        @functools.wraps(func)
        def checked(*args: object, **kwargs: object) -> object:
            values = signature.bind(*args, **kwargs).arguments.items()
            index = 0
            for name, value in values:
                for one, kind in _each(name in rest, value, kinds_by_name.get(name)):
                    if kind is not None and not validator(kind).is_valid(one):
                        raise _wrong(_sent_as(index, name), kind)
                    index += 1
            return func(*args, **kwargs)

        checked.declared = True  # type: ignore[attr-defined]  # for `undeclared`
        return checked  # type: ignore[return-value]

    return decorate


def undeclared(callback_map: Mapping[str, Mapping[str, object]]) -> list[str]:
    """The outputs of callbacks in an app's `callback_map` that are not under `@takes` (Dash's
    own, which run in the browser only, have no Python function and are left out)."""
    missing = []
    for output, entry in callback_map.items():
        func = entry.get("callback")
        while func is not None and not getattr(func, "declared", False):
            func = getattr(func, "__wrapped__", None)
        if func is None and entry.get("callback") is not None:
            missing.append(output)
    return missing


def _each(spread: bool, value: Any, kind: Any) -> list[tuple[Any, Any]]:
    """(value, kind) pairs of one parameter: the items of `*args`, or the one value."""
    if spread:
        return list(zip(value, kind, strict=True))
    return [(value, kind)]


@functools.cache
def _validator(text: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(text), format_checker=kinds.FORMATS)


def validator(schema: PlainMapping) -> Draft202012Validator:
    """A validator of `schema` that asserts the formats of `kinds.FORMATS` (made once)."""
    return _validator(json.dumps(schema, sort_keys=True))


def check(value: object, schema: PlainMapping, where: str) -> None:
    """`WrongInput` unless `value` (which the request named as `where`) is of the kind."""
    if not validator(schema).is_valid(value):
        raise _wrong(where, schema)


def _wrong(where: str, schema: PlainMapping) -> WrongInput:
    return WrongInput(f"{where} must be {schema['description']}")


def _sent_as(index: int, name: str) -> str:
    """The argument as the request named it (`record-players.value`): Dash passes a callback
    its inputs, then its state, in order. Outside a request (a test calling the callback), or
    for a wildcard's list of components: the argument's name."""
    try:
        sent = [*callback_context.inputs_list, *callback_context.states_list]
    except MissingCallbackContextException:
        return name
    slot = sent[index] if index < len(sent) else None
    if isinstance(slot, dict):
        return f"{stringify_id(slot['id'])}.{slot['property']}"
    return name
