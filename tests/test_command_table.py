"""The command line and the Recorder cover exactly the command table's write commands
(tablelog.domain.commands), each in the table's words."""

from __future__ import annotations

import click

from tablelog.cli import WRITE_COMMANDS, main
from tablelog.domain.commands import BY_NAME, COMMANDS
from tablelog.domain.recorder import Recorder


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
