"""The Record page's decisions, without Dash: each callback of the page reads its inputs, calls
one function here and draws what comes back (`panels`). Given the match (or a way to load it),
every function is a function of plain values: tests call them as the page does, no browser.

Taps arrive as the page's tap listener sends them: a move's, on its buttons, its chips or the
board (`tap_answer`: plotly's click shape, whose point carries the pick, or a chip's place), the
start form's likewise (`setup_tapped`, or the game tapped), a write button's as its action. A
function answers None when the page should stay as it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from tablelog.dashboard.games.drawing import tapped_pick
from tablelog.domain import wording
from tablelog.domain.errors import MatchNotFound, Refused
from tablelog.domain.games import GAMES, RulesError
from tablelog.domain.matches import views
from tablelog.domain.matches.match import Match
from tablelog.domain.plain import PlainDict

from . import menu, refusal
from . import setup as setups
from .picking import Question, Ready, StalePicks

if TYPE_CHECKING:
    from tablelog.access import WritePolicy
    from tablelog.domain.games.base import Outcome

FOLLOWED = "the match changed on another device; reloaded"
TOKEN_KEPT = "A token is kept for this browser session."
TOKEN_NEEDED = "This server records only with its write token; pages stay open to read."
TOKEN_SAVED = "The token is kept for this browser session; it is checked with every write."
NO_TOKEN = "No token given."

Load = Callable[[str, int | None], Any]  # (match id, version shown) -> the match, or raises


# The write token -----------------------------------------------------------------------------


def token_box(policy: WritePolicy | None, token: str | None) -> str | None:
    """What the token box says; None when the server needs no token (the box stays hidden)."""
    if policy is None or policy.open:
        return None
    return TOKEN_KEPT if token else TOKEN_NEEDED


def token_in_use(kept: str | None, typed: str | None) -> str | None:
    """The token a write goes with: the one in the box, where something is typed, else the one
    kept for the browser session. A write tapped within a round trip of **Use token** went with
    the token kept before, and was refused as if the new one were wrong."""
    return saved_token(typed)[0] or kept


def saved_token(typed: str | None) -> tuple[str | None, str]:
    """The token the browser session keeps (None: none), and what the page says about it."""
    token = (typed or "").strip()
    return token or None, TOKEN_SAVED if token else NO_TOKEN


# The match in the address ---------------------------------------------------------------------


def resolved(find: Callable[[str], UUID] | None, given: str | None) -> tuple[str | None, str]:
    """The match the address names (`?match=` an id or a unique prefix of it): (its full id, "")
    or (None, why not, to show above the start form). `find` is the query side's lookup
    (`Queries.find`, MatchNotFound naming the candidates of an ambiguous prefix)."""
    given = (given or "").strip()
    if not given or find is None:
        return given or None, ""
    try:
        return str(find(given)), ""
    except MatchNotFound as err:
        return None, f"The address names no match to show: {err}. Start a match below."


# Following other devices ---------------------------------------------------------------------


def followed(
    match_id: str | None,
    shown: int | None,
    now: Callable[[str], int | None],
    mine: Callable[[str, int], bool] | None = None,
) -> tuple[int, list, str] | None:
    """When the match moved on since the page showed version `shown`: (its version now, no
    picks, the message). `now(match_id)` reads the version from the store (None: no match);
    `mine(match_id, version)` says whether that version is this page's own write, stored or
    under way (its answer brings the page up to date: the poll says nothing)."""
    if not match_id or shown is None:
        return None
    version = now(match_id)
    if version is None or version == shown:
        return None
    if mine is not None and mine(match_id, version):
        return None
    return version, [], FOLLOWED


# Taps ----------------------------------------------------------------------------------------


def board_tapped(picks: list | None, click: object) -> list | None:
    """The picks after a tap on the board: the tapped target's pick is added, unless the board
    was drawn for another question than the one now asked (a late tap: ignored)."""
    tap = tapped_pick(click)
    picks = list(picks or [])
    if tap is None or tap[2] != len(picks):
        return None
    key, value, _answered = tap
    return [*picks, [key, value]]


NOTHING_THERE = "Nothing to pick there: tap a ringed place on the board, or a button below."


def board_answer(
    load: Load, match_id: str | None, version: int | None, picks: list | None, click: object
) -> tuple[list | None, str | None]:
    """Every tap on the board is answered: (the picks after it, None: unchanged; the message,
    None: say nothing). A legal target adds its pick as its button would; a place the
    question does not offer says why, in the engine's words (nothing is entered); a tap on
    no place says where to tap; a tap on a board drawn for an earlier question is ignored."""
    picks = list(picks or [])
    asked = asking(load, match_id, version, picks)
    if asked is None or asked.question is None:
        return None, None
    tap = tapped_pick(click)
    if tap is None:
        return None, NOTHING_THERE
    key, value, answered = tap
    if answered != len(picks) or key != asked.question.key:
        return None, None
    if any(option.value == value for option in asked.question.options):
        return board_tapped(picks, click), ""
    match = load(str(match_id), version)
    seat = match.rules.to_move(match.state)[0]
    return None, refusal(match.game, match.rules, match.state, seat, picks, key, value)


def tap_answer(
    load: Load, match_id: str | None, version: int | None, picks: list | None, tap: Any
) -> tuple[list | None, str | None]:
    """Every tap of a move's answers, as the page's tap listener sends it: a chip (`back`, its
    place) takes answers back from there on; a button of the question or a place on the board
    (`points`, each with its pick) is answered as `board_answer` says. A button drawn for an
    earlier question (or a chip no longer shown) changes nothing."""
    back = (tap or {}).get("back")
    if back is None:
        return board_answer(load, match_id, version, picks, tap)
    picks, back = list(picks or []), int(back)  # a whole number, JSON may write it as 1.0
    return (picks[:back] if back < len(picks) else None), None


def setup_tapped(picks: list | None, tap: Any) -> list | None:
    """The start form's answers after a tap, as the page's tap listener sends it: a game
    (`game`) begins the setup afresh, a chip (`back`, its place) takes answers back from
    there on, a button of the question (`points`, its pick and the number of answers it was
    drawn after) adds its answer. A button drawn for an earlier question, a chip no longer
    shown or a game the app does not know changes nothing."""
    tap = tap or {}
    game = tap.get("game")
    if game is not None:
        return [["game", game]] if game in GAMES else None
    picks, back = list(picks or []), tap.get("back")
    if back is None:
        return board_tapped(picks, tap)
    back = int(back)  # a whole number, JSON may write it as 1.0
    return picks[:back] if back < len(picks) else None


def pick_label(key: str, value: object) -> str:
    """A chip whose question is not known any more: the answer as the player gave it, in
    words ('piece: a1', 'card: Red', 'last player chooses: no'), never a key or a Python value."""
    shown = wording.value_words(value)
    if shown.startswith(("supply:", "hand:")):
        shown = shown.split(":", 1)[1]
    return f"{key.split('.')[-1].replace('_', ' ')}: {shown if shown != '' else 'none'}"


# The questions -------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Asked:
    """Where a series of questions stands: the answers so far and what comes next."""

    picks: list
    question: Question | None = None
    ready: str | None = None  # every question is answered: the move (or setup) in words
    stale: str | None = None  # an answer no longer fits: why
    said: list[str] = dataclasses.field(default_factory=list)  # each answer in the game's words


@dataclasses.dataclass(frozen=True)
class SettingUp:
    head: str  # the game and the number of players
    asked: Asked


def said_picks(step_after: Callable[[list], Any], picks: list) -> list[str]:
    """Each answer as the page asked and offered it: the question, then the button's words
    ("How many small sand piles? 4 (standard)"), never a key or a raw value. `step_after(
    picks)` is the question asked after those picks."""
    said = []
    for index, (key, value) in enumerate(picks):
        step = step_after(picks[:index])
        label = None
        if isinstance(step, Question) and step.key == key:
            label = next((o.label for o in step.options if o.value == value), None)
        said.append(f"{step.prompt} {label}" if label is not None else pick_label(key, value))
    return said


def chosen_game(picks: list | None) -> str | None:
    return next((value for key, value in picks or [] if key == "game"), None)


def named(typed: str | None) -> list[str]:
    """The players typed in turn order, separated by commas."""
    return [name.strip() for name in (typed or "").split(",") if name.strip()]


def setting_up(picks: list | None, typed_players: str | None) -> SettingUp | None:
    """The start form's next setup question; None until a game is chosen."""
    picks = picks or []
    game = chosen_game(picks)
    if game is None:
        return None
    count, rules = len(named(typed_players)), GAMES[game]
    head = f"{rules.name}, {count} player(s)"
    players = max(count, rules.min_players)
    try:
        step = setups.menu(game, players, picks[1:])
        said = [rules.name, *said_picks(lambda p: setups.menu(game, players, p), picks[1:])]
    except StalePicks as err:
        return SettingUp(head, Asked(picks, stale=str(err)))
    if isinstance(step, Ready):
        return SettingUp(head, Asked(picks, ready="The setup is complete.", said=said))
    return SettingUp(head, Asked(picks, question=step, said=said))


