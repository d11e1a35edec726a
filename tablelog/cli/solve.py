"""`tablelog solve topitop` and `tablelog analyse MATCH`: the solved game and what it says of a
recorded match."""

from __future__ import annotations

import click

from tablelog.domain.errors import Refused

from . import main
from .options import echo_json, json_option, parse_options, store_option
from .stats import open_match


def _counts(options: dict) -> tuple[int, int]:
    from tablelog.domain.games.topitop.rules import RULES

    checked = RULES.options(options)
    return checked["small"], checked["large"]


@main.command()
@click.argument("game", type=click.Choice(["topitop"]))
@click.option(
    "--option",
    "option_pairs",
    multiple=True,
    metavar="K=V",
    help="Piece counts: small=N, large=N (default 4 and 4).",
)
@click.option("--rebuild", is_flag=True, help="Solve again even when a table is stored.")
@json_option
def solve(game, option_pairs, rebuild, as_json):
    """Solve Topitop: the start position's value and remoteness, positions of each value.

    The table is built once (minutes for the standard game, with a progress bar) into the user
    data directory and loaded from there afterwards; small=2 large=2 solves in seconds."""
    from tablelog.solved import solved_table, timed

    small, large = _counts(parse_options(option_pairs))
    (table, built), seconds = timed(lambda: solved_table(small, large, rebuild))
    result = {
        "game": game,
        "small": small,
        "large": large,
        "start": {
            "value": table.start_value,
            "remoteness": table.start_remoteness,
            "for": "Blue (seat 1), to move on the empty board",
        },
        "positions": table.counts,
        "solve_seconds": table.seconds,
        "seconds": round(seconds, 2),
        "built_now": built,
    }
    if as_json:
        echo_json(result)
        return
    click.echo(f"Topitop with {small} small and {large} large sand piles, 2 buckets each")
    click.echo(
        f"start: a {table.start_value} for Blue (to move) in {table.start_remoteness} "
        "moves under best play"
        if table.start_remoteness is not None
        else f"start: a {table.start_value} for Blue (to move)"
    )
    total = sum(table.counts.values())
    click.echo(
        f"reachable positions: {total:,} ("
        + ", ".join(f"{value} {count:,}" for value, count in table.counts.items())
        + ", for the player to move)"
    )
    click.echo(
        f"solved in {table.seconds:.1f} s"
        + ("" if built else f"; loaded the stored table in {seconds:.2f} s")
    )


@main.command()
@click.argument("match")
@json_option
@store_option
def analyse(match, as_json, store):
    """Every move of a recorded Topitop match valued by the solved game: win, lose or draw for
    the mover before and after, with remoteness; a move that threw away a win (or a draw) is a
    blunder."""
    from tablelog.domain.solvers.topitop import analyse as analyse_moves
    from tablelog.solved import solved_table

    recorder, match_id = open_match(store, match)
    found = recorder.get(match_id)
    if found.game != "topitop":
        raise Refused(f"only Topitop is solved; this match is {found.rules.name}")
    if found.kind == "sheet":
        raise Refused("this match was logged from its score sheet: it has no moves to analyse")
    table, _ = solved_table(*_counts(found.options))
    rows = analyse_moves(found.states, [m["move"] for m in found.moves], table)
    for row in rows:
        row["player"] = found.seats[row["seat"]]
        row["number"] = row["index"] + 1
    if as_json:
        echo_json(
            {
                "match": str(found.id),
                "moves": rows,
                "blunders": [r["number"] for r in rows if r["blunder"]],
            }
        )
        return
    rules = found.rules
    for row in rows:
        flag = "  BLUNDER" if row["blunder"] else ""
        said = rules.describe(row["move"], found.seats)
        click.echo(
            f"{row['number']:>3}. {row['player']:<12} {said:<34} "
            f"{_value(row['value_before'], row['remoteness_before'])} -> "
            f"{_value(row['value_after'], row['remoteness_after'])}{flag}"
        )
    blunders = [r for r in rows if r["blunder"]]
    click.echo(
        f"{len(blunders)} blunder{'s' if len(blunders) != 1 else ''}"
        + (": moves " + ", ".join(str(r["number"]) for r in blunders) if blunders else "")
    )


def _value(value: str, remoteness: int | None) -> str:
    return value if remoteness is None else f"{value} in {remoteness}"
