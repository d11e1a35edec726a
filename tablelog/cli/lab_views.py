"""`tablelog experiment list | show | cancel | restrictions | humans`: what the lab already
knows, and stopping what it is doing."""

from __future__ import annotations

import click

from .lab import experiment, report_text
from .options import echo_json, json_option, store_option


@experiment.command("list")
@click.option("--game", metavar="GAME", help="Only this game's experiments.")
@json_option
@store_option
def list_experiments(game, as_json, store):
    """The experiments stored, newest first."""
    from tablelog.lab.store import LabStore
    from tablelog.store import open_recorder

    found = LabStore(open_recorder(store)).all(game)
    if as_json:
        echo_json(
            [
                {k: e[k] for k in ("id", "created", "game", "kind", "status", "state")}
                | {"matches": e["stored"]}
                for e in found
            ]
        )
        return
    for e in found:
        arms = ", ".join(a["name"] for a in e["definition"]["arms"])
        click.echo(
            f"{e['id'][:8]}  {e['created']}  {e['game']:<17} {e['kind']:<11} "
            f"{e['state']:<36}  {arms}"
        )


@experiment.command()
@click.argument("experiment_id")
@json_option
@store_option
def show(experiment_id, as_json, store):
    """One experiment: its definition, its matches and its report."""
    from tablelog.lab.store import LabStore
    from tablelog.store import open_recorder

    found = LabStore(open_recorder(store)).get(experiment_id)
    if as_json:
        echo_json(found)
        return
    click.echo(f"experiment {found['id']} ({found['kind']}, {found['game']}, {found['state']})")
    if found["report"]:
        click.echo(report_text(found["report"]))


@experiment.command()
@click.argument("experiment_id")
@store_option
def cancel(experiment_id, store):
    """Stop a running experiment, whichever process runs it (this machine's command line, or
    `tablelog serve` on the same store); the matches stored so far are kept, whole."""
    from tablelog.lab.store import LabStore
    from tablelog.store import open_recorder

    found, answered = LabStore(open_recorder(store)).cancel(experiment_id)
    if not answered:
        click.echo(
            "no process answered for it (it was no longer running): marked cancelled", err=True
        )
    click.echo(f"experiment {found['id'][:8]}: {found['state']}")


@experiment.command()
@click.argument("game")
def restrictions(game):
    """The restrictions GAME declares for restricted play."""
    from tablelog.domain.restrictions import restrictions as declared

    for name, rule in declared(game).items():
        click.echo(f"{name:<24} {rule.description}")


@experiment.command()
@click.argument("game")
@click.option(
    "--players",
    type=int,
    metavar="K",
    help="Player count (default: the most common among the human matches).",
)
@click.option(
    "--variant",
    metavar="V",
    help="Variant, by its stored options as `tablelog stats --json` gives them.",
)
@click.option(
    "--sample",
    type=int,
    default=30,
    show_default=True,
    help="Matches per side replayed to count branching (0-500).",
)
@json_option
@store_option
def humans(game, players, variant, sample, as_json, store):
    """GAME's recorded human matches beside its bot matches, on every metric."""
    from tablelog.lab.humans import check, humans_vs_bots
    from tablelog.store import open_recorder

    check(game, players, sample)  # before the store is opened: a refusal leaves no file behind
    report = humans_vs_bots(open_recorder(store), game, players, variant, sample)
    if as_json:
        echo_json(report)
        return
    click.echo(report_text(report))
