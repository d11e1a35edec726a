"""What a benchmark module returns, and the one timer they all use.

A module `benchmarks/bench_<topic>.py` defines `run(quick: bool) -> list[Result]`. Each Result
names a measurement, its value, its unit, and the baseline measured in the same run; `ratio` is
the cost relative to the baseline (1.0 as fast as the baseline, 2.0 twice as slow).
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable


@dataclasses.dataclass
class Result:
    name: str
    value: float
    unit: str
    baseline: float | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        """Cost relative to the baseline. For rates (per second) a lower value costs more."""
        if not self.baseline or not self.value:
            return None
        if self.unit.endswith("/s"):
            return self.baseline / self.value
        return self.value / self.baseline

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "value": self.value,
            "unit": self.unit,
            "baseline": self.baseline,
            "ratio": self.ratio,
            "note": self.note,
        }


def best_of(repeats: int, work: Callable[[], object], clock=time.perf_counter) -> float:
    """The fastest of `repeats` runs of `work`, in seconds of `clock` (the least disturbed by a
    noisy box)."""
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        work()
        best = min(best, clock() - start)
    return best


def cpu_of(work: Callable[[], object], repeats: int = 3) -> float:
    """The least CPU time (this process, every thread) of `repeats` runs of `work`: beside the
    wall-clock ratio, the one a busy machine disturbs less."""
    return best_of(repeats, work, time.process_time)


def decode_pages(page_after: Callable[[int], list], position: int = 0) -> int:
    """The raw read baselines' loop: fetch page after page of stored events (`page_after(n)`:
    the rows after notification n, the id first and the JSON state fifth), json-decode each
    row's state; the number of rows read."""
    rows = 0
    while True:
        page = page_after(position)
        if not page:
            return rows
        for row in page:
            json.loads(row[4])
        rows += len(page)
        position = page[-1][0]
