"""Simulated matches: seeded bots play whole matches through the recorder's own commands, and
runs of them are stored (`tablelog simulate`).

- `plan`: what a run plays (`Plan`, `make_plan`) and the ids of its matches;
- `playing`: one match played in memory, each move checked by the rules and hash-chained;
- `run`: a run's matches played in worker processes and stored in match order (`simulate`);
- `cluster`: the same run on a Dask cluster (`--cluster`);
- `stored`: which of a run's matches a store already holds, so a run again stores only the rest.

What callers use is exported here; the modules import one another, never this package.
"""

from .plan import MAX_MATCHES, Plan, SimulationError, make_plan, match_id, move_cap
from .playing import begin_match, play_match, play_on, played
from .run import Report, check_workers, cores, interrupt_flag, simulate, simulate_all

__all__ = [
    "MAX_MATCHES",
    "Plan",
    "Report",
    "SimulationError",
    "begin_match",
    "check_workers",
    "cores",
    "interrupt_flag",
    "make_plan",
    "match_id",
    "move_cap",
    "play_match",
    "play_on",
    "played",
    "simulate",
    "simulate_all",
]
