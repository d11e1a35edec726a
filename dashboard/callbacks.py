"""What a callback takes, declared beside it: `@takes(players=kinds.TEXT, version=kinds.COUNT)`
checks each named argument against its kind, a JSON Schema (`dashboard/kinds.py`), before the
callback runs (the values arrive as JSON, from a browser or from anyone who can reach
`/_dash-update-component`). A value of the wrong kind is `WrongInput`, which the endpoint
answers with 400 and one line (`dashboard/endpoint.py`): the page never sends one, so it is a
forged or broken request, and nothing runs on it.

Every argument a callback uses is declared (those it leaves alone start with `_`): `takes`
refuses, when the app is built, a callback whose used arguments are not all declared.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from dash import callback_context
from dash._utils import stringify_id
from dash.exceptions import MissingCallbackContextException
from jsonschema import Draft202012Validator

from . import kinds

F = TypeVar("F", bound=Callable[..., Any])


class WrongInput(ValueError):
    """A callback's argument is not of the kind the page sends; the message is one line."""


def takes(**schemas: dict[str, Any]) -> Callable[[F], F]:
    """Check the named arguments of the decorated callback against their schemas (in this
    module's words); put it under `@app.callback`."""
    for name, schema in schemas.items():
        if "description" not in schema:  # a value's kind in words, for the refusal
            raise TypeError(f"{name}: {schema!r} is not one of dashboard/kinds.py")
    validators = {name: validator(schema) for name, schema in schemas.items()}

    def decorate(func: F) -> F:
        signature = inspect.signature(func)
        used = {name for name in signature.parameters if not name.startswith("_")}
        if used != set(schemas):
            raise TypeError(
                f"{func.__qualname__} must declare what each argument it uses takes: "
                f"undeclared {sorted(used - set(schemas))}, unknown {sorted(set(schemas) - used)}"
            )

        @functools.wraps(func)
        def checked(*args: Any, **kwargs: Any) -> Any:
            given = signature.bind(*args, **kwargs)
            for index, (name, value) in enumerate(given.arguments.items()):
                validator = validators.get(name)
                if validator is not None and not validator.is_valid(value):
                    raise WrongInput(
                        f"{_sent_as(index, name)} must be {schemas[name]['description']}"
                    )
            return func(*args, **kwargs)

        checked.takes = schemas  # type: ignore[attr-defined]  # read by the tests
        return checked  # type: ignore[return-value]

    return decorate


def validator(schema: dict[str, Any]) -> Draft202012Validator:
    """A validator of `schema` that asserts the formats of `kinds.FORMATS`."""
    return Draft202012Validator(schema, format_checker=kinds.FORMATS)


def check(value: Any, schema: dict[str, Any], where: str) -> None:
    """`WrongInput` unless `value` (which the request named as `where`) is of the kind."""
    if not validator(schema).is_valid(value):
        raise WrongInput(f"{where} must be {schema['description']}")


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
