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

import click

from tablelog.domain.errors import Refused
from tablelog.domain.games import RulesError


class TablelogGroup(click.Group):
    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (Refused, RulesError) as err:
            click.echo(f"tablelog: {one_line(str(err))}", err=True)
            sys.exit(2)
        except click.UsageError as err:
            # click prints usage, a hint and the error on three lines; a refusal is one line.
            command = err.ctx.command_path if err.ctx else "tablelog"
            click.echo(
                f"{command}: {one_line(err.format_message())} (see {command} --help)", err=True
            )
            sys.exit(err.exit_code)


def one_line(message: str) -> str:
    """A refusal as one printable line: a reason may quote what was typed, newlines and all,
    and undecodable bytes from argv arrive as lone surrogates, which no terminal can print."""
    message = " ".join(message.split())
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


@click.group(cls=TablelogGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tablelog")
def main() -> None:
    """Record tabletop matches move by move, replay them, and analyse scoring balance.

    Games: topiary, total-landscaping, topas, geoshapes, topitop. The store is an SQLite file
    (see --store on each command, or $TABLELOG_STORE).
    """


for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
