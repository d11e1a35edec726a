"""Screenshots of every dashboard page at a phone's 390x844 and a desktop's 1400x1000, for a
person to look at: docs/screens/<width>-<page>.png, over the demo store.

    .venv/bin/python scripts/screens.py [--store PATH] [--out docs/screens]

Without --store it builds the demo store (`tablelog.demo.build_demo_store`, a fixed seed) in a
temporary folder first. It serves the dashboard on a free loopback port, opens each page in
headless Chromium (/usr/bin/chromium), waits until every figure is drawn and no callback runs,
and saves the whole page. The Match page is shown for a match of each game.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tablelog.access import WritePolicy  # noqa: E402
from tablelog.cli.serve import build_app  # noqa: E402
from tablelog.store import open_recorder  # noqa: E402
from tests.conftest import CHROMIUM, FLAGS, serving  # noqa: E402
from tests.dashboard.test_phone import SIZES, settle  # noqa: E402

PAGES = {
    "overview": "/",
    "balance": "/balance",
    "players": "/players",
    "lab": "/lab",
    "record": "/record",
}


def match_pages(store: str) -> dict[str, str]:
    """The Match page for the first match of each game in the store."""
    recorder = open_recorder(store)
    try:
        found: dict[str, str] = {}
        for started in recorder.started():
            found.setdefault(f"match-{started.game}", f"/match?id={started.originator_id}")
        return found
    finally:
        recorder.close()


def take(url: str, pages: dict[str, str], out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    taken = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        for width, height in SIZES.values():
            page = browser.new_page(viewport={"width": width, "height": height})
            for name, path in pages.items():
                page.goto(url + path)
                page.wait_for_selector("#_pages_content > *", timeout=60_000)
                settle(page)
                target = out / f"{width}-{name}.png"
                page.screenshot(path=str(target), full_page=True)
                taken.append(target)
            page.close()
        browser.close()
    return taken


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", help="a store to show (default: a fresh demo store)")
    parser.add_argument("--out", default=str(ROOT / "docs" / "screens"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        store = args.store
        if store is None:
            from tablelog.demo import build_demo_store

            store = str(Path(scratch) / "demo.sqlite")
            build_demo_store(store)
        pages = {**PAGES, **match_pages(store)}
        # As `tablelog serve` builds it (the Lab's service included), on loopback.
        with serving(build_app(store, WritePolicy.for_bind("127.0.0.1"), refresh=None)) as url:
            for path in take(url, pages, out):
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
