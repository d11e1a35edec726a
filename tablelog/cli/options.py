"""Options several commands share."""

from __future__ import annotations

import json
from typing import Any

import click

from tablelog.domain.errors import Refused

store_option = click.option(
    "--store", envvar="TABLELOG_STORE", metavar="PATH|URL",
    help="SQLite file or postgresql:// URL (default: tablelog.sqlite in the user data dir).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def parse_json(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise Refused(f"{what} is not valid JSON ({err.msg} at column {err.colno}): {text}") from None


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """`K=V` pairs; a value that reads as JSON (numbers, true, lists) is taken as such."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise Refused(f"--option takes KEY=VALUE, got {pair!r}")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, default=str))
