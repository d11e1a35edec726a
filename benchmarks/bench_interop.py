"""Importing a BG Stats file: 10,000 plays (quick: 1,000) of the five games, as score-sheet
matches into a fresh SQLite store, one transaction.

Baseline, measured in the same run on the same file: reading and parsing it with nothing else,
`json.loads` of the text and a plain loop that reads every play's date (strptime), players and
scores (float). The ratio is what checking every play by its game's sheet rules, building its
two events with the hash chain and storing them costs beyond that.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from datetime import UTC, datetime

from tablelog.interop import bgstats
from tablelog.store import open_recorder

from .harness import Result, best_of

NAMES = ["Ann", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hal"]
GAMES = ["Topiary", "Topas", "Total Landscaping", "GeoShapes", "Topitop"]


def _scores(rng: random.Random, game: str, players: int) -> tuple[list, int]:
    """(totals as BG Stats writes them, the winner's index): plays the sheet rules accept."""
    winner = rng.randrange(players)
    if game == "Topitop":
        return [""] * players, winner
    if game == "Total Landscaping":
        return [str(2 if i == winner else rng.randint(0, 1)) for i in range(2)], winner
    if game == "GeoShapes":
        return [
            str(25 + rng.randint(1, 10) if i == winner else -rng.randint(1, 10))
            for i in range(players)
        ], winner
    totals = rng.sample(range(20, 60), players)  # distinct: the highest is the one winner
    return [str(t) for t in totals], totals.index(max(totals))


def bgstats_file(plays: int, seed: int = 23) -> str:
    rng = random.Random(seed)
    out = []
    for n in range(plays):
        game = rng.randrange(len(GAMES))
        players = 2 if GAMES[game] in ("Total Landscaping", "Topitop") else rng.randint(2, 4)
        who = rng.sample(range(len(NAMES)), players)
        totals, winner = _scores(rng, GAMES[game], players)
        day = datetime(2015, 1, 1, 19, tzinfo=UTC).timestamp() + n * 8 * 3600
        out.append(
            {
                "uuid": f"BENCH-{n:08d}",
                "gameRefId": game + 1,
                "durationMin": 30,
                "playDate": datetime.fromtimestamp(day, UTC).strftime(bgstats.DATE),
                "locationRefId": 1,
                "ignored": False,
                "board": "",
                "playerScores": [
                    {
                        "playerRefId": p + 1,
                        "score": totals[i],
                        "winner": i == winner,
                        "startPlayer": i == 0,
                        "seatOrder": i + 1,
                        "rank": 0,
                        "newPlayer": False,
                        "team": "",
                        "role": "",
                    }
                    for i, p in enumerate(who)
                ],
            }
        )
    return json.dumps(
        {
            "about": {},
            "userInfo": {},
            "games": [{"id": i + 1, "name": g, "bggId": 0} for i, g in enumerate(GAMES)],
            "players": [{"id": i + 1, "name": n} for i, n in enumerate(NAMES)],
            "locations": [{"id": 1, "name": "Club"}],
            "plays": out,
        }
    )


def parse_only(text: str) -> int:
    """The baseline: the file read and every play's fields parsed, nothing checked or stored."""
    data, fields = json.loads(text), 0
    for play in data["plays"]:
        datetime.strptime(play["playDate"], bgstats.DATE)
        for entry in play["playerScores"]:
            fields += entry["playerRefId"] + (float(entry["score"]) if entry["score"] else 0)
    return fields


def import_file(text: str) -> int:
    recorder = open_recorder(tempfile.mktemp(suffix=".sqlite"))
    imported = bgstats.read(text, {}, UTC)
    stored, _ = recorder.save_imported(imported.matches)
    recorder.close()
    return stored


def run(quick: bool) -> list[Result]:
    plays = 1_000 if quick else 10_000
    text = bgstats_file(plays)
    baseline = best_of(3, lambda: parse_only(text))
    start = time.perf_counter()
    stored = import_file(text)
    elapsed = time.perf_counter() - start
    assert stored == plays, f"{stored} of {plays} plays stored"
    return [
        Result(
            f"import a {plays:,}-play BG Stats file (score-sheet matches, one transaction)",
            plays / elapsed,
            "plays/s",
            plays / baseline,
            f"{elapsed:.1f} s; baseline: read and parse the same file",
        )
    ]
