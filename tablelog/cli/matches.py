"""Commands that start, record, show and close matches.

A write command stores its entry, then prints it inside `after_commit`: once stored, nothing it
prints can turn it into a refusal (see `committed.py`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from uuid import UUID

import click

from tablelog.domain.commands import command
from tablelog.domain.games import manifests
from tablelog.domain.matches import views
from tablelog.domain.matches.match import SHEET, Match
from tablelog.domain.matches.times import local_unless_zoned
from tablelog.domain.matches.values import stored_value
from tablelog.store import open_recorder

from . import main, write_command
from .checkpoints import echo_signed
from .committed import after_commit
from .options import (
    InputFile,
    echo_json,
    entering,
    json_option,
    parse_json,
    parse_options,
    store_option,
)
from .stats import open_match, open_queries, warn_damaged

if TYPE_CHECKING:
    from tablelog.domain.recording.recorder import Recorder

# A step number the store can look up (its positions are 64-bit integers), as the API bounds it.
AT = click.IntRange(0, 1_000_000_000)
START = command("start")


@write_command("start")
@click.argument("game")
@click.option(
    "--players",
    required=True,
    metavar="A,B,...",
    help=START.help("players") + " Comma separated.",
)
@click.option("--option", "option_pairs", multiple=True, metavar="K=V", help="A game option.")
@click.option(
    "--setup",
    "setup_file",
    type=InputFile("the setup file"),
    metavar="FILE",
    help="A JSON file with " + START.help("setup").lower(),
)
@click.option(
    "--manifest-file",
    "manifest_file",
    type=InputFile("the manifest file"),
    metavar="PATH",
    help="Play with the components this JSON file lists (a club's own deck or "
    "board); its content is stored in the match, the file is not needed again.",
)
@click.option(
    "--played-at",
    metavar="TIME",
    help="When the game was played, if logged afterwards: ISO 8601, e.g. "
    "2026-11-28T19:30 (local time unless a zone is given; from 1900 to now).",
)
@store_option
@entering
def new(game, players, option_pairs, setup_file, manifest_file, played_at, store):
    """GAME is the game's id; prints the new match's id."""
    setup = parse_json(setup_file.text(), "the setup file") if setup_file else None
    options = parse_options(option_pairs)
    components = None
    if manifest_file is not None:
        name = options.pop("manifest", None) or Path(manifest_file.name).stem
        components = {"name": name, "content": manifests.parse(manifest_file.data, name)}
    recorder = open_recorder(store)
    seats = [name.strip() for name in players.split(",")]
    match_id = recorder.start(
        game, seats, options, setup, components=components, played_at=local_unless_zoned(played_at)
    )
    with after_commit(match_id):
        click.echo(match_id)


# ignore_unknown_options: a move that starts with "-" (a bare negative number) is the move
# argument, not an option click does not know ("No such option: -1").
@write_command("record", context_settings={"ignore_unknown_options": True})
@click.argument("match")
@click.argument("move_json", metavar="'JSON'")
@click.option("--seat", required=True, metavar="NAME", help=command("record").help("seat"))
@store_option
@entering
def move(match, move_json, seat, store):
    # Bounded (depth, size) before the rules read it: typing walks the whole value.
    move_value = stored_value(parse_json(move_json, "the move"), "the move")
    recorder, match_id = open_match(store, match)
    found = recorder.get(match_id)
    # As typed (players by name or number from 1, names in any case) into the stored form,
    # against the position it was read from.
    typed = (
        move_value
        if found.kind == SHEET  # refused by record: a sheet has no moves
        else found.rules.typed_move(found.state, move_value, found.seats)
    )
    done = recorder.record(match_id, seat, typed, expected_version=found.version)
    with after_commit(done):
        _echo_move(done)


def _echo_move(done: Match) -> None:
    rules, recorded = done.rules, done.moves[-1]
    waiting = ", ".join(done.seats[s] for s in rules.to_move(done.state))
    outcome = rules.outcome(done.state)
    click.echo(
        f"move {len(done.moves)}: {done.seats[recorded['seat']]} "
        f"{rules.describe(recorded['move'], done.seats)}; "
        + (
            f"game over: {rules.named_reason(outcome.reason, done.seats)}"
            if outcome
            else f"next: {waiting}"
        )
    )
    if views.draw_offered(done):
        click.echo(_draw_offer(done))


def _echo_log(recorder: Recorder, match_id: UUID, as_json: bool) -> None:
    """The match's event log, one line an event: step, what, who entered it."""
    from tablelog.dashboard.replay import EVENT_WORDS, event_log
    from tablelog.domain.games import get_rules

    events = recorder.stored_events(match_id)
    rows = event_log(events, get_rules(events[0].game))
    if as_json:
        echo_json(rows)
        return
    for row in rows:
        who = f" {row['who']}" if row["who"] else ""
        flag = f" [{row['flag']}]" if row["flag"] else ""
        click.echo(
            f"{row['step']:>4}  {row['when']}  {EVENT_WORDS.get(row['event'], row['event'])}"
            f"{who}: {row['what']}{flag}  (entered by {row['entered_by']})"
        )