def asking(
    load: Load, match_id: str | None, version: int | None, picks: list | None
) -> Asked | None:
    """The next question of the move being entered; None when no move is awaited (or the
    match cannot be shown)."""
    if not match_id or version is None:
        return None
    try:
        match = load(match_id, version)
    except Refused:
        return None
    if match.kind == "sheet":  # logged from its sheet: no moves to pick
        return None
    awaited = match.rules.to_move(match.state)
    if match.status != "running" or not awaited:
        return None
    picks = picks or []

    def step_after(given: list) -> Any:
        return menu(match.game, match.rules, match.state, awaited[0], given, list(match.seats))

    try:
        step = step_after(picks)
        said = said_picks(step_after, picks)
    except StalePicks as err:
        return Asked(picks, stale=f"{err}: take an answer back")
    if isinstance(step, Question):
        return Asked(picks, question=step, said=said)
    who = " and ".join(match.seats[s] for s in awaited)
    return Asked(picks, ready=f"{who} {match.rules.describe(step.move)}", said=said)


@dataclasses.dataclass(frozen=True)
class Board:
    """The board to draw: the position, and the question its tap targets answer (if any)."""

    game: str
    encoded: PlainDict
    seats: list[str]
    question: Question | None = None
    picks: list = dataclasses.field(default_factory=list)


