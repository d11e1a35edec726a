"""The command line and the Recorder cover exactly the command table's write commands
(tablelog.domain.commands), each in the table's words."""

from __future__ import annotations

import ast
from pathlib import Path

import click

from tablelog import cli
from tablelog.cli import WRITE_COMMANDS, main
from tablelog.domain.commands import BY_NAME, COMMANDS
from tablelog.domain.recording.recorder import Recorder


def test_the_command_line_has_a_write_command_for_every_row_and_no_other():
    assert set(WRITE_COMMANDS) == set(BY_NAME)
    for command in COMMANDS:
        made = main.commands[command.cli]
        assert made is WRITE_COMMANDS[command.name]
        assert (made.help or "").startswith(command.does), command.cli
        with click.Context(made, info_name=command.cli) as context:
            short = made.get_short_help_str(limit=200)
            assert command.does.startswith(short.rstrip(".")), (short, command.does)
            assert "--as" in made.get_help(context)  # a write says who entered it


def test_the_recorder_has_a_method_for_every_row_and_no_other():
    marked = {
        getattr(Recorder, name).__command__: name
        for name in dir(Recorder)
        if hasattr(getattr(Recorder, name, None), "__command__")
    }
    assert marked == {name: name for name in BY_NAME}
    for command in COMMANDS:
        assert (getattr(Recorder, command.name).__doc__ or "").startswith(command.does)


def test_every_command_line_function_that_runs_a_command_is_its_write_command():
    """A write made with a plain `main.command` would escape the table: every function in
    tablelog/cli that calls `recorder.<command>(...)` is the callback of that command's
    `write_command`."""
    callers: dict[str, set[str]] = {}
    for file in Path(cli.__file__).parent.glob("*.py"):
        for function in ast.walk(ast.parse(file.read_text())):
            if not isinstance(function, ast.FunctionDef):
                continue
            for call in ast.walk(function):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and isinstance(call.func.value, ast.Name)
                    and call.func.value.id == "recorder"
                    and call.func.attr in BY_NAME
                ):
                    callers.setdefault(call.func.attr, set()).add(function.name)
    made = {name: {getattr(it.callback, "__name__", "")} for name, it in WRITE_COMMANDS.items()}
    assert callers == made