def _draw_offer(match: Match) -> str:
    return (
        f"{len(match.moves)} moves, past {match.rules.name}'s cap of {match.rules.move_cap}: "
        f"the players may agree a draw (`tablelog end {str(match.id)[:8]} --draw`)"
    )


@write_command("undo")
@click.argument("match")
@click.option("--by", required=True, metavar="NAME", help=command("undo").help("by"))
@click.option("--reason", required=True, help=command("undo").help("reason"))
@store_option
@entering
def undo(match, by, reason, store):
    recorder, match_id = open_match(store, match)
    done = recorder.undo(match_id, by, reason)
    with after_commit(done):
        withdrawn = done.undos[-1]["move"]
        click.echo(
            f"withdrew move {len(done.moves) + 1}: {done.seats[withdrawn['seat']]} "
            f"{done.rules.describe(withdrawn['move'], done.seats)}"
        )


@main.command()
@click.argument("match")
@click.option(
    "--at",
    "step",
    type=AT,
    metavar="N",
    help="Show the match after its first N events (0 = the start).",
)
@click.option(
    "--log",
    "with_log",
    is_flag=True,
    help="Print the event log instead: every event, what it says and who entered it.",
)
@json_option
@store_option
def show(match, step, with_log, as_json, store):
    """Draw the board (or print the state as JSON), now or at step N."""
    recorder, match_id = open_match(store, match)
    if with_log:
        _echo_log(recorder, match_id, as_json)
        return
    found = recorder.get(match_id, step)
    view = views.state_view(found, step)
    if as_json:
        echo_json(view)
        return
    click.echo(
        f"{found.rules.name} match {found.id}  [{view['status']}]  step {view['step']}"
        f" of {recorder.version(found.id) - Match.INITIAL_VERSION}"
    )
    click.echo("seats: " + ", ".join(found.seats))
    click.echo("")
    click.echo(
        views.sheet_text(found)
        if found.kind == "sheet"
        else found.rules.render(found.state, found.seats)
    )
    if view["draw_offered"]:
        click.echo(_draw_offer(found))


@main.command()
@click.argument("match")
@click.option("--at", "step", type=AT, metavar="N", help="Score the match after N events.")
@json_option
@store_option
def score(match, step, as_json, store):
    """Score per seat and per category, and the outcome by the rules."""
    recorder, match_id = open_match(store, match)
    view = views.score_view(recorder.get(match_id, step))
    if as_json:
        echo_json(view)
        return
    for entry in view["seats"]:
        click.echo(f"{entry['seat']}: {entry['total']}")
        for category, points in entry["categories"].items():
            click.echo(f"    {category}: {points}")
    click.echo(f"outcome: {views.outcome_text(view['outcome'])}")


@main.command(name="list")
@click.option("--game", help="Only matches of this game.")
@json_option
@store_option
def list_matches(game, as_json, store):
    """List the matches in the store by when they were played, oldest first (from the
    projection's matches table)."""
    queries = open_queries(store)
    rows = queries.matches(game)
    warn_damaged(queries.damaged())  # a quarantined match is left out: say so on stderr
    if as_json:
        echo_json(rows)
        return
    for row in rows:
        length = "sheet" if row["kind"] == "sheet" else f"{row['moves']} moves"
        click.echo(
            f"{row['id'][:8]}  {row['game']:<18} {row['status']:<9} "
            f"{length:>10}  {row['played'][:16]}  {', '.join(row['seats'])}"
        )


@write_command("end")
@click.argument("match")
@click.option("--draw", "agreed_draw", is_flag=True, help=command("end").help("draw"))
@store_option
@entering
def end(match, agreed_draw, store):
    recorder, match_id = open_match(store, match)
    done = recorder.end(match_id, agreed_draw)
    with after_commit(done):
        click.echo(f"ended: {views.said_outcome(done, done.outcome)}")
        click.echo(
            f"receipt: {done.head_hash}  (keep it: `tablelog audit {str(done.id)[:8]} "
            f"--head {done.head_hash[:12]}` proves the log was not cut short)"
        )
        echo_signed(recorder, done)


@write_command("abandon")
@click.argument("match")
@click.option("--by", required=True, metavar="NAME", help=command("abandon").help("by"))
@click.option("--reason", required=True, help=command("abandon").help("reason"))
@store_option
@entering
def abandon(match, by, reason, store):
    recorder, match_id = open_match(store, match)
    done = recorder.abandon(match_id, by, reason)
    with after_commit(done):
        click.echo("abandoned")
