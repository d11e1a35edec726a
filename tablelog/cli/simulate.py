"""Commands that fill a store with bot-played matches: `simulate` and `demo`."""

from __future__ import annotations

import sys

import click

from . import main
from .options import InputFile, parse_options, store_option

INTERRUPTED = 130  # the shell's status for a run stopped by Ctrl-C


@main.command()
@click.argument("game")
@click.option(
    "-n",
    "--matches",
    "count",
    type=int,
    default=100,
    show_default=True,
    help="How many matches to play (at most 1,000,000).",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="The same seed (and arguments) plays the same matches.",
)
@click.option(
    "--players",
    type=int,
    metavar="K",
    help="Seats per match (default: one per bot given, else 2 or the game's count).",
)
@click.option(
    "--bots",
    default="random",
    show_default=True,
    metavar="BOT[,BOT...]",
    help="random or greedy: one for every seat, or one per seat in turn order.",
)
@click.option("--option", "option_pairs", multiple=True, metavar="K=V", help="A game option.")
@click.option(
    "--manifest-file",
    type=InputFile("the manifest file"),
    metavar="PATH",
    help="Play with the components this JSON file lists (a club's own, or `tune export`'s).",
)
@click.option(
    "--workers",
    type=int,
    metavar="W",
    help="Processes playing matches, at most one per core (default: one per core; 1 plays "
    "in-process).",
)
@click.option(
    "--cluster",
    metavar="tcp://HOST:PORT|local",
    help="Play on a Dask cluster: its scheduler's address, or local for a LocalCluster of "
    "--workers processes here (docs/simulation.md).",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@store_option
def simulate(
    game, count, seed, players, bots, option_pairs, manifest_file, workers, cluster, quiet, store
):
    """Play N matches of GAME between seeded bots and store them, like logged matches.

    Each match is dealt from the seed and match number (the whole deal goes into its start),
    every move goes through the same rules check and hash chain as a typed move, and the match
    is ended by its rules. Games that can loop end as a draw by agreement at a move cap:
    Topitop after 200 actions; any other game still running after 2,000 moves (reported).
    Seats are named after their bots: greedy-1, random-2...

    Ctrl-C stops the run: the matches already finished are stored whole, none half-written.
    The same command is the same matches (a match's id comes from the arguments and its
    number): run it again and it stores only the matches still missing, and says so.

    With --cluster, tasks of consecutive matches play on a Dask cluster; the same seed gives
    the same matches as here. A remote cluster needs a PostgreSQL store, which its workers write
    to; an SQLite store is written by this process alone (--cluster local).
    """
    from tablelog.simulation import check_workers, make_plan
    from tablelog.simulation import simulate as run
    from tablelog.store import open_recorder, store_location

    options = parse_options(option_pairs)
    components = None
    if manifest_file is not None:
        from pathlib import Path

        from tablelog.domain.games import manifests

        name = options.pop("manifest", None) or Path(manifest_file.name).stem
        components = {"name": name, "content": manifests.parse(manifest_file.data, name)}
    plan = make_plan(game, count, seed, players, bots, options, components)
    check_workers(workers)  # every argument checked before the store is opened
    if cluster is None:
        report = run(open_recorder(store), plan, workers=workers, progress=not quiet)
    else:
        from tablelog.simulation.cluster import check_cluster, connect

        location = store_location(store)
        check_cluster(cluster, location, workers)
        with connect(cluster, location, workers) as on:  # before the store: a bad address
            report = run(open_recorder(location), plan, progress=not quiet, cluster=on)
    click.echo(report.summary())
    if report.interrupted:
        sys.exit(INTERRUPTED)


@main.command()
@click.option("--quiet", is_flag=True, help="No progress bar.")
@store_option
def demo(quiet, store):
    """Build the demo store (a few hundred bot-played matches of every game, and matches that
    show every status) from a fixed seed, in a new store file."""
    from tablelog.demo import build_demo_store
    from tablelog.store import store_location

    try:
        build_demo_store(store_location(store), progress=not quiet, log=click.echo)
    except KeyboardInterrupt:
        click.echo("interrupted: no demo store was built", err=True)
        sys.exit(INTERRUPTED)
