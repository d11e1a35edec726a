"""Small studies for the tuner's tests: Topiary between random bots (about 30 matches a second
here), few matches per rung, the study run in this process through the command's own code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tablelog.tune.command import run_command
from tablelog.tune.storage import storage_url
from tablelog.tune.study import load

SPACE = {
    "only": True,
    "options": {"last_player_chooses": [False, True]},
    "fields": {"/values/4": [5, 9]},
}


def space_file(folder: Path, space: dict[str, Any] = SPACE) -> str:
    path = folder / "SPACE.json"
    path.write_text(json.dumps(space))
    return str(path)


def given(store: str, **changes: Any) -> dict[str, Any]:
    """The command line's arguments of a small study (changes override them)."""
    return {
        "store": store,
        "space_file": None,
        "players": "2",
        "bots": "random",
        "also": None,
        "trials": 3,
        "top": 16,  # rungs of 1, 4 and 16 matches
        "budget": None,
        "seed": 5,
        "confirm_seeds": "41,14",
        "confirm_matches": 12,
        "workers": 1,
        "cluster": None,
        "resume_id": None,
        "yes": True,
        "as_json": False,
        "quiet": True,
        **changes,
    }


def tuned(store: str, game: str = "topiary", **changes: Any) -> tuple[int, list[str]]:
    """Run a study; its exit status and the lines it said."""
    said: list[str] = []
    code = run_command(game, given(store, **changes), said.append)
    return code, said


def study_id(said: list[str]) -> str:
    return next(line.split()[1].rstrip(":") for line in said if line.startswith("study "))


def trials(store: str, name: str) -> list[Any]:
    study, _ = load(storage_url(store), name)
    return study.get_trials(deepcopy=False)


def attrs(store: str, name: str) -> dict[str, Any]:
    study, _ = load(storage_url(store), name)
    return study.user_attrs
