"""The tuner as a service for the Lab page's Tune section: the studies of a store, one started
in a background thread (bounded as the lab's experiments are), followed and cancelled.

One study runs at a time per service (a second start is refused with the reason). A start is
bounded: the game must declare what may vary, the player counts are the game's, the candidates
at most PAGE_TRIALS, the matches per candidate and per confirmation from fixed choices, and a
study estimated to take over an hour is refused with the estimate (the command line takes
`--yes`). Cancelling sets the study's own flag (`tablelog tune cancel`'s): the candidate in hand
is given up, the finished ones kept.

What the page draws comes from `worded`: a copy of the study in memory whose parameters and
objectives carry the game's words ("tile value 5", "last player chooses": yes), so Optuna's own
figures speak them. The composition root (`tablelog serve`) hands the service to the dashboard
(`dashboard.policy.set_tune_service`), so the dashboard imports nothing of `tablelog.tune`.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Required, TypedDict

from tablelog.domain.errors import Refused
from tablelog.domain.plain import PlainMapping, PlainValue

from .measure import ALSO
from .objective import Cancelled

if TYPE_CHECKING:
    import optuna

    from .report import Shown

PAGE_TRIALS = 60  # candidates a start from the page may ask for
TOPS = (16, 64, 400, 1600)  # matches per player count at a candidate's last rung
CONFIRMS = (50, 500, 2000)  # matches per player count and seed set of the confirmation
BUDGETS = (1000, 10_000, 100_000)  # the most matches the search may spend (or no limit)
BOTS = {"greedy": "greedy bots (one move ahead)", "random": "random bots"}
OBJECTIVES = {
    "balance": "seat imbalance",
    "decisiveness": "decisiveness",
    "length": "change in match length",
    "drawishness": "drawishness",
}
STATES = {
    "created": "not started",
    "running": "running",
    "searched": "searched, not confirmed yet",
    "cancelled": "cancelled",
    "confirmed": "confirmed",
    "not confirmed": "not confirmed",
    "seeds spent": "its confirmation seeds were spent",
    "nothing to confirm": "no candidate played to the end",
}


class Progress(TypedDict, total=False):
    """The study running here, as the page's progress line reads it."""

    state: Required[str]  # idle, starting, running, failed or ended
    id: str
    phase: str  # search or confirmation
    played: int  # candidates
    trials: int
    estimate: str
    confirmed: int  # confirmation matches
    error: str
    ended: str | None  # its last state in words


class Choices(TypedDict):
    """What a start may pick for a game (see `TuneService.choices`)."""

    players: list[int]
    vary: dict[str, str]  # key -> its words and range in words
    also: dict[str, str]
    bots: dict[str, str]
    tops: list[int]
    confirms: list[int]
    budgets: list[int]


class TuneService:
    def __init__(self, store: str | None) -> None:
        from .storage import storage_url

        self.url = storage_url(store)
        self._lock = threading.Lock()
        self.progress: Progress = {"state": "idle"}

    # ---- reading ------------------------------------------------------------------------------

    def games(self) -> dict[str, str]:
        """The games that declare what may vary: id -> name."""
        from tablelog.domain.games import PLUGINS

        return {g: p.rules.name for g, p in sorted(PLUGINS.items()) if p.tuning is not None}

    def choices(self, game: str) -> Choices:
        """What a start may pick for `game`, from its declaration: player counts, what may vary
        (key -> its words and range in words), the objectives and bots."""
        from tablelog.domain.games import get_rules

        from .report import words
        from .space import base_manifest, load_space

        space = load_space(game)
        base = base_manifest(space)
        rules = get_rules(game)
        vary = {
            k: f"{words(k, base)} ({_choices_words(c, game, k)})" for k, c in space.options.items()
        }
        vary.update({k: f"{words(k, base)} ({_span_words(s)})" for k, s in space.fields.items()})
        return {
            "players": list(range(max(2, rules.min_players), rules.max_players + 1)),
            "vary": vary,
            "also": {k: OBJECTIVES[k] for k in ALSO},
            "bots": BOTS,
            "tops": list(TOPS),
            "confirms": list(CONFIRMS),
            "budgets": list(BUDGETS),
        }

    def studies(self, game: str | None) -> list[dict[str, str]]:
        """The store's studies of `game`, newest first: id and a label in words (none, at once,
        while an SQLite store has no studies' file beside it: a page loads without Optuna)."""
        if self.url.startswith("sqlite:///") and not Path(self.url[10:]).exists():
            return []
        import optuna

        from .settings import SETTINGS, Settings
        from .storage import open_storage

        found: list[tuple[int, dict[str, str]]] = []
        for s in optuna.get_all_study_summaries(open_storage(self.url), include_best_trial=False):
            if SETTINGS not in s.user_attrs:
                continue  # still being set up: its settings are written next
            settings = Settings.from_json(s.user_attrs[SETTINGS])
            if settings.game != game:
                continue
            state = STATES.get(s.user_attrs.get("state", "created"), "")
            when = f", started {s.datetime_start:%Y-%m-%d %H:%M}" if s.datetime_start else ""
            label = (
                f"study {s.study_name.rsplit('-', 1)[-1]}: {s.n_trials} candidates tried, {state}"
            )
            found.append((s._study_id, {"id": s.study_name, "label": label + when}))
        return [study for _, study in sorted(found, key=lambda pair: -pair[0])]

    def report(self, name: str) -> Shown:
        """The study's report (`tablelog tune show --json`'s) and its lines in words."""
        from .command import report_of_url
        from .report import lines

        report = report_of_url(self.url, name)
        return {**report, "lines": lines(report)}

    def worded(self, name: str) -> tuple[optuna.Study, list[str]]:
        """A copy of the study in memory in the game's words, and its objectives' names."""
        from .study import load
        from .words import worded

        study, settings = load(self.url, name)
        return worded(study, settings), [OBJECTIVES[k] for k in ("balance", *settings.also)]

    # ---- starting and cancelling --------------------------------------------------------------

    def start(self, request: PlainMapping) -> str:
        """Check the request, say what it may cost, create the study and run it in a thread;
        the study's id. Refused (one line) for anything out of bounds, or one running here."""
        import dataclasses

        from .command import settings_of
        from .estimate import HOURS, duration_words, measured, most_matches
        from .study import create

        given = given_of(request, self.choices(str(request.get("game"))))
        with self._lock:
            if self.progress["state"] == "running":
                raise Refused("a study is already running here: wait for it, or cancel it")
            self.progress = {"state": "starting"}
        try:
            settings = settings_of(given["game"], given)
            rate, lengths, _ = measured(settings)
            settings = dataclasses.replace(settings, base_length=lengths)
            seconds = most_matches(settings) / rate
            if seconds > HOURS * 3600:
                raise Refused(
                    f"this study could take {duration_words(seconds)}: ask for fewer candidates, "
                    "fewer matches or a budget (the command line runs it with --yes)"
                )
            name = create(self.url, settings)
        except BaseException:
            self.progress = {"state": "idle"}
            raise
        self.progress = {
            "state": "running",
            "id": name,
            "phase": "search",
            "played": 0,
            "trials": settings.trials,
            "estimate": duration_words(seconds),
        }
        threading.Thread(target=self._run, args=(name,), daemon=True).start()
        return name

    def cancel(self) -> str:
        """Ask the study running here to stop; its id. Refused when none runs."""
        from .study import cancel

        if self.progress["state"] != "running":
            raise Refused("no study is running here: there is nothing to cancel")
        cancel(self.url, self.progress["id"])
        return str(self.progress["id"])

    def _run(self, name: str) -> None:
        from .command import confirmation
        from .study import load, run

        def searched(played: int) -> None:
            self.progress = {**self.progress, "played": played}

        def confirmed(matches: int) -> None:
            done = self.progress.get("confirmed", 0) + matches
            self.progress = {**self.progress, "phase": "confirmation", "confirmed": done}

        try:
            run(self.url, name, progress=searched)
            confirmation(self.url, name, confirmed)
            state = load(self.url, name)[0].user_attrs.get("state")
        except Cancelled:
            load(self.url, name)[0].set_user_attr("state", "cancelled")
            state = "cancelled"
        except Exception as err:  # noqa: BLE001 - shown to the person who started it
            self.progress = {**self.progress, "state": "failed", "error": str(err)}
            return
        ended = None if state is None else STATES.get(state, state)
        self.progress = {**self.progress, "state": "ended", "ended": ended}