def board(
    load: Load, match_id: str | None, version: int | None, asked: Asked | None
) -> Board | None:
    """The board of the match shown, with the question being `asked` to tap; None when there
    is no board (no match, or one logged from its sheet)."""
    if not match_id or version is None:
        return None
    try:
        match = load(match_id, version)
    except Refused:
        return None
    if match.kind == "sheet":
        return None
    question = asked.question if asked is not None else None
    picks = asked.picks if asked is not None else []
    return Board(match.game, match.rules.encode(match.state), list(match.seats), question, picks)


# The match as it stands ----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Shown:
    """The play area for one match at one version."""

    summary: str
    replay: str
    to_move: str
    seats: list[str]
    board: tuple[str, PlainDict] | None = None  # (game, encoded state) to draw; None: no board
    scores: list[dict] | None = None  # per seat: {"total", "categories"}
    score_note: str = ""  # why there is no score yet
    sheet: str | None = None  # a logged sheet, as text (instead of a score)
    verdict: str | None = None  # the game is over by the rules: the result
    totals: list | None = None  # the recomputed totals, to claim
    undo_by: str | None = None
    running: bool = False  # undo and draw are offered


def showing(
    load: Load, match_id: str | None, version: int | None, undo_by: str | None
) -> Shown | str | None:
    """The match to show (None: no match; a string: why it cannot be shown: no such match, one
    that changed meanwhile, or one whose stored events are damaged)."""
    if not match_id:
        return None
    try:
        match = load(match_id, version)
    except Refused as err:
        return str(err)
    if match.kind == "sheet":
        return shown_sheet(match)
    return shown_match(match, undo_by)


def shown_sheet(match: Match) -> Shown:
    """A match logged from its sheet: no board, no moves: the sheet and its result."""
    seats = list(match.seats)
    return Shown(
        f"{line(match)} · score sheet · match {str(match.id)[:8]}",
        f"/match?id={match.id}",
        f"The match has {match.status}: {result(match)}",
        seats,
        sheet=views.sheet_text(match),
    )


def shown_match(match: Match, undo_by: str | None) -> Shown:
    seats, rules = list(match.seats), match.rules
    scores, totals, note = None, None, ""
    try:
        scores = rules.score(match.state)
        totals = [entry["total"] for entry in scores]
    except RulesError as err:  # a hidden tile the score needs is not revealed yet
        note = str(err)
    running = match.status == "running"
    over = match.rules_outcome() if running else None
    return Shown(
        f"{line(match)} · move {len(match.moves)} · match {str(match.id)[:8]}",
        f"/match?id={match.id}",
        to_move(match),
        seats,
        board=(match.game, rules.encode(match.state)),
        scores=scores,
        score_note=note,
        verdict=None if over is None else f"By the rules: {verdict(match, over)}.",
        totals=totals,
        undo_by=last_mover(match, seats) or (undo_by if undo_by in seats else seats[0]),
        running=running,
    )


def last_mover(match: Match, seats: list[str]) -> str | None:
    """Who made the last move (None: no move yet): the one who takes it back, most likely."""
    return seats[match.moves[-1]["seat"]] if match.moves else None


def line(match: Match) -> str:
    """The start of the match line: 'Topitop · Ann, Ben · running'."""
    return f"{match.rules.name} · {', '.join(match.seats)} · {views.status(match)}"


def to_move(match: Match) -> str:
    if match.status != "running":
        return f"The match has {match.status}" + (f": {result(match)}" if match.outcome else ".")
    if match.rules.outcome(match.state) is not None:
        return "The game is over by the rules."
    awaited = match.rules.to_move(match.state)
    return "To move: " + " and ".join(match.seats[s] for s in awaited)


def verdict(match: Match, outcome: Outcome) -> str:
    """The outcome the rules give (an `Outcome`), in words: 'Ann wins (...)'."""
    return views.said_outcome(match, outcome.to_json())


def result(match: Match) -> str:
    """The recorded outcome: 'Ann wins (...)'."""
    return views.said_outcome(match, match.outcome)
