"""What a benchmark module returns, and the one timer they all use.

A module `benchmarks/bench_<topic>.py` defines `run(quick: bool) -> list[Result]`. Each Result
names a measurement, its value, its unit, and the baseline measured in the same run; `ratio` is
the cost relative to the baseline (1.0 as fast as the baseline, 2.0 twice as slow).
"""

from __future__ import annotations

import dataclasses
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


def best_of(repeats: int, work: Callable[[], object]) -> float:
    """The fastest of `repeats` runs of `work`, in seconds (the least disturbed by a noisy box)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best
