"""The balance lab's endpoints, /api/v1/lab/...: declared with the route table's own `endpoint`
(so the OpenAPI document and the Flask routes include them), their schemas added to the
document's components here. See docs/lab.md.

Reading works on any store; starting an experiment needs the lab that `tablelog serve` opens
(one experiment at a time, shared with the Lab page), and the write token like every write.
Cancelling works on any store, whichever process runs the experiment (it goes through the
experiment's row, `LabStore.cancel`).
"""

from __future__ import annotations

from typing import Any

from tablelog.domain.games import GAMES
from tablelog.domain.plain import PlainMapping
from tablelog.domain.restrictions import restrictions
from tablelog.lab import KINDS, MAX_BUDGET, MAX_SAMPLE
from tablelog.lab.service import PAGE_LIMIT, served_lab
from tablelog.lab.store import STATUSES, LabStore, NotRunning

from . import schemas
from .errors import ApiError
from .routes import AT_MOST, Answer, Handled, Param, Reply, Service, endpoint
from .schemas import ANY_OBJECT, COUNT, TEXT, closed, documented, ref

OBJECT_OR_NULL = {"type": ["object", "null"]}
REQUESTS = {
    "NewExperiment": closed(
        {
            "kind": {"enum": list(KINDS), "description": "variants, restriction or skill."},
            "game": {"enum": sorted(GAMES)},
            "matches": {
                "type": "integer",
                "minimum": 2,
                "maximum": PAGE_LIMIT,
                "description": "Matches per arm.",
            },
            "seed": {"type": "integer", "minimum": 0, "maximum": AT_MOST},
            "players": {"type": "integer", "minimum": 2, "maximum": 6},
            "alpha": {
                "type": "number",
                "exclusiveMinimum": 0,
                "exclusiveMaximum": 1,
                "description": "The level at which a difference counts as real (0.05).",
            },
            "agent": {
                **TEXT,
                "maxLength": 80,
                "description": "random, greedy or mcts-N, optionally +RESTRICTION.",
            },
            "restriction": {**TEXT, "description": "restriction: one the game declares."},
            "budgets": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1, "maximum": MAX_BUDGET},
                "maxItems": 12,
                "description": "skill: the MCTS budgets, e.g. [1, 2, 4, 8].",
            },
            "a": ANY_OBJECT,
            "b": ANY_OBJECT,
            "options": ANY_OBJECT,
        },
        ("kind", "game"),
        "What to run; the kind's own fields as `tablelog experiment` takes. Refused (422) "
        "when it is estimated, from the game's costs measured on the server, to take over an "
        "hour, with the estimate in the message.",
    ),
    "CancelExperiment": closed({}, (), "Nothing is needed: send {}."),
}
RESPONSES = {
    "Experiment": documented(
        {
            "id": TEXT,
            "created": TEXT,
            "game": TEXT,
            "kind": TEXT,
            "status": {"enum": list(STATUSES)},
            "state": {
                **TEXT,
                "description": "How far it came, in words: cancelled after 3 of 40 matches.",
            },
            "stored": {**COUNT, "description": "Matches stored and listed so far."},
            "planned": {**COUNT, "description": "Matches it asks for (every arm)."},
            "definition": ANY_OBJECT,
            "match_ids": OBJECT_OR_NULL,
            "report": OBJECT_OR_NULL,
        },
        (
            "id",
            "created",
            "game",
            "kind",
            "status",
            "state",
            "stored",
            "planned",
            "definition",
            "match_ids",
            "report",
        ),
    ),
    "ExperimentList": documented(
        {"experiments": {"type": "array", "items": ref("Experiment")}}, ("experiments",)
    ),
    "LabProgress": documented(
        {
            "state": {"enum": ["idle", "running", "done", "cancelled", "failed"]},
            "done": COUNT,
            "total": COUNT,
            "id": TEXT,
            "error": TEXT,
        },
        ("state",),
    ),
    "LabReport": documented(
        {
            "kind": TEXT,
            "game": TEXT,
            "arms": {"type": "array"},
            "words": {"type": "array", "items": TEXT},
        },
        ("kind", "game", "arms", "words"),
    ),
    "RestrictionList": documented(
        {
            "restrictions": {
                "type": "array",
                "items": documented({"name": TEXT, "description": TEXT}, ("name", "description")),
            }
        },
        ("restrictions",),
    ),
}
schemas.REQUESTS.update(REQUESTS)
schemas.COMPONENTS.update({**REQUESTS, **RESPONSES})

GAME = Param("game", "path", {"type": "string"}, "A game id (GET /games lists them).")
EXPERIMENT = Param(
    "experiment",
    "path",
    {"type": "string"},
    "The experiment's id, or 4 or more of its first characters.",
)
UNKNOWN_GAME = Answer(404, "Error", "No such game (`unknown-game`).")


def _game(game: str) -> None:
    if game not in GAMES:
        raise ApiError(
            404, "unknown-game", f"unknown game {game!r}; known games: {', '.join(GAMES)}"
        )


