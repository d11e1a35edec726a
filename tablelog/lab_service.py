"""The lab as a service for the dashboard and the HTTP API: list and read experiments, and start
one in a background thread whose progress can be asked for.

One experiment runs at a time per service (a second start is refused with the reason): an
experiment is minutes of CPU, and the store's writer is shared with people recording matches.
The composition root (`tablelog serve`) hands one to the dashboard (`dashboard.policy`);
the Lab page and the API routes find it there, so the dashboard imports nothing of `tablelog`.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Mapping
from typing import Any

from tablelog.domain.errors import Refused
from tablelog.domain.quoting import quoted
from tablelog.domain.recorder import Recorder

from . import lab
from .lab_store import LabStore

PAGE_LIMIT = 400  # matches per arm a start from the page or the API may ask for


class LabService:
    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.store = LabStore(recorder)
        self._lock = threading.Lock()
        self.progress: dict[str, Any] = {"state": "idle"}

    def experiments(self, game: str | None = None) -> list[dict[str, Any]]:
        return self.store.all(game)

    def experiment(self, experiment_id: str) -> dict[str, Any]:
        return self.store.get(experiment_id)

    def humans(self, game: str) -> dict[str, Any]:
        """Humans against bots from the projection tables only (no replay: branching is left
        out), for the Lab page; `tablelog experiment humans` also samples branching."""
        from .lab_humans import humans_vs_bots

        return humans_vs_bots(self.recorder, game, sample=0)

    def start(self, request: Mapping[str, Any]) -> lab.Definition:
        """Check the request (`definition_of`), then run it in a thread; Refused if one runs."""
        definition = definition_of(request)
        with self._lock:
            if self.progress["state"] == "running":
                raise Refused("an experiment is already running here; wait for it to finish")
            self.progress = {
                "state": "running",
                "done": 0,
                "total": definition.matches * len(definition.arms),
                "kind": definition.kind,
                "game": definition.game,
            }
        threading.Thread(target=self._run, args=(definition,), daemon=True).start()
        return definition

    def _run(self, definition: lab.Definition) -> None:
        from .lab_run import run

        def advance(done: int, total: int) -> None:
            self.progress = {**self.progress, "done": done}

        try:
            experiment_id, _ = run(self.recorder, definition, progress=advance)
            self.progress = {**self.progress, "state": "done", "id": experiment_id}
        except Exception as err:  # noqa: BLE001 - shown to the person who started it, not swallowed
            self.progress = {**self.progress, "state": "failed", "error": str(err)}


def definition_of(request: Mapping[str, Any]) -> lab.Definition:
    """A Definition from a page's or an API client's JSON: kind, game and the kind's fields."""
    kind, game = request.get("kind"), request.get("game")
    if kind not in lab.KINDS:
        raise Refused(f"kind is one of {', '.join(lab.KINDS)}, got {quoted(kind)}")
    if not isinstance(game, str):
        raise Refused("name the game")
    n = _number(request.get("matches", 20), "matches")
    if n > PAGE_LIMIT:
        raise Refused(f"at most {PAGE_LIMIT} matches per arm from here; the command line runs more")
    seed = _number(request.get("seed", 0), "seed")
    players = request.get("players")
    agent = str(request.get("agent") or "random")
    if kind == "variants":
        return lab.variants(
            game, _options(request.get("a")), _options(request.get("b")), agent, players, n, seed
        )
    if kind == "restriction":
        return lab.restriction(
            game,
            str(request.get("restriction") or ""),
            agent,
            players,
            n,
            seed,
            _options(request.get("options")),
        )
    budgets = request.get("budgets") or [1, 2, 4]
    if isinstance(budgets, str):
        budgets = [b for b in budgets.replace(" ", "").split(",") if b]
    return lab.skill(
        game,
        [_number(b, "a budget") for b in budgets],
        players,
        n,
        seed,
        _options(request.get("options")),
    )


def _number(value: Any, what: str) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise Refused(f"{what} is a whole number, got {quoted(value)}") from None
    if number < 0 or number > 10**9:
        raise Refused(f"{what} is 0-1000000000, got {number}")
    return number


def _options(value: Any) -> dict[str, Any]:
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
