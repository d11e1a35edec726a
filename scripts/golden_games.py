"""Write the engines' golden data (tests/games/golden/<game>.json) from today's engines.

Run it once when a rule changes on purpose (an erratum), then review the diff of the data: it
shows every position and score the change touches. tests/games/test_golden.py compares the
engines with it exactly.

Usage: .venv/bin/python scripts/golden_games.py [GAME ...]   (default: every recorded game)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.games import golden_record  # the recorder the test replays


def main(games: list[str]) -> None:
    for game in games or list(golden_record.VARIANTS):
        print(f"{game}: recording", flush=True)
        target = golden_record.write(game)
        print(f"{game}: wrote {target} ({target.stat().st_size // 1024} KiB)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
