"""Running the `tablelog` command in-process (click's runner: the same code as the installed
command, without a new interpreter per call), and the interop fixture files."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tablelog.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "interop"
BGSTATS = FIXTURES / "bgstats.json"
BGG = FIXTURES / "bgg.xml"


def tablelog(store: str, *args: str):
    """(exit code, stdout, stderr) of `tablelog ARGS --store STORE`."""
    result = CliRunner().invoke(main, [*args, "--store", store], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr
