"""Each dashboard page's time to its first complete render in a real browser, cold and warm,
beside the same page's data read straight from the projection tables in the same run.

Over the demo store (`tablelog.demo.build_demo_store`, a fixed seed; built once and kept under
/tmp), served as `tablelog serve` builds the app (`build_app`: the Lab's and Record's services
included) on a loopback port, in headless Chromium (/usr/bin/chromium) through Playwright at
1400x1000. The pages: Overview, Match (the first match of each game), Players, Balance (each
game, `?game=`), Lab and Record.

A page's render is complete when its content is in place, no callback is pending or loading
(Dash's own store: no callback requested, waiting or running, as dash.testing counts them; no
element marked loading), and every visible figure is drawn, and this has held for STABLE_MS
without a break (so the blank moment before the first callbacks are sent does not count). The
time is from the start of the navigation (`performance.now()` of the new document) to the
first moment of that steady state.
- cold: a new app (nothing read or remembered by it) on a new port, in a new browser context
  (empty browser cache: Dash's scripts are fetched too). Python's modules are imported already
  (the process made other apps before), so a server's very first start is slower still;
- warm: the same page loaded again in the same context, the best of `repeats`: the app's
  remembered reads and the browser's cache as a second visitor, or a reload, meets them.
The baseline is the page's data read straight from the projection tables through the read side
(`projections.queries.Queries`, a new one each time so nothing is remembered, or the tables'
view), no Dash: the matches list (Overview, Record), the match replayed from its events
(Match), the game's scores and ratings rows (Players), the game's balance report (Balance),
the lab's experiments list (Lab). Best of `repeats`. The ratio is warm / baseline.

    nice -n 5 .venv/bin/python -m benchmarks.bench_browser [--repeats 3] [--pages overview,lab]

prints the table as benchmarks/RESULTS.md keeps it; `python -m benchmarks --only browser` runs
it with the others (not part of the test suite: benchmarks are run by hand).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from .harness import Result, best_of

STORE = "/tmp/tablelog-bench-browser-demo.sqlite"
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
VIEWPORT = {"width": 1400, "height": 1000}
STABLE_MS = 300
WAIT_MS = 180_000
SLOW_WARM_S = 1.5

# Run in the page from its first script on: records when the render first became complete
# and stayed so for STABLE_MS, in window.__completeAt (ms since the navigation started).
WATCH = """
(() => {
  const stable = STABLE;
  let since = null;
  const complete = () => {
    const content = document.querySelector('#_pages_content > *');
    const state = window.store && window.store.getState && window.store.getState();
    if (!content || !state) return false;
    // Callbacks requested, waiting or running, as dash.testing counts them.
    const queues = Object.assign({}, state.callbacks || {});
    delete queues.stored;
    delete queues.completed;
    if (Object.values(queues).some(q => q && q.length)) return false;
    if (state.isLoading) return false;
    if (document.querySelector('[data-dash-is-loading="true"], .dash-graph--pending'))
      return false;
    const graphs = Array.from(document.querySelectorAll('.dash-graph'))
      .filter(g => g.offsetParent !== null);
    return graphs.every(g => g.querySelector('.js-plotly-plot')?._fullLayout);
  };
  const tick = () => {
    const now = performance.now();
    if (complete()) {
      if (since === null) since = now;
      if (now - since >= stable) { window.__completeAt = since; return; }
    } else {
      since = null;
    }
    setTimeout(tick, 10);
  };
  tick();
})();
""".replace("STABLE", str(STABLE_MS))


def demo_store() -> str:
    """The demo store's path, built first unless it is there (the build moves a complete store
    into place, so one that exists is whole)."""
    if not Path(STORE).exists():
        from tablelog.demo import build_demo_store

        print(f"building the demo store at {STORE}", file=sys.stderr, flush=True)
        build_demo_store(STORE, progress=False)
    return STORE


def pages(store: str) -> dict[str, tuple[str, Callable[[], object]]]:
    """Each page's name: its path, and its baseline (a read of its data, nothing remembered)."""
    from tablelog.projections.queries import Queries
    from tablelog.store import open_recorder

    recorder = open_recorder(store)
    queries = Queries(recorder)
    rows = queries.matches()
    first: dict[str, str] = {}
    for row in rows:
        first.setdefault(row["game"], row["id"])
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["game"]] = counts.get(row["game"], 0) + 1
    busiest = max(counts, key=lambda g: counts[g])
    view = queries.projection().view

    def fresh() -> Queries:
        return Queries(recorder)

    def replayed(match_id: str) -> object:
        return fresh().match(match_id)

    def report(game: str) -> object:
        return fresh().game_report(game)

    found: dict[str, tuple[str, Callable[[], object]]] = {
        "Overview": ("/", lambda: fresh().matches()),
    }
    for game, match_id in first.items():
        found[f"Match, {game}"] = (
            f"/match?id={match_id}",
            partial(replayed, match_id),
        )
    found["Players"] = (
        "/players",
        lambda: [view.select(t, {"game": busiest}) for t in ("scores", "ratings")],
    )
    for game in first:
        found[f"Balance, {game}"] = (
            f"/balance?game={game}",
            partial(report, game),
        )
    from tablelog.lab.service import LabService

    found["Lab"] = ("/lab", lambda: LabService(recorder).experiments())
    found["Record"] = (
        "/record",
        lambda: [r for r in fresh().matches() if r["status"] == "running"],
    )
    return found


