"""The Record page's writes, without Dash: who may write, and each write as one recorder call.

Every write names the match version the page showed, so an entry made on a stale page is a
Conflict ("the match changed; reloaded") rather than a move on another board. A move is built
on the server from the picks (never taken from the browser as JSON), so only a move the menus
offer can be recorded.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Final, Protocol

from tablelog.domain.commands import command
from tablelog.domain.errors import Conflict, Refused
from tablelog.domain.games import RulesError, get_rules
from tablelog.domain.matches.entering import entering_as
from tablelog.domain.matches.match import Match
from tablelog.domain.matches.times import local_unless_zoned
from tablelog.domain.matches.views import said_outcome
from tablelog.domain.plain import PlainDict
from tablelog.domain.recording.recorder import Recorder
from tablelog.domain.recording.stored import not_signed, stored_but
from tablelog.domain.wording import player_count_refusal

from ..policy import WRITE_POLICY
from . import build, setup
from .picking import Ready, StalePicks
from .steps import chosen_game, named

if TYPE_CHECKING:
    from tablelog.access import WritePolicy

LOG = logging.getLogger("tablelog.dashboard")
POLICY = WRITE_POLICY  # where the app keeps its write policy (dashboard/policy.py)
NO_POLICY = (
    "recording is off on this server: it was started without a write policy "
    "(start it with `tablelog serve`)"
)
NEED_TOKEN = (
    "this server takes records only with its write token (shown when it started): "
    "enter it above; nothing was recorded"
)
WRONG_TOKEN = "the write token is wrong: nothing was recorded"
RELOADED = "the match changed on another device; reloaded: nothing was recorded"
ALREADY = "this page has just recorded that: nothing more was recorded"


class Refusal(Exception):
    """A write the page refuses before the store is touched; the message is shown as is."""


# The page's writes as the role matrix names them (tablelog.gate.ACTIONS): the match's from the
# write commands' table (a draw is an end), the lab's two beside them.
GATE_ACTIONS = {
    page: command(name).action
    for page, name in (
        ("start", "start"),
        ("sheet", "start_sheet"),
        ("commit", "record"),
        ("undo", "undo"),
        ("claim", "claim"),
        ("end", "end"),
        ("draw", "end"),
    )
} | {"experiment": "start an experiment", "cancel": "cancel an experiment"}


def admit(
    policy: WritePolicy | None,
    recorder: Recorder,
    token: str | None,
    host: str | None,
    action: str,
    match_id: Any = None,
) -> tuple[PlainDict | None, str | None]:
    """Who makes a write of the page (their `entered_by`) under `policy` with the token the
    browser holds, through the API's own door (tablelog.gate); or None and the reason, in
    the page's words."""
    from tablelog.domain.matches.entering import DASHBOARD
    from tablelog.gate import Denied, Gate
    from tablelog.signin import signed_in_user

    if policy is None:
        return None, NO_POLICY
    given = (token or "").strip()
    gate = Gate(policy, recorder)
    person = signed_in_user()
    try:
        if person is not None and not given and gate.users.accounts_on():
            admitted = gate.signed_in(person, GATE_ACTIONS[action], lambda: match_id, DASHBOARD)
        else:
            admitted = gate.admit(
                f"Bearer {given}" if given else None,
                host,
                GATE_ACTIONS[action],
                lambda: match_id,
                via=DASHBOARD,
            )
    except Denied as denied:
        if gate.users.accounts_on():  # a person's: say what is wrong
            return None, f"{denied} (sign in at /signin, or enter your token): nothing was recorded"
        if policy.open:
            return None, str(denied)
        return None, WRONG_TOKEN if given else NEED_TOKEN
    return admitted.entered_by, None


def current(recorder: Recorder, match_id: str, version: int | None) -> Match:
    """The match now, or Conflict when it is no longer at the version the page showed."""
    try:
        return recorder.current(match_id, version)
    except Conflict:
        raise Conflict(RELOADED) from None


def start(
    recorder: Recorder,
    game: str | None,
    players: str | None,
    picks: list,
    played_at: str | None = None,
) -> tuple[str, str]:
    """Start a match from the form: (match id, message). `played_at` (the form's date and
    time, the server's local time) says when a game logged afterwards was played."""
    if not game:
        raise Refusal("choose the game first")
    seats = named(players)
    rules = get_rules(game)
    wrong_count = player_count_refusal(rules, len(seats))
    if wrong_count:
        raise Refusal(f"{wrong_count}: give their names in turn order, separated by commas")
    step = setup.menu(game, len(seats), picks)
    if not isinstance(step, Ready):
        raise Refusal(f"the setup is not complete: {step.prompt}")
    match_id = recorder.start(
        game,
        seats,
        step.move["options"],
        step.move["setup"],
        played_at=local_unless_zoned(played_at),
    )
    return str(match_id), f"{rules.name} started for {', '.join(seats)}"


Said = tuple[Match, Callable[[], str]]
"""A write's match after it, and its message, worded only once the entry is stored (`write`)."""


def record(recorder: Recorder, match_id: str, version: int | None, picks: list) -> Said:
    """Record the move the picks name for the seat to move: (the match after it, message)."""
    match = current(recorder, match_id, version)
    rules, state = match.rules, match.state
    awaited = rules.to_move(state)
    if not awaited or match.status != "running":
        raise Refusal("no move is awaited: the game is over")
    try:
        move = build(match.game, rules, state, awaited[0], picks)
    except StalePicks as err:
        raise Refusal(f"{err}: choose again") from None
    done = recorder.record(match.id, awaited[0], move, expected_version=match.version)
    who = " and ".join(match.seats[s] for s in awaited)
    return done, lambda: f"recorded: {who} {rules.describe(move)}"