def given_of(request: Mapping[str, Any], choices: Choices) -> dict[str, Any]:
    """The command's arguments (`command.settings_of`) from a page's request, every field
    checked against the game's choices and the page's bounds."""
    players = _numbers(request.get("players"), "player counts")
    if not players or not set(players) <= set(choices["players"]):
        counts = ", ".join(map(str, choices["players"]))
        raise Refused(f"pick one or more player counts of {counts}")
    vary = list(request.get("vary") or [])
    if not vary or not set(vary) <= set(choices["vary"]):
        raise Refused("pick at least one thing to vary")
    also = list(request.get("also") or [])
    if not set(also) <= set(choices["also"]):
        raise Refused(f"the further objectives are {', '.join(choices['also'].values())}")
    trials = _bounded(request.get("trials"), "candidates", 1, PAGE_TRIALS)
    top = _one_of(request.get("top"), TOPS, "matches per candidate")
    confirm = _one_of(request.get("confirm_matches"), CONFIRMS, "confirmation matches")
    budget = request.get("budget")
    budget = None if budget in (None, "") else _one_of(budget, BUDGETS, "budget")
    bots = request.get("bots") or "greedy"
    if bots not in choices["bots"]:
        raise Refused(f"the bots are {', '.join(choices['bots'].values())}")
    return {
        "game": request.get("game"),
        "space": {"drop": [k for k in choices["vary"] if k not in vary]},
        "players": ",".join(map(str, players)),
        "also": ",".join(also),
        "bots": bots,
        "trials": trials,
        "top": top,
        "budget": budget,
        "seed": _bounded(request.get("seed") or 0, "seed", 0, 10**6),
        "confirm_matches": confirm,
    }


def _numbers(value: Any, what: str) -> list[int]:
    try:
        return [int(v) for v in value or []]
    except (TypeError, ValueError):
        raise Refused(f"{what} are whole numbers") from None


def _bounded(value: Any, what: str, low: int, high: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise Refused(f"{what}: a whole number from {low} to {high}") from None
    if not low <= number <= high:
        raise Refused(f"{what}: a whole number from {low} to {high}, not {number}")
    return number


def _one_of(value: Any, allowed: tuple[int, ...], what: str) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = -1
    if number not in allowed:
        raise Refused(f"{what}: one of {', '.join(f'{a:,}' for a in allowed)}")
    return number


def _choices_words(choices: list[PlainValue], game: str = "", name: str = "") -> str:
    from tablelog.domain.wording import game_value_words

    return " or ".join(game_value_words(game, name, c) for c in choices)


def _span_words(span: list[int] | dict[str, list[PlainValue]]) -> str:
    if isinstance(span, list):
        return f"{span[0]} to {span[1]}"
    return _choices_words(span["choices"])


_SERVED: dict[str, TuneService] = {}


def serve_tune(store: str | None) -> TuneService:
    """One service per served store (one study at a time whichever page started it)."""
    key = store or ""
    if key not in _SERVED:
        _SERVED[key] = TuneService(store)
    return _SERVED[key]
