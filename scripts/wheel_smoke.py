"""Use an installed Tablelog wheel as a new user would, outside any checkout (scripts/wheel-smoke.sh
runs it in a fresh virtual environment): every game's example match imported and scored, a new
match of each game started and a move recorded, the solved Topitop table loaded, export then
import, and `serve` answering its dashboard and its OpenAPI document. Exits non-zero, saying
what failed, at the first thing that does not work."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from importlib import resources
from pathlib import Path

BIN = Path(sys.executable).parent
GAMES = ["topiary", "total-landscaping", "topas", "geoshapes", "topitop"]


def tablelog(*args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [str(BIN / "tablelog"), *args], input=stdin, capture_output=True, text=True, timeout=300
    )
    if done.returncode != 0:
        sys.exit(
            f"wheel smoke: `tablelog {' '.join(args)}` failed ({done.returncode}):\n{done.stderr}"
        )
    return done.stdout


def example(game: str) -> dict:
    return json.loads(
        (resources.files("tablelog.data") / "examples" / f"{game}.json").read_text(encoding="utf-8")
    )


def new_and_move(game: str, folder: Path) -> None:
    """A new match with the example's options and setup, and its first move."""
    record = example(game)
    setup = folder / f"{game}-setup.json"
    setup.write_text(json.dumps(record["setup"]))
    options = [f"--option={k}={json.dumps(v)}" for k, v in record["options"].items()]
    match_id = tablelog(
        "new", game, "--players", ",".join(record["seats"]), *options, "--setup", str(setup)
    ).strip()
    first = next(e for e in record["events"] if e["type"] == "move")
    # The record's stored form as a person types it (GeoShapes: a player by name, not index).
    from tablelog.domain.games import get_rules

    typed = get_rules(game).shown_move(first["move"], record["seats"])
    tablelog("move", match_id, "--seat", first["seat"], json.dumps(typed))
    tablelog("show", match_id)


def serves(store: str) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [str(BIN / "tablelog"), "serve", "--store", store, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        for path, expect in (
            ("/", b"/assets/plotly-cartesian.min.js"),  # the part of plotly.js the pages use
            ("/assets/plotly-cartesian.min.js", b"plotly.js (cartesian"),
            ("/api/v1/openapi.json", b'"openapi"'),
        ):
            body = _get(f"http://127.0.0.1:{port}{path}", server)
            if expect not in body:
                sys.exit(f"wheel smoke: {path} answered without {expect!r}")
    finally:
        server.terminate()
        server.wait(timeout=30)


def _get(url: str, server: subprocess.Popen, wait: float = 120) -> bytes:
    deadline = time.monotonic() + wait
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as answer:
                return answer.read()
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                sys.exit(
                    f"wheel smoke: serve did not answer {url}:\n"
                    f"{server.stderr.read().decode() if server.stderr else ''}"
                )
            time.sleep(0.5)


def main() -> None:
    import tablelog as package

    if "site-packages" not in package.__file__:
        sys.exit(f"wheel smoke: tablelog was imported from {package.__file__}, not the wheel")
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        os.chdir(folder)  # nowhere near a checkout
        store, copy = str(folder / "smoke.sqlite"), str(folder / "copy.sqlite")
        os.environ["TABLELOG_STORE"] = store
        for game in GAMES:
            tablelog("import", "-", stdin=json.dumps(example(game)))
            new_and_move(game, folder)
        for row in json.loads(tablelog("list", "--json")):
            if row["status"] == "ended":
                tablelog("score", row["id"], "--json")
        if "31" not in tablelog("solve", "topitop"):
            sys.exit("wheel smoke: the shipped solved Topitop table did not load")
        exported = tablelog("export", "--all")
        tablelog("import", "-", "--store", copy, stdin=exported)
        if tablelog("export", "--all", "--store", copy) != exported:
            sys.exit("wheel smoke: export, import, export changed the records")
        serves(store)
    print(
        f"wheel smoke: {len(GAMES)} games recorded, scored, exported, imported and served "
        f"from {package.__file__}"
    )


if __name__ == "__main__":
    main()
