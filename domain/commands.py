"""The write commands, each described once: the table the three ways of writing read.

The API's write routes (tablelog/api/routes.py), the Recorder's command methods (recorder.py)
and the command line's write commands (tablelog/cli) take from here what a command is called,
what it does in one line, and what its parameters mean; each adds only what is its own (the
route's path and answers, the command's output). Who may run a command is the role matrix's
(`tablelog.gate.ACTIONS`, keyed by `action`): the table names the action, not the role, so the
matrix stays the one place roles are said. A new write command is a row here, a Recorder method
with `@described`, a route and a command (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from inspect import cleandoc
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])

# A parameter's kind, as a person gives it: words, several names, a JSON value, yes/no, a time.
KINDS = ("text", "names", "json", "flag", "time")


@dataclass(frozen=True)
class Param:
    """One parameter: its name (the API body's field), kind, whether it must be given, and
    what it means."""

    name: str
    kind: str
    required: bool
    help: str


@dataclass(frozen=True)
class Command:
    """One write: the Recorder method it calls (`name`), the command line's command, the role
    matrix's action, its title, what it does in one line, and its parameters (the match and the
    version an entry was made against are every in-match command's, and not listed)."""

    name: str
    cli: str
    action: str
    title: str
    does: str
    params: tuple[Param, ...]

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)

    def help(self, name: str) -> str:
        """The help text of parameter `name`, for a command line option or a schema field."""
        return self.param(name).help


def _p(name: str, kind: str, help: str, required: bool = True) -> Param:
    return Param(name, kind, required, help)


_BY = "by"
COMMANDS: tuple[Command, ...] = (
    Command(
        "start",
        "new",
        "start a match",
        "Start a match",
        "Start a match of a game for its players, checked by the game's rules.",
        (
            _p("game", "text", "The game's id, as `tablelog games` lists it."),
            _p("players", "names", "Player names in turn order."),
            _p("options", "json", "Game options; missing ones take their defaults.", False),
            _p("setup", "json", "The known setup (deal, layout, hands).", False),
            _p("manifest", "json", "A club's own components, stored in the match.", False),
            _p("played_at", "time", "When the game was played, if logged afterwards.", False),
        ),
    ),
    Command(
        "start_sheet",
        "sheet",
        "log a score sheet",
        "Log a match from its score sheet",
        "Log a match from its score sheet, checked whole: a refusal names the seat and field "
        "and stores nothing.",
        (
            _p("game", "text", "The game's id, as `tablelog games` lists it."),
            _p("players", "names", "Player names in seat (turn) order."),
            _p(
                "sheet",
                "json",
                "The sheet: each seat's total and categories, winners, who "
                "started, how long, where (docs/interop.md).",
            ),
            _p("options", "json", "Game options (the variant played).", False),
            _p("played_at", "time", "When the game was played.", False),
        ),
    ),
    Command(
        "record",
        "move",
        "record a move",
        "Record a move",
        "Record one move, checked against the rules; a refused move stores nothing.",
        (
            _p("seat", "text", "The player making the move."),
            _p("move", "json", "The move in the game's own vocabulary (docs/games/<game>.md)."),
        ),
    ),
    Command(
        "undo",
        "undo",
        "undo a move",
        "Withdraw the most recent move",
        "Withdraw the most recent effective move (recorded as an event; nothing is deleted).",
        (_p(_BY, "text", "Who withdraws the move."), _p("reason", "text", "Why.")),
    ),
    Command(
        "claim",
        "claim",
        "claim a result",
        "Record the result claimed at the table",
        "Record the result the players wrote down (checked later by the audit, never edited).",
        (
            _p(_BY, "text", "Who claims this result."),
            _p("scores", "json", "The scores written down at the table, by player name."),
        ),
    ),
    Command(
        "dispute",
        "dispute",
        "raise a dispute",
        "Raise a dispute",
        "Record a dispute about the match; it stays open until resolved.",
        (_p(_BY, "text", "Who raises the dispute."), _p("about", "text", "What is disputed.")),
    ),
    Command(
        "resolve",
        "resolve",
        "resolve a dispute",
        "Rule on the oldest open dispute",
        "Record the ruling on the oldest open dispute.",
        (
            _p(_BY, "text", "Who rules (an umpire, the organiser)."),
            _p("ruling", "text", "The ruling."),
        ),
    ),
    Command(
        "end",
        "end",
        "end a match",
        "End the match",
        "Close a match whose game is over by the rules (or agree a draw).",
        (
            _p(
                "draw",
                "flag",
                "End a game the rules have not decided as a draw by agreement.",
                False,
            ),
        ),
    ),
    Command(
        "abandon",
        "abandon",
        "abandon a match",
        "Abandon the match",
        "Close an unfinished match without a result.",
        (_p(_BY, "text", "Who abandons the match."), _p("reason", "text", "Why.")),
    ),
)
BY_NAME: dict[str, Command] = {command.name: command for command in COMMANDS}


def command(name: str) -> Command:
    """The command the Recorder method `name` runs."""
    return BY_NAME[name]


def said(name: str, *more: str | None) -> str:
    """Command `name`'s line, then what a surface says of its own (paragraphs)."""
    return "\n\n".join([command(name).does, *(cleandoc(m) for m in more if m and m.strip())])


def described(name: str) -> Callable[[F], F]:
    """Mark the Recorder method that runs command `name`: its docstring starts with the
    command's line, and `__command__` names the row (a test checks every row has one)."""

    def mark(method: F) -> F:
        method.__doc__ = said(name, method.__doc__)
        method.__command__ = name  # type: ignore[attr-defined]
        return method

    return mark
