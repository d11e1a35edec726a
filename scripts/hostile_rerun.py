"""The hostile re-run of issue 42 against this checkout: every attack category on a fresh store,
and a table of what each counted (see tests/rerun/). Needs the test extras (`.[test]`).

Usage: nice .venv/bin/python scripts/hostile_rerun.py --store sqlite --size 500
       [--only cli,api] [--examples]
Exits 1 when any count is not zero. Ctrl-C stops it (the stores it made are removed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `tests` is a package here

from tests.rerun.run import CATEGORIES, rerun
from tests.rerun.stores import KINDS
from tests.rerun.tally import table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", choices=[*KINDS, "both"], default="sqlite")
    parser.add_argument("--size", type=int, default=500, help="inputs tried per category")
    parser.add_argument("--only", help=f"categories, comma-separated: {', '.join(CATEGORIES)}")
    parser.add_argument("--examples", action="store_true", help="print what failed, too")
    args = parser.parse_args()
    only = args.only.split(",") if args.only else None
    unknown = set(only or []) - set(CATEGORIES)
    if unknown or args.size < 1:
        parser.error(f"no such category: {', '.join(sorted(unknown))}" if unknown else "size < 1")
    kinds = list(KINDS) if args.store == "both" else [args.store]
    tallies = [t for kind in kinds for t in rerun(kind, args.size, only)]
    print(table(tallies))
    if args.examples:
        for tally in tallies:
            for example in tally.examples:
                print(f"{tally.category}: {example}")
    return 1 if any(t.failures() for t in tallies) else 0


if __name__ == "__main__":
    sys.exit(main())
