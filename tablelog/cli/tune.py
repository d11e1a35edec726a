"""`tablelog tune`: the balance tuner (docs/tune.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from . import main
from .options import echo_json, store_option

INTERRUPTED = 130


class TuneGroup(click.Group):
    """`tablelog tune GAME ...` starts a study; `list`, `show`, `export`, `cancel` read one."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        resuming = "--resume" in args or any(a.startswith("--resume=") for a in args)
        if args and (resuming or not args[0].startswith("-")) and args[0] not in self.commands:
            args = ["start", *args]
        return super().parse_args(ctx, args)


@main.group(cls=TuneGroup)
def tune() -> None:
    """Search a game's variants for the fairest seats, and confirm the best on seeds it never
    saw: tablelog tune GAME [options] (see tablelog tune start --help), or list, show ID,
    export ID -o FILE, cancel ID."""


@tune.command("start")
@click.argument("game", required=False)
@click.option("--space", "space_file", type=click.Path(dir_okay=False), help="A SPACE.json.")
@click.option("--objective", type=click.Choice(["balance"]), default="balance", show_default=True)
@click.option("--also", help="Further objectives: decisiveness,length,drawishness.")
@click.option("--players", help="Player counts, e.g. 2,3,4 (default: every count).")
@click.option("--bots", default="greedy", show_default=True)
@click.option(
    "--trials", type=int, help="Candidates to play (default 30; with --resume: a new number)."
)
@click.option(
    "--matches-per-trial", "top", type=int, default=1600, show_default=True,
    help="Matches per player count at the last rung (the rungs: a 16th, a quarter, all).",
)  # fmt: skip
@click.option("--budget", type=int, help="The most matches the search may spend.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--confirm-seeds", help="The confirmation's seed sets, e.g. 7171,1717.")
@click.option("--confirm-matches", type=int, default=2000, show_default=True)
@click.option("--workers", type=int, default=1, show_default=True)
@click.option("--cluster", metavar="tcp://HOST:PORT|local")
@click.option("--resume", "resume_id", metavar="ID", help="Continue an interrupted study.")
@click.option("--yes", is_flag=True, help="Start even when the estimate runs past an hour.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@store_option
def start(game: str | None, **given: Any) -> None:
    """Start (or --resume) a study of GAME and report it."""
    from tablelog.domain.errors import Refused
    from tablelog.tune.command import run_command

    if game is None and not given.get("resume_id"):
        raise Refused("name the GAME to tune, or --resume ID")

    code = run_command(game or "", given, click.echo)
    if code:
        sys.exit(code)


@tune.command("list")
@store_option
def list_studies(store: str | None) -> None:
    """The studies in the store."""
    from tablelog.tune.command import listed

    for line in listed(store):
        click.echo(line)


@tune.command("show")
@click.argument("study_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@store_option
def show(study_id: str, as_json: bool, store: str | None) -> None:
    """A study's report: best variant, its balance, its confirmation, matches spent."""
    from tablelog.tune.command import report_of
    from tablelog.tune.report import lines

    report = report_of(store, study_id)
    if as_json:
        echo_json(report)
    else:
        for line in lines(report):
            click.echo(line)


@tune.command("export")
@click.argument("study_id", metavar="ID")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False))
@store_option
def export(study_id: str, output: str, store: str | None) -> None:
    """Write the winning variant's manifest (tablelog new/simulate --manifest-file FILE)."""
    from tablelog.tune.command import exported_variant

    variant = exported_variant(store, study_id)
    if variant["manifest"] is not None:
        Path(output).write_text(json.dumps(variant["manifest"], indent=1, ensure_ascii=False))
    else:
        Path(output).write_text(json.dumps(variant["options"], indent=1))
    flags = " ".join(f"--option {k}={json.dumps(v)}" for k, v in variant["options"].items())
    with_flags = f"; play it with {flags}" if flags else ""
    click.echo(f"{output}: candidate {variant['trial']}{with_flags}")


@tune.command("cancel")
@click.argument("study_id", metavar="ID")
@store_option
def cancel(study_id: str, store: str | None) -> None:
    """Stop a running study after its current rung; its finished trials are kept."""
    from tablelog.tune.storage import storage_url
    from tablelog.tune.study import cancel as cancel_study

    cancel_study(storage_url(store), study_id)
    click.echo(f"study {study_id}: asked to stop")
