"""Commands over the projection tables: bring them up to date, print balance statistics, export
them. Each first processes whatever events are new (with a progress bar when there are many)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING
from uuid import UUID

import click

from tablelog.domain import wording
from tablelog.domain.errors import Refused
from tablelog.store import open_recorder

from . import main
from .options import OutputFolder, echo_json, json_option, store_option

_variant = wording.game_variant_words  # a stored variant in words: "standard rules", "expert"

if TYPE_CHECKING:
    from tablelog.domain.recording.recorder import Recorder
    from tablelog.projections.queries import Queries
    from tablelog.projections.runner import TablesProjection

SHOW_PROGRESS_FROM = 20_000  # events behind; fewer take under a second or so


def projection_of(store: str | None, rebuild: bool = False):
    """The store's projection, brought up to date (a progress bar on stderr for long work)."""
    from tablelog.projections.runner import TablesProjection

    recorder = open_recorder(store)
    try:
        projection = TablesProjection(recorder)
    except NotImplementedError as err:
        raise Refused(str(err)) from None
    if rebuild:
        projection.reset()
    _catch_up(projection)
    warn_damaged(projection.damaged())
    return projection


def open_queries(store: str | None) -> Queries:
    """The store's read side (`projections.queries.Queries`): its tables are caught up before
    each read that needs them, with a progress bar on stderr when much is behind."""
    from tablelog.projections.queries import Queries

    return Queries(open_recorder(store), catch_up=_catch_up)


def open_match(store: str | None, text: str) -> tuple[Recorder, UUID]:
    """The store's recorder and the id of the match `text` names (its id, or a unique prefix:
    a match started by the previous command is found too)."""
    queries = open_queries(store)
    return queries.recorder, queries.find(text)


def warn_damaged(damaged: list[dict]) -> None:
    """One line on stderr per quarantined match: it is left out, and why."""
    for row in damaged:
        click.echo(
            f"tablelog: left out match {row['match_id']}, damaged: {row['finding']}", err=True
        )


def _catch_up(projection: TablesProjection) -> None:
    behind = projection.behind()
    if behind < SHOW_PROGRESS_FROM:
        projection.catch_up()
        return
    with click.progressbar(
        length=behind,
        label="projecting events",
        file=sys.stderr,  # click.get_text_stream is deprecated since Click 8.5
        show_pos=True,
    ) as bar:
        seen = [0]

        def advance(done: int, total: int) -> None:
            bar.update(done - seen[0])
            seen[0] = done

        projection.catch_up(advance)


@main.command()
@click.option("--rebuild", is_flag=True, help="Drop the tables and project every event again.")
@store_option
def project(rebuild, store):
    """Bring the projection tables up to date with the store's events."""
    projection = projection_of(store, rebuild)
    click.echo(f"tables up to date at event {projection.position()}")


@main.command()
@click.argument("game", required=False)
@click.option(
    "--players", type=click.IntRange(min=1), metavar="N", help="Only matches with N players."
)
@click.option(
    "--variant",
    metavar="V",
    help="Only this variant, by its stored options as `stats --json` gives them "
    "('expert=true, manifest=topas').",
)
@click.option(
    "--kind",
    type=click.Choice(["all", "moves", "sheet"]),
    default="all",
    show_default=True,
    help="All matches, those logged move by move, or score sheets only (docs/interop.md).",
)
@json_option
@store_option
def stats(game, players, variant, kind, as_json, store):
    """Balance statistics: seat win rates, score distributions, component strength, length."""
    from tablelog.domain.games import get_rules

    if game is not None:
        get_rules(game)  # an unknown game is refused with the list of known ones
    queries = open_queries(store)
    report = queries.report(game, players, variant, None if kind == "all" else kind)
    warn_damaged(queries.damaged())
    if as_json:
        echo_json(report)
        return
    if not report:
        click.echo(
            "no matches"
            + (f" of {game}" if game else "")
            + " in this store"
            + ("" if kind == "all" else f" (of kind {kind})")
        )
    for name, figures in report.items():
        _print_game(name, figures)


