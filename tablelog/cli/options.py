"""Options several commands share."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from click.decorators import FC

from tablelog.domain.errors import Refused
from tablelog.domain.plain import read_json
from tablelog.domain.quoting import quoted
from tablelog.files import SMALL, Given, check_folder, check_output, read_file, size_words

store_option = click.option(
    "--store",
    envvar="TABLELOG_STORE",
    metavar="PATH|URL",
    help="SQLite file or postgresql:// URL (default: tablelog.sqlite in the user data dir).",
)
R = TypeVar("R")

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def zone_option(help_text: str) -> Callable[[FC], FC]:
    """--zone, a time zone the zone database names (Europe/Berlin, UTC), checked as the command
    line is read: a name of 100 KB or a folder of the database ("America") is not opened."""
    return click.option("--zone", metavar="ZONE", callback=_known_zone, help=help_text)


def _known_zone(ctx: click.Context, param: click.Parameter, name: str | None) -> str | None:
    from zoneinfo import available_timezones

    if name is not None and (len(name) > 64 or name not in available_timezones()):
        raise Refused(f"--zone {quoted(name)} is not a time zone (e.g. Europe/Berlin, UTC)")
    return name


def parse_json(text: str, what: str, refusal: type[Refused] = Refused) -> Any:
    """JSON typed on the command line (or read from a file), or a one-line `refusal`. What the
    value may hold to be stored is checked by the recorder (tablelog.domain.matches.values)."""
    try:
        return read_json(text)
    except json.JSONDecodeError as err:
        raise refusal(
            f"{what} is not valid JSON ({err.msg} at column {err.colno}): {quoted(text)}"
        ) from None
    except ValueError:  # an integer of more than 4,300 digits: Python refuses to read it
        raise refusal(f"{what} holds a number of more than 4,300 digits") from None
    except RecursionError:
        raise refusal(f"{what} is nested too deep to read") from None


class InputFile(click.ParamType):
    """A file argument, read whole when the command line is read: at most `limit` bytes of a
    file or of standard input ("-"), else one line (tablelog/files.py)."""

    name = "file"

    def __init__(self, what: str, limit: int = SMALL) -> None:
        self.what, self.limit = what, limit

    def convert(
        self, value: str | Given, param: click.Parameter | None, ctx: click.Context | None
    ) -> Given:
        return value if isinstance(value, Given) else read_file(value, self.what, self.limit)


def read_text(given: Given, what: str, limit: int = SMALL) -> str:
    """The UTF-8 text of a file `InputFile` read, within `limit`, which may be below the bound
    it was read with (an import reads up to 256 MiB; a BG Stats file may hold less)."""
    if len(given.data) > limit:
        raise Refused(f"{what} {quoted(given.name)} is larger than {size_words(limit)}")
    return Given(given.name, given.data, what).text()


class OutputFile(click.ParamType):
    """A file to write ("-": standard output), checked before any work: its folder exists."""

    name = "file"

    def __init__(self, what: str) -> None:
        self.what = what

    def convert(self, value: str, param: click.Parameter | None, ctx: click.Context | None) -> str:
        return check_output(value, self.what)


class OutputFolder(click.ParamType):
    """A folder to write files into: an existing one, or a new one in an existing folder."""

    name = "directory"

    def __init__(self, what: str) -> None:
        self.what = what

    def convert(
        self, value: str | Path, param: click.Parameter | None, ctx: click.Context | None
    ) -> Path:
        return value if isinstance(value, Path) else check_folder(value, self.what)


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """`K=V` pairs; a value that reads as JSON (numbers, true, lists) is taken as such."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise Refused(f"--option takes KEY=VALUE, got {quoted(pair)}")
        try:
            options[key] = read_json(value)
        except json.JSONDecodeError:
            options[key] = value
        except (ValueError, RecursionError):  # 4,300+ digits, or nested too deep to read
            raise Refused(
                f"--option {quoted(key)}: the value is too large or nested too deep to read"
            ) from None
    return options


def echo_json(value: object) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def entering(command: Callable[..., R]) -> Callable[..., R]:
    """A write command's `--as NAME` (default: $TABLELOG_AS, else the OS user): every event it
    stores says it was entered by that name, at the command line (domain.matches.entering). Whoever
    holds the store's credentials is trusted, so the name is taken as given."""
    import functools

    from tablelog.domain.matches.entering import COMMAND_LINE, entering_as, os_user, person

    @click.option(
        "--as",
        "as_name",
        envvar="TABLELOG_AS",
        metavar="NAME",
        help="Who is entering this (default: the OS user); stored with the entry.",
    )
    @functools.wraps(command)
    def run(*args: object, as_name: str | None = None, **kwargs: object) -> R:
        name = os_user() if as_name is None or not as_name.strip() else as_name.strip()
        from tablelog.domain.recording.users import check_name

        with entering_as(person(check_name(name), None, COMMAND_LINE)):
            return command(*args, **kwargs)

    return run
