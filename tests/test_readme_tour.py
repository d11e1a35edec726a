"""The README's tour, run as a newcomer pastes it: every ```bash block of "## A tour", in order,
in one shell, in a new home directory (so the default store is new), with the installed
`tablelog` on the PATH. Each command must succeed, or, where the README shows the refusal under
it (`# tablelog: REASON`), exit with status 2 printing exactly that line. A block the test
cannot run (it needs a server running) is marked `<!-- not in the tour test: WHY -->`; its
`tablelog` commands are still parsed by the real command line, so their options cannot drift.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click
import pytest

from tablelog.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"
SKIP = re.compile(r"<!-- not in the tour test: (.+?) -->")
EXIT = re.compile(r"#.*\bexit status (\d)\b")


@dataclass(frozen=True)
class Command:
    line: int  # in README.md, 1-based
    text: str  # continuation lines joined
    status: int  # the exit status the README promises
    refusal: str | None  # the one line on stderr the README shows under it
    skipped: str | None  # why its block is not run


def tour_lines(text: str) -> list[tuple[int, str]]:
    """The lines of the section "## A tour", numbered as in the file."""
    lines = list(enumerate(text.splitlines(), start=1))
    start = next(i for i, (_, line) in enumerate(lines) if line == "## A tour")
    end = next(
        (i for i, (_, line) in enumerate(lines) if i > start and line.startswith("## ")),
        len(lines),
    )
    return lines[start:end]


def tour_commands(text: str) -> list[Command]:
    commands: list[Command] = []
    block: list[tuple[int, str]] | None = None
    skipped: str | None = None
    previous = ""
    for number, line in tour_lines(text):
        if block is None:
            if line == "```bash":
                block = []
                skipped = (SKIP.search(previous) or [None, None])[1]
            elif line.strip():
                previous = line
            continue
        if line == "```":
            commands += _commands(block, skipped)
            block, previous = None, ""
        else:
            block.append((number, line))
    return commands


def _commands(block: list[tuple[int, str]], skipped: str | None) -> list[Command]:
    """A block's commands: continuation lines joined; a `# tablelog: ...` comment right under a
    command is the refusal it meets; other comment lines are the reader's."""
    commands: list[Command] = []
    pending: list[str] = []
    first = last = 0
    for number, line in block:
        if pending:
            pending.append(line)
        elif line.lstrip().startswith("#"):
            if line.startswith("# tablelog: ") and commands and commands[-1].line == last:
                commands[-1] = Command(last, commands[-1].text, 2, line[2:], skipped)
            continue
        else:
            pending, first = [line], number
        if not line.endswith("\\"):
            text = "\n".join(pending)
            found = EXIT.search(text)
            commands.append(Command(first, text, int(found[1]) if found else 0, None, skipped))
            pending, last = [], number
    return commands


def shell_script(commands: list[Command], out: Path) -> str:
    """One bash script running the commands in order in one shell (so `M=$(...)` carries on),
    each command's output and exit status kept apart."""
    parts = ["set -u"]
    for n, command in enumerate(commands):
        parts.append(
            f'{{\n{command.text}\n}} >"{out}/{n}.out" 2>"{out}/{n}.err"; echo $? >"{out}/{n}.rc"'
        )
    return "\n".join(parts) + "\n"


@pytest.fixture(scope="module")
def tour() -> list[Command]:
    return tour_commands(README.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_the_tour_runs_from_start_to_finish_as_written(tour, tmp_path):
    run = [c for c in tour if c.skipped is None]
    home, work, out = tmp_path / "home", tmp_path / "work", tmp_path / "out"
    for folder in (home, work, out):
        folder.mkdir()
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "tablelog").exists(), "the tour needs the installed `tablelog` command"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "TABLELOG_"))}
    env.update(HOME=str(home), PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}")
    script = tmp_path / "tour.sh"
    script.write_text(shell_script(run, out))
    subprocess.run(["bash", str(script)], cwd=work, env=env, check=True, timeout=3600)
    wrong = []
    for n, command in enumerate(run):
        status = int((out / f"{n}.rc").read_text())
        err = (out / f"{n}.err").read_text()
        refused = err.strip() == command.refusal if command.refusal else True
        if status != command.status or not refused:
            wrong.append(
                f"README.md:{command.line}: {command.text}\n  exit status {status} "
                f"(the README says {command.status}); stderr: {err.strip()[-600:]}"
            )
    assert not wrong, "\n".join(wrong)


def test_the_tour_walks_through_what_a_newcomer_needs(tour):
    """The run covers recording, refusing, undoing, settling, ending, receipts and moving
    records: a tour trimmed to nothing, or hidden from this test, fails here."""
    run = [c for c in tour if c.skipped is None]
    used = {name for c in run for name in re.findall(r"\btablelog ([a-z-]+)", c.text)}
    assert {"new", "move", "undo", "show", "score", "claim", "dispute", "resolve", "audit"} <= used
    assert {"end", "export", "import", "verify", "simulate", "stats", "sheet"} <= used
    assert any(c.refusal for c in run)  # a refused entry, shown as it is refused
    assert len(run) >= 30 and sum(c.skipped is not None for c in tour) <= 8


@pytest.mark.filterwarnings("ignore:'protected_args' is deprecated")
def test_the_blocks_left_out_still_parse_as_real_commands(tour):
    left_out = [c for c in tour if c.skipped is not None]
    assert left_out and all(c.skipped.strip() for c in left_out)
    for command in left_out:
        words = shlex.split(command.text.replace("\\\n", " "), comments=True)
        if words[:1] == ["tablelog"]:
            _parse(words[1:])


def _parse(args: list[str]) -> None:
    """Parse the arguments as the real command line would, without running anything."""
    ctx = main.make_context("tablelog", list(args), resilient_parsing=False)
    group: click.Group = main
    rest = [*ctx.protected_args, *ctx.args]
    while True:
        name, command, rest = group.resolve_command(ctx, rest)
        assert command is not None, f"no command {name}"
        ctx = command.make_context(name, rest, parent=ctx)
        if not isinstance(command, click.Group):
            return
        group, rest = command, [*ctx.protected_args, *ctx.args]
