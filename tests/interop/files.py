"""BG Stats and BGG files written for a test: plays the sheet rules accept (Topas: the highest
total wins, 0 to 196 a seat), the fixture files without their bad plays, and a store holding a
match of every kind the exports write."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

from tablelog.store import open_recorder
from tests.test_recorder import WIN

from .helpers import BGG, BGSTATS, tablelog

NAMES = ["Ann", "Ben", "Cleo", "Dev"]
ZONE = ("--zone", "Europe/Berlin")
# The fixtures' plays that cannot be imported: a team play, a free-text score, a winner the
# totals contradict (BG Stats); a free-text score (BGG).
BAD_BGSTATS = {9, 10, 11}
BAD_BGG = {7}


def bgstats_play(number: int, **fields: Any) -> dict[str, Any]:
    """A good two-player Topas play (Ann wins) dated day `number` of 2023; `fields` replace the
    play's, and `score`, `newPlayer`... (given as `seat_FIELD`) the first seat's."""
    seat = {k[5:]: v for k, v in fields.items() if k.startswith("seat_")}
    play = {
        "uuid": f"PLAY-{number:05d}",
        "gameRefId": 1,
        "playDate": f"2023-01-01 {number % 24:02d}:{number // 24 % 60:02d}:00",
        "durationMin": 30,
        "locationRefId": 1,
        "ignored": False,
        "board": "",
        "playerScores": [
            {"playerRefId": 1, "score": "50", "winner": True, "startPlayer": True, "seatOrder": 1}
            | {"newPlayer": False, "team": "", "role": ""}
            | seat,
            {"playerRefId": 2, "score": "40", "winner": False, "startPlayer": False}
            | {"seatOrder": 2, "newPlayer": False, "team": "", "role": ""},
        ],
    }
    return play | {k: v for k, v in fields.items() if not k.startswith("seat_")}


def bgstats_file(plays: list[dict[str, Any]], **game: Any) -> str:
    """The plays in a file whose game 1 is Topas (without a BGG id): `game` replaces its fields."""
    return json.dumps(
        {
            "games": [{"id": 1, "name": "Topas", "bggId": 0} | game, {"id": 2, "name": "Chess"}],
            "players": [{"id": n + 1, "name": name} for n, name in enumerate(NAMES)],
            "locations": [{"id": 1, "name": "Club"}],
            "plays": plays,
        }
    )


def bgg_play(number: int, item: dict[str, str] | None = None, **attributes: str) -> str:
    """A good two-player Topas play as BGG writes it (without a BGG id); `item` replaces the
    game's attributes, `attributes` the play's, and `seat_ATTRIBUTE` the first player's."""
    play = {"id": str(80_000_000 + number), "date": "2023-01-02", "quantity": "1"}
    play |= {"length": "30", "location": "Club"}
    seat = {"name": "Ann", "startposition": "1", "score": "50", "new": "0", "win": "1"}
    for key, value in attributes.items():
        (seat if key.startswith("seat_") else play)[key.removeprefix("seat_")] = value
    element = ET.Element("play", play)
    ET.SubElement(element, "item", {"name": "Topas", "objectid": "0"} | (item or {}))
    players = ET.SubElement(element, "players")
    ET.SubElement(players, "player", seat)
    ET.SubElement(players, "player", name="Ben", startposition="2", score="40", win="0")
    return ET.tostring(element, encoding="unicode")


def bgg_file(plays: list[str]) -> str:
    return f'<?xml version="1.0" encoding="utf-8"?><plays>{"".join(plays)}</plays>'


def clean_bgstats() -> str:
    """The BG Stats fixture without its bad plays: 6 plays of the five games, 3 left out."""
    data = json.loads(BGSTATS.read_text())
    data["plays"] = [p for n, p in enumerate(data["plays"], start=1) if n not in BAD_BGSTATS]
    return json.dumps(data)


def clean_bgg() -> str:
    """The BGG fixture without its bad play: 6 matches (one play is played twice), 2 left out."""
    root = ET.fromstring(BGG.read_text())
    for number, play in reversed(list(enumerate(root.findall("play"), start=1))):
        if number in BAD_BGG:
            root.remove(play)
    return ET.tostring(root, encoding="unicode")


def every_kind(store: str, tmp_path) -> int:
    """Fill `store` with plays from both tools, score sheets typed in (with what a seat may
    carry: a role, a colour, a first play; a board; a fractional total), a Topitop match logged
    move by move, and a running match (which has no result to export); returns the number of
    ended matches."""
    for tool, text in (("bgstats", clean_bgstats()), ("bgg", clean_bgg())):
        (tmp_path / tool).write_text(text)
        code, _, err = tablelog(store, "import", "--from", tool, str(tmp_path / tool), *ZONE)
        assert code == 0, err
    recorder = open_recorder(store)
    recorder.start_sheet(
        "topiary",
        ["Ann", "Ben", "Cleo"],
        {
            "scores": [
                {"total": 40.25, "role": "host", "colour": "red"},
                {"total": 30, "new": True},
            ]
            + [None],
            "winners": ["Ann"],
            "first": "Ben",
            "board": "spring garden",
        },
        played_at="2024-05-01T20:15:00+02:00",
    )
    recorder.start_sheet(
        "topas",
        ["Dev", "Eve"],
        {"scores": [{"total": 40}, {"total": 52}], "winners": ["Eve"], "location": "Library"},
        played_at="2024-05-02T21:00:00+02:00",
    )
    # Played at a time of its own, so that what BGG's date-only play reads back (noon, or the
    # day's start for a play of today before noon) does not hang on the clock.
    logged = recorder.start("topitop", ["Ann", "Ben"], played_at="2024-05-03T19:00:00+02:00")
    for seat, move in WIN:
        recorder.record(logged, seat, move)
    recorder.end(logged)
    recorder.start("topitop", ["Cleo", "Dev"])  # running: not exported
    recorder.close()
    return 6 + 6 + 3