@endpoint(
    "GET",
    "/lab/experiments",
    "lab",
    "The lab's experiments",
    params=(Param("game", "query", {"type": "string"}, "Only this game's."),),
    ok=Answer(200, "ExperimentList", "Newest first, with their reports."),
)
def list_experiments(service: Service, game: str | None) -> Handled:
    """Every stored experiment: its definition, the ids of its matches per arm, its status and
    its report (as `tablelog experiment show --json`)."""
    return {"experiments": LabStore(service.recorder).all(game)}


@endpoint(
    "GET",
    "/lab/experiments/{experiment}",
    "lab",
    "One experiment",
    params=(EXPERIMENT,),
    ok=Answer(200, "Experiment", "Its definition, matches and report."),
    refusals=(Answer(404, "Error", "No such experiment (`not-found`)."),),
)
def get_experiment(service: Service, experiment: str) -> Any:
    """One experiment, by id or unique prefix."""
    store = LabStore(service.recorder)
    found = [e for e in store.all() if e["id"].startswith(experiment.strip().lower())]
    if len(found) != 1 or len(experiment.strip()) < 4:
        raise ApiError(404, "not-found", f"no single experiment {experiment!r}")
    return found[0]


@endpoint(
    "POST",
    "/lab/experiments/{experiment}/cancel",
    "lab",
    "Cancel a running experiment",
    params=(EXPERIMENT,),
    body="CancelExperiment",
    ok=Answer(200, "Experiment", "Stopped: its state says cancelled after N of M matches."),
    refusals=(
        Answer(404, "Error", "No such experiment (`not-found`)."),
        Answer(409, "Error", "It is no longer running (`not-running`): done or cancelled."),
    ),
)
def cancel_experiment(service: Service, experiment: str, body: PlainMapping) -> Handled:
    """Stop the experiment, whichever process runs it (this server, or `tablelog experiment`
    on the same store), and answer once it has stopped (within seconds): the matches stored
    so far are kept whole and listed, and it is marked cancelled. An experiment whose process
    no longer answers (it was killed) is marked cancelled after 10 seconds."""
    found = get_experiment(service, experiment)
    lab = served_lab(service.recorder)
    try:
        return lab.cancel(found["id"]) if lab else LabStore(service.recorder).cancel(found["id"])[0]
    except NotRunning as err:
        raise ApiError(409, "not-running", str(err)) from None


@endpoint(
    "POST",
    "/lab/experiments",
    "lab",
    "Start an experiment",
    body="NewExperiment",
    ok=Answer(202, "LabProgress", "Started; GET /lab/progress follows it."),
    refusals=(
        Answer(
            422,
            "Error",
            "Refused: a bad definition, one estimated to take over an hour (the estimate is "
            "in the message), one already running, or no lab on this server (only "
            "`tablelog serve` runs experiments).",
        ),
    ),
)
def start_experiment(service: Service, body: PlainMapping) -> Handled:
    """Start an experiment in the background (one at a time); its matches are stored like
    simulated ones and the experiment is listed when done."""
    lab = served_lab(service.recorder)
    if lab is None:
        raise ApiError(
            422,
            "refused",
            "this server does not run experiments (start them "
            "under `tablelog serve`, or with `tablelog experiment`)",
        )
    lab.start(body)
    return Reply(202, lab.progress)


@endpoint(
    "GET",
    "/lab/progress",
    "lab",
    "The running experiment's progress",
    ok=Answer(200, "LabProgress", "idle, running (done of total), done, cancelled (id) or failed."),
)
def lab_progress(service: Service) -> Handled:
    """How far the experiment started on this server has come."""
    lab = served_lab(service.recorder)
    return lab.progress if lab else {"state": "idle"}


@endpoint(
    "GET",
    "/lab/humans/{game}",
    "lab",
    "Humans against bots",
    params=(
        GAME,
        Param(
            "players",
            "query",
            {"type": "integer", "minimum": 2, "maximum": 6},
            "Player count (default: the most common among human matches).",
        ),
        Param(
            "variant",
            "query",
            {"type": "string"},
            "Variant, by its stored options as the stats' `variant` field gives them.",
        ),
        Param(
            "sample",
            "query",
            {"type": "integer", "minimum": 0, "maximum": MAX_SAMPLE},
            "Matches per side replayed to count branching (default 30).",
        ),
    ),
    ok=Answer(200, "LabReport", "Every metric for recorded human and bot matches."),
    refusals=(UNKNOWN_GAME, Answer(422, "Error", "No ended match of the game.")),
)
def humans(
    service: Service, game: str, players: int | None, variant: str | None, sample: int | None
) -> Handled:
    """The lab's metrics over the game's recorded human matches beside its bot matches, with
    the differences and Holm-adjusted tests (`tablelog experiment humans`)."""
    from tablelog.lab.humans import humans_vs_bots

    _game(game)
    return humans_vs_bots(
        service.recorder, game, players, variant, 30 if sample is None else sample
    )


@endpoint(
    "GET",
    "/lab/restrictions/{game}",
    "lab",
    "A game's restrictions",
    params=(GAME,),
    ok=Answer(200, "RestrictionList", "Name and description of each."),
    refusals=(UNKNOWN_GAME,),
)
def list_restrictions(service: Service, game: str) -> Handled:
    """The restrictions the game declares for restricted play."""
    _game(game)
    return {
        "restrictions": [
            {"name": r.name, "description": r.description} for r in restrictions(game).values()
        ]
    }
