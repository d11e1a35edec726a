"""Hostile command lines (issue 42: 16 tracebacks among 499 fuzzed inputs), in process with
click's runner: the kept corpus and echo cases of tests/test_cli_corpus.py, then its fuzz of
commands with one hostile part (a file's content or place, an output's place, a typed value).

Counted: a traceback (an exception other than click's exit, or one printed); a refusal (exit 2)
that is not one `tablelog:` line of at most 400 characters; a command that failed (exit 2 or
worse) yet changed the store or left files behind."""

from __future__ import annotations

from pathlib import Path

from tests.rerun.tally import Tally, each_drawn, release
from tests.test_cli_corpus import CORPUS, ECHOES, LONGEST, Club, commands, invoke


def run(store: str, folder: Path, size: int) -> Tally:
    tally = Tally("command line").measures("tracebacks", "untidy", "stored_but_refused")
    place = folder / "club"
    place.mkdir()
    club = Club(store if store.startswith("postgresql") else str(place / "store.sqlite"), place)
    for case in [*CORPUS.values(), *[(echo, "") for echo in ECHOES.values()]]:
        judge(club, case[0](club), tally)

    def fuzzed(command: tuple[list[str], bytes | None]) -> None:
        args, content = command
        if content is not None:
            club.file("given", content)
        spelled = [club.match if a == "M" else a.replace("{folder}", str(place)) for a in args]
        judge(club, spelled, tally)

    each_drawn(commands(), size, fuzzed)
    return tally


# The numbers out of range (`simulate -n 10**40`, `serve --port -1`, `--sample -1`,
# `--players -5`, ...): every number a command takes, given values no command may take. None may
# be taken: `serve` with a port it takes would serve, and `simulate` a huge -n would play on.
NUMBERS = [
    ["simulate", "topitop", "--quiet", "-n"],
    ["simulate", "topitop", "--quiet", "-n", "2", "--workers"],
    ["simulate", "topitop", "--quiet", "-n", "2", "--players"],
    ["experiment", "humans", "topitop", "--sample"],
    ["experiment", "humans", "topitop", "--players"],
    ["experiment", "skill", "topitop", "--quiet", "-n"],
    ["experiment", "skill", "topitop", "--quiet", "--alpha"],
    ["experiment", "skill", "topitop", "--quiet", "--workers"],
    ["experiment", "skill", "topitop", "--quiet", "--up-to"],
    ["serve", "--port"],
    ["stats", "topitop", "--players"],
    ["show", "M", "--at"],
    ["solve", "--option", "small=N"],
    ["new", "topitop", "--players", "Ann,Ben", "--option", "large=N"],
]
OUT_OF_RANGE = ["-1", "-5", "1.5", "nan", "inf", "x", "", "1" + "0" * 40, "9" * 5000]


def numbers(store: str, folder: Path, size: int) -> Tally:
    """Every number a command takes given each value out of range (`size` is not used: the
    list is fixed)."""
    tally = Tally("command line: numbers").measures("tracebacks", "untidy", "stored_but_refused")
    place = folder / "club"
    place.mkdir()
    club = Club(store if store.startswith("postgresql") else str(place / "store.sqlite"), place)
    for template in NUMBERS:
        for value in OUT_OF_RANGE:
            spelled = [club.match if a == "M" else a.replace("=N", "=" + value) for a in template]
            judge(club, spelled if "=N" in "".join(template) else [*spelled, value], tally)
    return tally


def judge(club: Club, args: list[str], tally: Tally) -> None:
    before = club.state()
    result = invoke(club, args)
    release(club.location)
    tally.tried += 1
    said = f"tablelog {' '.join(a[:40] for a in args)}"
    if not isinstance(result.exception, SystemExit | None) or "Traceback" in result.output:
        tally.add("tracebacks", f"{said}: {result.exception!r}")
        return
    if result.exit_code in (0, 1):
        return  # done, or an audit or verification that answered "no"
    lines = result.stderr.splitlines()
    tidy = result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("tablelog: ")
    if not tidy or len(lines[0]) > LONGEST:
        tally.add("untidy", f"{said}: exit {result.exit_code}, {result.stderr[:200]!r}")
    if club.state() != before:
        tally.add("stored_but_refused", f"{said}: exit {result.exit_code}, the store changed")
