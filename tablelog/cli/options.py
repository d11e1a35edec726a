"""Options several commands share."""

from __future__ import annotations

import json
from typing import Any

import click

from tablelog.domain.errors import Refused

store_option = click.option(
    "--store",
    envvar="TABLELOG_STORE",
    metavar="PATH|URL",
    help="SQLite file or postgresql:// URL (default: tablelog.sqlite in the user data dir).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def parse_json(text: str, what: str) -> Any:
    """JSON typed on the command line (or read from a file), or a one-line Refused. What the
    value may hold to be stored is checked by the recorder (tablelog.domain.values)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise Refused(
            f"{what} is not valid JSON ({err.msg} at column {err.colno}): {_quoted(text)}"
        ) from None
    except ValueError:  # an integer of more than 4,300 digits: Python refuses to read it
        raise Refused(f"{what} holds a number of more than 4,300 digits") from None
    except RecursionError:
        raise Refused(f"{what} is nested too deep to read") from None


def read_text(file: Any, what: str, limit: int = 1 << 20) -> str:
    """A small UTF-8 text file (a setup), or a one-line Refused: not a traceback for bytes that
    are not UTF-8, nor all of a huge file read into memory."""
    data = file.read(limit + 1)
    if len(data) > limit:
        raise Refused(f"{what} is larger than {limit // 1024} KiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise Refused(f"{what} is not UTF-8 text (byte {err.start + 1} is not)") from None


def _quoted(text: str, limit: int = 120) -> str:
    """What the user typed, on one line and short."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
        except (ValueError, RecursionError):  # 4,300+ digits, or nested too deep to read
            raise Refused(
                f"--option {key}: the value is too large or nested too deep to read"
            ) from None
    return options


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, default=str))
