"""The balance lab (`tablelog lab`, the Lab page, /api/lab): experiments that play seeded
matches between agents, store them, and report what they show.

- `experiments`: what is asked (`variants`, `restriction`, `skill`), as a stored definition;
- `cost`: what an experiment will cost, measured before it starts;
- `run`: playing an experiment's matches in worker processes, storing them, reporting;
- `report`: the report of an experiment's matches, and its findings in words;
- `store`: the experiments' table beside the events (`lab_experiments`);
- `service`: the lab for the dashboard and the HTTP API, one experiment at a time;
- `humans`: a game's recorded matches against its bot-played ones.

The experiment definitions are exported here (`lab.skill(...)`); the rest is imported from its
module, so that asking for a definition loads no workers or tables. The modules import one
another, never this package.
"""

from .experiments import (
    KINDS,
    MAX_BUDGET,
    MAX_MATCHES,
    MAX_SAMPLE,
    Arm,
    Definition,
    check_alpha,
    doubling,
    restriction,
    skill,
    variants,
)

__all__ = [
    "KINDS",
    "MAX_BUDGET",
    "MAX_MATCHES",
    "MAX_SAMPLE",
    "Arm",
    "Definition",
    "check_alpha",
    "doubling",
    "restriction",
    "skill",
    "variants",
]
