"""`python -m benchmarks [--quick] [--json] [--only NAME]`: run every bench_*.py module in one
process and print one table of name, value, unit, baseline and ratio."""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import platform
import sys
import time
from pathlib import Path

from .harness import Result


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    import os

    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def table(results: list[Result]) -> str:
    lines = ["| name | value | unit | baseline | ratio | note |", "|---|---:|---|---:|---:|---|"]
    for r in results:
        baseline = f"{r.baseline:,.4g}" if r.baseline else ""
        ratio = f"{r.ratio:.2f}" if r.ratio else ""
        lines.append(f"| {r.name} | {r.value:,.4g} | {r.unit} | {baseline} | {ratio} | {r.note} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--only", action="append", default=[], help="run only bench_NAME")
    args = parser.parse_args()
    modules = [
        m.name
        for m in pkgutil.iter_modules([str(Path(__file__).parent)])
        if m.name.startswith("bench_")
        and (not args.only or m.name.removeprefix("bench_") in args.only)
    ]
    results: list[Result] = []
    started = time.time()
    for name in sorted(modules):
        print(f"running {name}...", file=sys.stderr, flush=True)
        results.extend(importlib.import_module(f"benchmarks.{name}").run(args.quick))
    if args.json:
        print(
            json.dumps(
                {
                    "machine": machine(),
                    "seconds": round(time.time() - started),
                    "results": [r.to_json() for r in results],
                },
                indent=2,
            )
        )
    else:
        print(f"machine: {machine()}; {round(time.time() - started)} s\n")
        print(table(results))


if __name__ == "__main__":
    main()