@contextmanager
def served(store: str) -> Iterator[str]:
    """A new app, as `tablelog serve` builds it, on a free loopback port: its URL."""
    from werkzeug.serving import make_server

    from tablelog.access import WritePolicy
    from tablelog.cli.serve import build_app

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    app = build_app(store, WritePolicy.for_bind("127.0.0.1"), refresh=None)
    server = make_server("127.0.0.1", 0, app.server, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


# (seconds, callback requests, server seconds, seconds to the first callback): `rendered`
Timing = tuple[float, int, float, float]


def rendered(page: Any, url: str) -> Timing:
    """Seconds from the navigation's start to the page's first complete render; the number of
    callback requests it sent, the seconds the server took over them (from each request sent
    to its answer's first byte, summed: requests sent together overlap), and the seconds from
    the navigation's start to the first callback sent (the page's scripts loaded and run)."""
    finished: list[Any] = []

    def done(request: Any) -> None:  # Playwright takes a Python function, not a built-in
        finished.append(request)

    page.on("requestfinished", done)
    try:
        page.goto(url, wait_until="commit", timeout=WAIT_MS)
        page.wait_for_function("window.__completeAt !== undefined", timeout=WAIT_MS, polling=50)
        seconds = float(page.evaluate("window.__completeAt")) / 1000
        origin = float(page.evaluate("performance.timeOrigin"))
    finally:
        page.remove_listener("requestfinished", done)
    calls = [r.timing for r in finished if "/_dash-update-component" in r.url]
    server = sum(max(0.0, t["responseStart"] - t["requestStart"]) for t in calls) / 1000
    first = min((t["startTime"] for t in calls), default=origin) - origin
    return seconds, len(calls), server, first / 1000


def time_page(browser: Any, store: str, path: str, repeats: int) -> tuple[Timing, Timing]:
    """(cold, warm) of one page: a new app and browser context, then reloads (the fastest)."""
    with served(store) as url:
        context = browser.new_context(viewport=VIEWPORT)
        context.add_init_script(WATCH)
        try:
            page = context.new_page()
            cold = rendered(page, url + path)
            warm = min(rendered(page, url + path) for _ in range(repeats))
        finally:
            context.close()
    return cold, warm


Row = tuple[str, Timing, Timing, float]  # page, cold, warm, baseline seconds


def measure(repeats: int, only: list[str] | None = None) -> list[Row]:
    """(page, cold, warm, baseline seconds) for each page (or those whose names start with one
    of `only`, case-insensitive)."""
    from playwright.sync_api import sync_playwright

    store = demo_store()
    wanted = pages(store)
    if only:
        wanted = {
            n: v for n, v in wanted.items() if any(n.lower().startswith(o.lower()) for o in only)
        }
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            for name, (path, baseline) in wanted.items():
                print(f"  {name}", file=sys.stderr, flush=True)
                cold, warm = time_page(browser, store, path, repeats)
                rows.append((name, cold, warm, best_of(repeats, baseline)))
        finally:
            browser.close()
    return rows


def run(quick: bool) -> list[Result]:
    note = "demo store, Chromium 1400x1000, first complete render; baseline: the page's data read"
    results = []
    for name, cold, warm, base in measure(1 if quick else 3):
        results.append(Result(f"browser {name}: cold", cold[0], "s", base, note))
        results.append(Result(f"browser {name}: warm", warm[0], "s", base, note))
    return results


def table(rows: list[Row]) -> str:
    lines = [
        "| page | cold s | warm s | baseline s | ratio (warm / baseline) "
        "| callbacks (warm) | server s in them (cold; warm) | first callback at s (cold; warm) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, cold, warm, base in rows:
        mark = " (over 1.5 s warm)" if warm[0] > SLOW_WARM_S else ""
        lines.append(
            f"| {name}{mark} | {cold[0]:.2f} | {warm[0]:.2f} | {base:.4f} "
            f"| {warm[0] / base:,.0f} | {warm[1]} | {cold[2]:.2f}; {warm[2]:.2f} "
            f"| {cold[3]:.2f}; {warm[3]:.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_browser")
    parser.add_argument("--repeats", type=int, default=3, help="warm loads and baseline reads")
    parser.add_argument("--pages", default="", help="comma-separated page name prefixes")
    args = parser.parse_args(argv)
    before = os.getloadavg()
    started = time.time()
    rows = measure(args.repeats, [p for p in args.pages.split(",") if p] or None)
    after = os.getloadavg()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime(started))}-"
        f"{time.strftime('%H:%M', time.gmtime())} UTC; load average (1 min) "
        f"{before[0]:.1f} before, {after[0]:.1f} after\n"
    )
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