def undo(
    recorder: Recorder, match_id: str, version: int | None, by: str | None, reason: str | None
) -> Said:
    done = recorder.undo(
        match_id, (by or "").strip(), (reason or "").strip(), expected_version=version
    )

    def said() -> str:
        withdrawn = done.undos[-1]["move"]
        return (
            f"withdrew {done.seats[withdrawn['seat']]}'s move "
            f"({done.rules.describe(withdrawn['move'])}); {by}: {reason}"
        )

    return done, said


def claim(
    recorder: Recorder,
    match_id: str,
    version: int | None,
    by: str | None,
    scores: dict[str, float | str | None],
) -> Said:
    for name, points in scores.items():
        if points is None or points == "":
            raise Refusal(f"give {name}'s score (a number) to claim the result")
    done = recorder.claim(match_id, by or "", scores, expected_version=version)
    return done, lambda: "claimed: " + ", ".join(f"{n} {points:g}" for n, points in scores.items())


def end(recorder: Recorder, match_id: str, version: int | None, agreed_draw: bool = False) -> Said:
    done = recorder.end(match_id, agreed_draw=agreed_draw, expected_version=version)
    return done, lambda: f"the match has ended: {said_outcome(done, done.outcome)}"


REFUSALS = (Refusal, Refused, RulesError)


class _Keep:
    """The page keeps what it shows (Dash's no_update, said without Dash)."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = _Keep()


@dataclasses.dataclass(frozen=True)
class Form:
    """What the page holds when a write button is tapped."""

    token: str | None = None
    match_id: str | None = None
    version: int | None = None
    picks: list | None = None
    undo_by: str | None = None
    reason: str | None = None
    claimed: list = dataclasses.field(default_factory=list)  # the claim's numbers, seat by seat
    claim_by: list = dataclasses.field(default_factory=list)  # the claim form's choice, if shown
    setup_picks: list | None = None
    players: str | None = None
    played_at: str | None = None
    page: str | None = None  # this page's own id (its writes are its own, not another device's)


@dataclasses.dataclass(frozen=True)
class Written:
    """What the page shows after a write: the message, and what it holds from then on."""

    message: str
    version: Any = KEEP
    picks: Any = KEEP
    match_id: Any = KEEP
    search: Any = KEEP  # the address's query: a started match's own


class Shown(Protocol):
    """The page's matches (`matches.Matches`, which reads the match through `current`)."""

    recorder: Recorder

    def get(self, match_id: str, version: int | None = None) -> Match: ...
    def put(self, match: Match) -> None: ...
    def writing(self, match_id: str, page: str | None) -> AbstractContextManager[None]: ...
    def wrote(self, match_id: str, version: int, page: str | None) -> None: ...


def write(
    matches: Shown, action: str, form: Form, policy: WritePolicy | None, host: str | None
) -> Written:
    """Every write of the page, one door: the policy first, then one recorder call.
    `matches` is the page's `matches.Matches` (the recorder and the matches shown)."""
    who, refused = admit(policy, matches.recorder, form.token, host, action, form.match_id)
    if refused:
        return Written(refused)
    try:
        with entering_as(who):
            if action == "start":
                return _start(matches.recorder, form)
            if not form.match_id:
                raise Refusal("no match is shown")
            with matches.writing(form.match_id, form.page):
                done, said = WRITES[action](matches, form.match_id, form)
                matches.wrote(form.match_id, done.version, form.page)
    except Conflict:
        return _conflict(matches, form)
    except REFUSALS as err:
        return Written(f"refused: {err}")
    return Written(after_commit(matches, done, said), version=done.version, picks=[])


def _conflict(matches: Any, form: Form) -> Written:
    """The match is no longer at the version the page showed: another device recorded, or this
    page did a moment ago (a button tapped twice): the message says which."""
    now = matches.now(form.match_id)
    if now is not None and matches.mine(form.match_id, now, form.page):
        return Written(ALREADY, version=now, picks=[])
    return Written(RELOADED, version=now, picks=[])


def after_commit(matches: Shown, done: Match, said: Callable[[], str]) -> str:
    """The message of a stored write: nothing that fails now may read as "refused" (the entry
    is stored; a person would enter it again), so a failure says "stored, but ..."."""
    try:
        matches.put(done)
        message = said()
    except Exception as err:
        LOG.exception("a stored entry could not be shown")
        return stored_but("the page could not show it", err)
    return "; ".join([message, *filter(None, [not_signed(done)])])


def _start(recorder: Recorder, form: Form) -> Written:
    picks = form.setup_picks or []
    match_id, said = start(recorder, chosen_game(picks), form.players, picks[1:], form.played_at)
    return Written(said, version=None, picks=[], match_id=match_id, search=f"?match={match_id}")


def _claim(matches: Shown, match_id: str, form: Form) -> Said:
    seats = list(matches.get(match_id, form.version).seats)
    return claim(
        matches.recorder,
        match_id,
        form.version,
        (form.claim_by or [None])[0],
        dict(zip(seats, form.claimed)),
    )


# Each write but the start, by its button's action: (matches, match id, form) -> (done, said).
WRITES: dict[str, Callable[[Shown, str, Form], Said]] = {
    "commit": lambda m, match_id, f: record(m.recorder, match_id, f.version, f.picks or []),
    "undo": lambda m, match_id, f: undo(m.recorder, match_id, f.version, f.undo_by, f.reason),
    "claim": _claim,
    "end": lambda m, match_id, f: end(m.recorder, match_id, f.version),
    "draw": lambda m, match_id, f: end(m.recorder, match_id, f.version, agreed_draw=True),
}
ACTIONS = frozenset({"start", *WRITES})  # every write button's action (panels.write_id)
