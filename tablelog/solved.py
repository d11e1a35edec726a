"""Building a solved Topitop table when none is stored (`tablelog solve`, `tablelog analyse`)."""

from __future__ import annotations

import time

from tablelog.domain.solvers.stored import BUILT, find_table, table_name


def solved_table(small: int, large: int, rebuild: bool = False, progress: bool = True):
    """The solved table for these piece counts, and whether it was just built (and saved)."""
    from tablelog.domain.solvers.topitop import load, solve

    path = None if rebuild else find_table(small, large)
    if path is not None:
        return load(path), False
    table = solve(small, large, progress=_progress_bar() if progress else None)
    BUILT.mkdir(parents=True, exist_ok=True)
    target = BUILT / table_name(small, large)
    partial = target.with_suffix(".partial.npz")
    table.save(partial)
    partial.replace(target)  # never leave half a table where the next run would load it
    return table, True


def _progress_bar():
    """A tqdm bar per solver phase (boards, moves, retrograde, reachable)."""
    from tqdm import tqdm

    bars: dict[str, tqdm] = {}

    def progress(phase: str, done: int, total: int) -> None:
        bar = bars.get(phase)
        if bar is None:
            for other in bars.values():
                other.close()
            bar = bars[phase] = tqdm(
                total=total, desc=f"solve: {phase}", unit="pos", unit_scale=True, mininterval=0.5
            )
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return progress


def timed(work):
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start
