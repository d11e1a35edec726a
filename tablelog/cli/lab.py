"""`tablelog experiment`: the balance lab on the command line (docs/lab.md).

tablelog experiment variants topiary --a last_player_chooses=false --b last_player_chooses=true
tablelog experiment restriction topiary never-place-swan --agent greedy -n 300
tablelog experiment skill topitop --up-to 64 -n 20
tablelog experiment restrictions topiary       # what the game declares
tablelog experiment humans topitop             # recorded matches beside bot-played ones
tablelog experiment list | show ID | cancel ID
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Mapping
from uuid import uuid4

import click

from . import main
from .options import echo_json, json_option, parse_options, store_option
from .simulate import INTERRUPTED

common = [
    click.option(
        "--agent",
        default="random",
        show_default=True,
        metavar="AGENT",
        help="random, greedy or mcts-N (N iterations per decision).",
    ),
    click.option(
        "-n", "--matches", type=int, default=100, show_default=True, help="Matches per arm."
    ),
    click.option(
        "--seed",
        type=int,
        default=0,
        show_default=True,
        help="The same seed and arguments play the same matches.",
    ),
    click.option("--players", type=int, metavar="K", help="Seats per match (default 2)."),
    click.option(
        "--alpha",
        type=float,
        default=0.05,
        show_default=True,
        help="The level at which a difference counts as real.",
    ),
    click.option(
        "--workers",
        type=int,
        default=1,
        show_default=True,
        help="Processes playing matches (at most one per core).",
    ),
    click.option(
        "--yes",
        "anyway",
        is_flag=True,
        help="Run it even if it is estimated to take over an hour.",
    ),
    click.option("--quiet", is_flag=True, help="No progress bar."),
    json_option,
    store_option,
]


def with_common():
    def decorate(command):
        for option in reversed(common):
            command = option(command)
        return command

    return decorate


@main.group()
def experiment() -> None:
    """The balance lab: variant against variant, restricted play, skill traces, humans
    against bots; every experiment's matches are stored like simulated ones, and listed."""


def _run(definition, workers, anyway, quiet, as_json, store, **_asked) -> None:
    from tablelog.lab.cost import HOUR, check_affordable, duration
    from tablelog.lab.run import Cancelled, run
    from tablelog.simulation import check_workers, interrupt_flag
    from tablelog.store import open_recorder

    check_workers(workers)
    seconds = check_affordable(
        definition, workers, float("inf") if anyway else HOUR, ", or add --yes to run it anyway"
    )
    recorder = open_recorder(store)
    experiment_id = str(uuid4())
    if not quiet:
        click.echo(
            f"experiment {experiment_id}: about {duration(seconds)}; Ctrl-C or "
            f"`tablelog experiment cancel {experiment_id[:8]}` stops it",
            err=True,
        )
    try:
        with interrupt_flag() as interrupted, _bar(definition, quiet) as bar:
            _, report = run(recorder, definition, workers, bar, interrupted, experiment_id)
    except Cancelled as err:
        click.echo(
            f"{err.experiment['state']}: the matches stored so far are whole and listed "
            f"(tablelog experiment show {experiment_id[:8]})",
            err=True,
        )
        sys.exit(INTERRUPTED)
    if as_json:
        echo_json({"id": experiment_id, "definition": definition.to_json(), "report": report})
        return
    click.echo(f"experiment {experiment_id}")
    click.echo(report_text(report))


@contextlib.contextmanager
def _bar(definition, quiet):
    """A progress bar on stderr, as a `run` progress callback."""
    from tqdm import tqdm

    with tqdm(
        total=len(definition.arms) * definition.matches,
        desc=f"{definition.kind} {definition.game}",
        unit="match",
        disable=quiet,
        leave=False,
    ) as bar:
        yield lambda done, _: bar.update(done - bar.n)


def report_text(report: Mapping) -> str:
    lines = []
    for arm in report["arms"]:
        played = (  # an experiment's arm; the humans-against-bots sides have neither
            f", agents {', '.join(arm['agents'])}, options {arm['options']}"
            if "agents" in arm
            else ""
        )
        lines.append(f"arm {arm['name']}: {arm['matches']} matches{played}")
        for m in arm["metrics"]:
            if m["n"]:
                lines.append(
                    f"  {m['label']:<68} {_num(m['estimate'])} "
                    f"[{_num(m['low'])}, {_num(m['high'])}] n={m['n']}"
                )
    lines.append("")
    lines.extend(report["words"])
    return "\n".join(lines)


def _num(value) -> str:
    return "-" if value is None else f"{value:.3g}"


@experiment.command()
@click.argument("game")
@click.option("--a", "a_pairs", multiple=True, metavar="K=V", help="An option of arm A.")
@click.option("--b", "b_pairs", multiple=True, metavar="K=V", help="An option of arm B.")
@with_common()
def variants(game, a_pairs, b_pairs, **common):
    """Option set A against option set B on every metric, Holm-adjusted."""
    from tablelog import lab

    a, b = parse_options(a_pairs), parse_options(b_pairs)
    _run(lab.variants(game, a, b, **_asked(common, "agent")), **common)


@experiment.command()
@click.argument("game")
@click.argument("restriction")
@click.option("--option", "option_pairs", multiple=True, metavar="K=V", help="A game option.")
@with_common()
def restriction(game, restriction, option_pairs, **common):
    """A restricted agent against the standard one, seats rotated (Jaffe et al. 2012)."""
    from tablelog import lab

    options = parse_options(option_pairs)
    _run(lab.restriction(game, restriction, options=options, **_asked(common, "agent")), **common)


@experiment.command()
@click.argument("game")
@click.option("--budgets", metavar="B,B,...", help="MCTS budgets, e.g. 1,2,4,8.")
@click.option(
    "--up-to",
    type=int,
    default=16,
    show_default=True,
    help="Budgets 1, 2, 4, ... up to this (when --budgets is not given).",
)
@click.option("--option", "option_pairs", multiple=True, metavar="K=V", help="A game option.")
@with_common()
def skill(game, budgets, up_to, option_pairs, **common):
    """The skill trace: MCTS at each budget against the budget before it (--agent is not
    used: the agents are the budgets)."""
    from tablelog import lab
    from tablelog.domain.errors import Refused

    try:
        chosen = [int(b) for b in budgets.split(",")] if budgets else lab.doubling(up_to)
    except ValueError:
        raise Refused(
            f"--budgets takes whole numbers separated by commas, got {budgets!r}"
        ) from None
    options = parse_options(option_pairs)
    _run(lab.skill(game, chosen, options=options, **_asked(common)), **common)


def _asked(common: dict, *more: str) -> dict:
    """What of the common options defines the experiment (the rest says how to run it)."""
    return {name: common[name] for name in ("players", "matches", "seed", "alpha", *more)}
