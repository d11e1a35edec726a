"""The balance lab's endpoints, /api/v1/lab/...: declared with the route table's own `endpoint`
(so the OpenAPI document and the Flask routes include them), their schemas added to the
document's components here. See docs/lab.md.

Reading works on any store; starting an experiment needs the lab that `tablelog serve` opens
(one experiment at a time, shared with the Lab page), and the write token like every write.
"""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from tablelog.domain.games import GAMES
from tablelog.domain.restrictions import restrictions
from tablelog.lab import KINDS
from tablelog.lab_service import PAGE_LIMIT, served_lab
from tablelog.lab_store import LabStore

from . import schemas, server
from .errors import ApiError
from .routes import AT_MOST, Answer, Param, Reply, Service, endpoint
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
            "agent": {**TEXT, "description": "random, greedy or mcts-N."},
            "restriction": {**TEXT, "description": "restriction: one the game declares."},
            "budgets": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1, "maximum": 100_000},
                "maxItems": 12,
                "description": "skill: the MCTS budgets, e.g. [1, 2, 4, 8].",
            },
            "a": ANY_OBJECT,
            "b": ANY_OBJECT,
            "options": ANY_OBJECT,
        },
        ("kind", "game"),
        "What to run; the kind's own fields as `tablelog experiment` takes.",
    ),
}
RESPONSES = {
    "Experiment": documented(
        {
            "id": TEXT,
            "created": TEXT,
            "game": TEXT,
            "kind": TEXT,
            "status": {"enum": ["running", "done", "interrupted"]},
            "definition": ANY_OBJECT,
            "match_ids": OBJECT_OR_NULL,
            "report": OBJECT_OR_NULL,
        },
        ("id", "created", "game", "kind", "status", "definition", "match_ids", "report"),
    ),
    "ExperimentList": documented(
        {"experiments": {"type": "array", "items": ref("Experiment")}}, ("experiments",)
    ),
    "LabProgress": documented(
        {
            "state": {"enum": ["idle", "running", "done", "failed"]},
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
server.VALIDATORS.update({name: Draft202012Validator(schema) for name, schema in REQUESTS.items()})

GAME = Param("game", "path", {"type": "string"}, "A game id (GET /games lists them).")
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
def list_experiments(service: Service, game: str | None) -> Any:
    """Every stored experiment: its definition, the ids of its matches per arm, its status and
    its report (as `tablelog experiment show --json`)."""
    return {"experiments": LabStore(service.recorder).all(game)}


@endpoint(
    "GET",
    "/lab/experiments/{experiment}",
    "lab",
    "One experiment",
    params=(
        Param(
            "experiment",
            "path",
            {"type": "string"},
            "The experiment's id, or 4 or more of its first characters.",
        ),
    ),
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
    "/lab/experiments",
    "lab",
    "Start an experiment",
    body="NewExperiment",
    ok=Answer(202, "LabProgress", "Started; GET /lab/progress follows it."),
    refusals=(
        Answer(
            422,
            "Error",
            "Refused: a bad definition, one already running, or "
            "no lab on this server (only `tablelog serve` runs experiments).",
        ),
    ),
)
def start_experiment(service: Service, body: dict[str, Any]) -> Any:
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
    ok=Answer(200, "LabProgress", "idle, running (done of total), done (id) or failed."),
)
def lab_progress(service: Service) -> Any:
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
        Param("variant", "query", {"type": "string"}, "Variant, as stats prints it."),
        Param(
            "sample",
            "query",
            {"type": "integer", "minimum": 0, "maximum": 500},
            "Matches per side replayed to count branching (default 30).",
        ),
    ),
    ok=Answer(200, "LabReport", "Every metric for recorded human and bot matches."),
    refusals=(UNKNOWN_GAME, Answer(422, "Error", "No ended match of the game.")),
)
def humans(
    service: Service, game: str, players: int | None, variant: str | None, sample: int | None
) -> Any:
    """The lab's metrics over the game's recorded human matches beside its bot matches, with
    the differences and Holm-adjusted tests (`tablelog experiment humans`)."""
    from tablelog.lab_humans import humans_vs_bots

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
def list_restrictions(service: Service, game: str) -> Any:
    """The restrictions the game declares for restricted play."""
    _game(game)
    return {
        "restrictions": [
            {"name": r.name, "description": r.description} for r in restrictions(game).values()
        ]
    }