def _fmt(value, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _seat_test(t: dict) -> str:
    if t["p_value"] is None:
        return "no win yet to tell"
    said = (
        f"chi-square {t['statistic']:.2f}, {t['df']} df"
        if t["method"] == "chi-square"
        else "exact multinomial test (few wins)"
    )
    return (
        f"{said}, p={t['p_value']:.3f} ({t['wins']} wins, {_fmt(t['expected'], 1)} a seat "
        "if none is favoured)" + ("  (small n)" if t["small"] else "")
    )


def _print_game(game: str, figures: dict) -> None:
    status = ", ".join(f"{n} {s}" for s, n in sorted(figures["by_status"].items()))
    click.echo(
        f"== {wording.game_name(game)}: {figures['matches']} matches counted ({status})"
        + ("  [small sample]" if figures["small"] else "")
    )
    click.echo(f"   shared wins {figures['shared_wins']}, draws {figures['draws']}")
    kinds = figures["behind"]["seats"]
    click.echo(
        f"   behind seats and scores: {kinds['moves']} logged move by move, "
        f"{kinds['sheet']} score sheets; components and length: "
        f"{figures['behind']['length']['moves']} logged move by move (sheets have none)"
    )
    if figures["seats"]:
        click.echo(
            "   win rate by seat (95% Wilson interval; exact binomial test against the fair "
            "rate, the seats' mean):"
        )
    for s in figures["seats"]:
        click.echo(
            f"     {s['players']}p {_variant(game, s['variant']):<22} seat {s['seat']}: "
            f"{s['wins']}/{s['matches']} = {_fmt(s['rate'])} "
            f"[{_fmt(s['ci_low'])}, {_fmt(s['ci_high'])}] fair {_fmt(s['fair'], 3)} "
            f"p={_fmt(s['p_value'], 3)}" + ("  (small n)" if s["small"] else "")
        )
    if figures["seat_test"]:
        click.echo("   is any seat favoured? (one test of all seats together):")
    for t in figures["seat_test"]:
        click.echo(f"     {t['players']}p {_variant(game, t['variant']):<22} {_seat_test(t)}")
    if figures["scores"]:
        click.echo("   points per category, winners vs rest (mean, median, n):")
    by_key: dict[tuple, dict] = {}
    for row in figures["scores"]:
        by_key.setdefault((row["players"], row["variant"], row["category"]), {})[row["seats"]] = row
    for (players, variant, category), pair in by_key.items():
        parts = [
            f"{who} {_fmt(row['mean'], 1)}, {_fmt(row['median'], 1)}, n={row['n']}"
            for who, row in sorted(pair.items(), reverse=True)
        ]
        click.echo(
            f"     {players}p {_variant(game, variant):<22} {category:<20} " + "; ".join(parts)
        )
    if figures["components"]:
        click.echo("   components (seats having it: win rate [95% CI], mean count, mean points):")
    for c in figures["components"]:
        click.echo(
            f"     {c['kind']:<15} {c['component']:<16} n={c['seats']:<6} "
            f"win {_fmt(c['win_rate'])} [{_fmt(c['ci_low'])}, {_fmt(c['ci_high'])}] "
            f"count {_fmt(c['mean_count'], 1)} points {_fmt(c['mean_points'], 1)}"
            + ("  (small n)" if c["small"] else "")
        )
    for row in figures["length"]:
        click.echo(
            f"   length {row['players']}p {_variant(game, row['variant'])}: moves mean "
            f"{_fmt(row['moves_mean'], 1)}, median {_fmt(row['moves_median'], 1)}, "
            f"range {row['moves_min']}-{row['moves_max']} (n={row['n']}); undos per "
            f"match {_fmt(row['undos_mean'])}"
        )
    click.echo("")


@main.command(name="export-tables")
@click.argument("directory", type=OutputFolder("the tables' directory"))
@click.option(
    "--format", "fmt", type=click.Choice(["csv", "parquet"]), default="csv", show_default=True
)
@store_option
def export_tables(directory, fmt, store):
    """Write every projection table to DIRECTORY as <table>.csv or <table>.parquet (a new
    DIRECTORY is made in an existing one); all tables are written, or none."""
    from tablelog.files import filled
    from tablelog.projections.load import read_table
    from tablelog.projections.tables import TABLES

    with filled(directory, "the tables") as scratch:
        projection = projection_of(store)
        counts = {}
        for name in TABLES:
            table = read_table(projection, name)
            if fmt == "csv":
                table.to_csv(scratch / f"{name}.{fmt}", index=False)
            else:
                table.to_parquet(scratch / f"{name}.{fmt}", index=False)
            counts[name] = len(table)
    for name, rows in counts.items():
        click.echo(f"{directory / f'{name}.{fmt}'}: {rows} rows")
