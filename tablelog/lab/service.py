"""The lab as a service for the dashboard and the HTTP API: list and read experiments, and start
one in a background thread whose progress can be asked for.

One experiment runs at a time per service (a second start is refused with the reason): an
experiment is minutes of CPU, and the store's writer is shared with people recording matches.
A start estimated to take over an hour is refused with the estimate (`lab.cost`); a running
experiment can be cancelled (`cancel`), keeping the matches stored so far.
The composition root (`tablelog serve`) hands one to the dashboard (`dashboard.policy`);
the Lab page and the API routes find it there, so the dashboard imports nothing of `tablelog`.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Required, TypedDict
from uuid import uuid4

from tablelog.domain.errors import Refused
from tablelog.domain.plain import PlainDict, PlainMapping
from tablelog.domain.quoting import quoted
from tablelog.domain.recording.recorder import Recorder

from .experiments import KINDS, Definition, check_alpha, restriction, skill, variants
from .store import LabStore, NotRunning

if TYPE_CHECKING:
    from .humans import HumansReport

PAGE_LIMIT = 400  # matches per arm a start from the page or the API may ask for


class LabProgress(TypedDict, total=False):
    """The experiment this service runs, as the Lab page and GET /lab/progress read it."""

    state: Required[str]  # idle, running, done, cancelled or failed
    id: str
    kind: str
    game: str
    done: int  # matches played
    total: int
    error: str  # why it failed


class LabService:
    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.store = LabStore(recorder)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.progress: LabProgress = {"state": "idle"}

    def experiments(self, game: str | None = None) -> list[dict[str, Any]]:
        return self.store.all(game)

    def experiment(self, experiment_id: str) -> dict[str, Any]:
        return self.store.get(experiment_id)

    def humans(self, game: str) -> HumansReport:
        """Humans against bots from the projection tables only (no replay: branching is left
        out), for the Lab page; `tablelog experiment humans` also samples branching."""
        from .humans import humans_vs_bots

        return humans_vs_bots(self.recorder, game, sample=0)

    def start(self, request: PlainMapping) -> Definition:
        """Check the request (`definition_of`) and what it would cost (`lab.cost`), then run it
        in a thread; Refused if one runs here already."""
        from .cost import check_affordable

        definition = definition_of(request)
        check_affordable(definition)
        with self._lock:
            if self.progress["state"] == "running":
                raise Refused(
                    f"an experiment is already running here ({self.progress['id'][:8]}, "
                    f"{self.progress['done']} of {self.progress['total']} matches played); "
                    "wait for it to finish, or cancel it"
                )
            self._stop = threading.Event()
            self.progress = {
                "state": "running",
                "done": 0,
                "total": definition.matches * len(definition.arms),
                "kind": definition.kind,
                "game": definition.game,
                "id": str(uuid4()),
            }
        threading.Thread(
            target=self._run, args=(definition, self.progress["id"], self._stop), daemon=True
        ).start()
        return definition

    def cancel(self, text: str | None = None) -> dict[str, Any]:
        """Cancel the experiment named by id or prefix (by default the one running here),
        whichever process runs it, and wait for it to stop: its row as it ends, "cancelled
        after N of M matches". NotRunning when it has already ended."""
        if text is None:
            if self.progress["state"] != "running":
                raise NotRunning("no experiment is running here: there is nothing to cancel")
            text = self.progress["id"]
        experiment = self.store.get(text)
        if self.progress["state"] == "running" and self.progress["id"] == experiment["id"]:
            self._stop.set()  # at once, without waiting for the row to be looked at
        return self.store.cancel(experiment["id"])[0]

    def _run(self, definition: Definition, experiment_id: str, stop: threading.Event) -> None:
        from .run import Cancelled, run

        def advance(done: int, total: int) -> None:
            self.progress = {**self.progress, "done": done}

        try:
            run(self.recorder, definition, 1, advance, stop.is_set, experiment_id)
            self.progress = {**self.progress, "state": "done"}
        except Cancelled as err:
            stored = err.experiment["stored"]
            self.progress = {**self.progress, "state": "cancelled", "done": stored}
        except Exception as err:  # noqa: BLE001 - shown to the person who started it, not swallowed
            self.progress = {**self.progress, "state": "failed", "error": str(err)}


def definition_of(request: Mapping[str, Any]) -> Definition:
    """A Definition from a page's or an API client's JSON: kind, game and the kind's fields."""
    kind, game = request.get("kind"), request.get("game")
    if kind not in KINDS:
        raise Refused(f"kind is one of {', '.join(KINDS)}, got {quoted(kind)}")
    if not isinstance(game, str):
        raise Refused("name the game")
    n = _number(request.get("matches", 20), "matches")
    if n > PAGE_LIMIT:
        raise Refused(f"at most {PAGE_LIMIT} matches per arm from here; the command line runs more")
    seed = _number(request.get("seed", 0), "seed")
    players = request.get("players")
    players = None if players is None else _number(players, "players")
    alpha = _level(request.get("alpha", 0.05))
    agent = str(request.get("agent") or "random")
    if kind == "variants":
        a, b = _options(request.get("a")), _options(request.get("b"))
        return variants(game, a, b, agent, players, n, seed, alpha)
    if kind == "restriction":
        return restriction(
            game,
            str(request.get("restriction") or ""),
            agent,
            players,
            n,
            seed,
            _options(request.get("options")),
            alpha,
        )
    budgets = request.get("budgets") or [1, 2, 4]
    if isinstance(budgets, str):
        budgets = [b for b in budgets.replace(" ", "").split(",") if b]
    return skill(
        game,
        [_number(b, "a budget") for b in budgets],
        players,
        n,
        seed,
        _options(request.get("options")),
        alpha,
    )


def _level(value: Any) -> float:
    try:
        return check_alpha(float(value))
    except (TypeError, ValueError):
        raise Refused(f"alpha, the level of the tests, is a number, got {value!r}") from None


def _number(value: Any, what: str) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise Refused(f"{what} is a whole number, got {quoted(value)}") from None
    if number < 0 or number > 10**9:
        raise Refused(f"{what} is 0-1000000000, got {number}")
    return number


def _options(value: object) -> PlainDict:
    if value in (None, ""):
        return {}
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as err:
            raise Refused(
                f'options are a JSON object, e.g. {{"expert": true}} ({err.msg})'
            ) from None
    if not isinstance(value, dict):
        raise Refused('options are a JSON object, e.g. {"expert": true}')
    return value


# One service per served store, shared by the Lab page and the API (so one experiment runs at a
# time whichever door started it). Only `tablelog serve` opens the lab for starting experiments:
# the API mounted alone reads experiments but does not start them.
_SERVED: weakref.WeakKeyDictionary[Recorder, LabService] = weakref.WeakKeyDictionary()


def serve_lab(recorder: Recorder) -> LabService:
    service = _SERVED.get(recorder)
    if service is None:
        service = _SERVED[recorder] = LabService(recorder)
    return service


def served_lab(recorder: Recorder) -> LabService | None:
    return _SERVED.get(recorder)
