"""The `tablelog` command line (click). Every module in this package adds its commands to `main`
when imported; modules keep heavy imports (pandas, dash) inside their commands so that
`tablelog move` starts fast.

Refusals (an illegal move, an unknown match, bad JSON, a wrong seat...) print one line on stderr
and exit with status 2; nothing is stored.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable
from typing import NoReturn

import click

from tablelog.domain.commands import command, said
from tablelog.domain.errors import Refused
from tablelog.domain.games import GAMES, RulesError
from tablelog.domain.quoting import QUOTE_LIMIT


class TablelogGroup(click.Group):
    def invoke(self, ctx: click.Context):
        printable_output()
        try:
            return super().invoke(ctx)
        except (Refused, RulesError) as err:
            refuse(str(err))
        except click.UsageError as err:
            # click prints usage, a hint and the error on three lines; a refusal is one line,
            # naming the command whose --help explains it.
            path = err.ctx.command_path.split()[1:] if err.ctx else []
            refuse(f"{clipped(err.format_message())} (see {' '.join(['tablelog', *path])} --help)")
        except click.ClickException as err:  # "Could not open file", and click's others
            refuse(clipped(err.format_message()))
        except Exception as err:
            from tablelog.store import UNREACHABLE, damaged_file, unreachable  # drivers: now

            if isinstance(err, UNREACHABLE):
                refuse(unreachable(err))
            damaged = damaged_file(err)
            if damaged is not None:
                refuse(damaged)
            raise


def printable_output() -> None:
    """Paths and names typed with bytes that are not UTF-8 arrive as lone surrogates, and a
    command may print them back ("DIR/matches.csv: 12 rows"): written as backslash escapes,
    not a UnicodeEncodeError after the work is done."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def refuse(message: str) -> NoReturn:
    """The one line of a refusal, on stderr, and exit status 2: nothing was stored."""
    click.echo(f"tablelog: {one_line(message)}", err=True)
    sys.exit(2)


def one_line(message: str) -> str:
    """A refusal as one printable line: a reason may quote what was typed, newlines and all,
    and undecodable bytes from argv arrive as lone surrogates, which no terminal can print."""
    message = " ".join(message.split())
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


def clipped(message: str) -> str:
    """click's own messages quote a value whole ("'xxx...' is not a valid integer"): each
    word of one is cut as `quoted` cuts what our refusals quote, and the whole at five
    times that (a value of many short words)."""
    message = " ".join(
        word if len(word) <= QUOTE_LIMIT else word[:QUOTE_LIMIT] + "..." for word in message.split()
    )
    return message if len(message) <= 5 * QUOTE_LIMIT else message[: 5 * QUOTE_LIMIT] + "..."


@click.group(cls=TablelogGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tablelog")
def main() -> None:
    """Record tabletop matches move by move, replay them, and analyse scoring balance.

    Games: {games}. The store is an SQLite file (see --store on each command, or
    $TABLELOG_STORE).
    """


# Every registered game, as the registry finds them (a game of another distribution too).
main.help = (main.help or "").replace("{games}", ", ".join(GAMES))

# The write commands by the Recorder method they run (tablelog.domain.commands): each made by
# `write_command`, so that a test finds the command line covers the table's every row.
WRITE_COMMANDS: dict[str, click.Command] = {}


def write_command(
    name: str, **settings: object
) -> Callable[[Callable[..., object]], click.Command]:
    """`main.command` for the write command `name`: the command table gives its name and the
    first line of its help; the function's docstring adds what the command line says of its
    own."""

    def make(function: Callable[..., object]) -> click.Command:
        made = main.command(name=command(name).cli, help=said(name, function.__doc__), **settings)(
            function
        )
        WRITE_COMMANDS[name] = made
        return made

    return make


for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
