"""What the lab and the simulator store outlives their files (tablelog/lab/, tablelog/simulation/,
once lab_*.py and simulate*.py): a store written before they had rooms reads the same after.

They store no class by its module path: a simulated match is a Match (its topics are pinned in
tests/test_stored_names.py), an experiment's row plain JSON. What they do store is names made
from content: a simulated match's id, looked up by a run of the same arguments so that it stores
only the matches still missing, and an experiment's definition, read back to show and rerun it.
"""

import importlib
import inspect
import json
import pkgutil
from uuid import UUID

import pytest
from eventsourcing.domain import Aggregate, DomainEvent

import tablelog.lab
import tablelog.simulation
from tablelog.lab import Definition
from tablelog.simulation import make_plan, match_id

# Ids of matches stored by `tablelog simulate` before the move (tablelog/simulate.py made them).
STORED_IDS = [
    (
        ("topitop", 10, 7),
        {"players": 2, "bots": "greedy"},
        3,
        "5a3917ce-87aa-5b0e-b19c-e4ec8e4aaadd",
    ),
    (
        ("topiary", 5, 1),
        {"players": 3, "bots": "random,greedy,random"},
        0,
        "35e789a3-8965-5d8d-a0c2-5ff1d3ba8e80",
    ),
    (
        ("topas", 5, 2),
        {"players": 2, "bots": "random", "options": {"expert": True}},
        4,
        "20ac8e3e-f565-5262-80fa-f5ba7b965537",
    ),
]

# An experiment's definition as tablelog/lab.py stored it in its row of lab_experiments.
STORED_DEFINITION = (
    '{"kind": "restriction", "game": "topitop", "players": 2, "matches": 5, "seed": 1, "arms": '
    '[{"name": "never-place-sand", "options": {"small": 4, "large": 4}, "agents": '
    '["random+never-place-sand", "random"], "rotate": true}], "alpha": 0.05}'
)


@pytest.mark.parametrize(("args", "kwargs", "number", "stored"), STORED_IDS)
def test_a_run_again_finds_the_matches_stored_before_the_move(args, kwargs, number, stored):
    assert match_id(make_plan(*args, **kwargs), number) == UUID(stored)


def test_a_stored_experiment_reads_back_as_the_experiment_it_was():
    stored = json.loads(STORED_DEFINITION)
    definition = Definition.from_json(stored)
    assert (definition.kind, definition.game, definition.seed) == ("restriction", "topitop", 1)
    assert definition.arms[0].agents == ("random+never-place-sand", "random")
    assert json.loads(json.dumps(definition.to_json())) == stored  # stored again, the same row


def test_no_lab_or_simulation_class_is_stored_by_its_module_path():
    for package in (tablelog.lab, tablelog.simulation):
        for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            found = importlib.import_module(module.name)
            for name, value in inspect.getmembers(found, inspect.isclass):
                if value.__module__ == found.__name__:
                    assert not issubclass(value, Aggregate | DomainEvent), name
