"""`python -m benchmarks.solve_topitop [--small N --large N] [--out FILE]`: solve Topitop once
and print the figures of the Topitop section of benchmarks/RESULTS.md (start value, positions of
each value, solve time, table size, load time, peak memory) as a Markdown section.

Not a bench_* module: the standard game takes minutes, so `python -m benchmarks` leaves it out.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from tablelog.domain.games.topitop.rules import RULES
from tablelog.domain.solvers.topitop import load, solve

from .__main__ import machine


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.solve_topitop", description=__doc__)
    parser.add_argument("--small", type=int, default=4)
    parser.add_argument("--large", type=int, default=4)
    parser.add_argument("--out", type=Path, help="where to keep the table (default: a temp file)")
    args = parser.parse_args()
    phase = [""]

    def progress(name: str, done: int, total: int) -> None:
        if name != phase[0]:
            phase[0] = name
            print(f"{time.strftime('%H:%M:%S')} {name}...", file=sys.stderr, flush=True)

    table = solve(args.small, args.large, progress)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime
    load_average = os.getloadavg()[1]  # other work on the machine stretches the wall clock
    with tempfile.TemporaryDirectory() as scratch:
        path = args.out or Path(scratch) / "topitop.npz"
        table.save(path)
        size = path.stat().st_size
        began = time.perf_counter()
        loaded = load(path)
        load_seconds = time.perf_counter() - began
    start = RULES.start(2, {"small": args.small, "large": args.large}, {})
    assert loaded.lookup(start) == (table.start_value, table.start_remoteness)
    peak = usage.ru_maxrss / 1024**2
    d = table.details
    total = sum(table.counts.values())
    remoteness = "" if table.start_remoteness is None else f" in {table.start_remoteness}"
    print(f"""### Topitop solved ({args.small} small, {args.large} large sand piles, 2 buckets each)

Machine: {machine()}. Reproduce: `python -m benchmarks.solve_topitop --small {args.small} \\
--large {args.large}`.

- **Start position (empty board, Blue to move): {table.start_value}{remoteness}**
  (remoteness: moves to the end under best play, passes included).
- Solve time: **{table.seconds:.0f} s** wall clock ({cpu:.0f} s of CPU; machine load average
  {load_average:.1f} over the last 5 minutes), peak memory {peak:.1f} GB; target < 15 min.
- Reachable positions (cells, seat to move, no-reversal restriction; symmetric copies counted):
  {total:,}: win {table.counts["win"]:,}, lose {table.counts["lose"]:,},
  draw {table.counts["draw"]:,} (for the player to move).
- Table: {d["table_positions"]:,} positions up to the 8 symmetries of the square and colour,
  of which {d["reachable_table_positions"]:,} reachable; all of them solved: win
  {d["table_counts"]["win"]:,}, lose {d["table_counts"]["lose"]:,}, draw
  {d["table_counts"]["draw"]:,}. {d["boards"]:,} boards fit the pieces,
  {d["representative_boards"]:,} up to symmetry; {d["moves"]:,} moves;
  {d["passing_positions"]:,} positions where the player to move must pass; longest win or
  loss: {d["longest_remoteness"]} moves.
- Stored table: {size / 1e6:.1f} MB (`np.savez_compressed`), loads in {load_seconds:.2f} s.""")


if __name__ == "__main__":
    main()
