"""BG Stats (the phone app) export and backup files, in and out.

No official specification exists; the field names are the ones community parsers agree on:
top level `games`, `players`, `locations`, `plays` (plus `about`, `userInfo`); a play has
`uuid`, `gameRefId`, `playDate` ("YYYY-MM-DD HH:MM:SS", local time), `durationMin`,
`locationRefId`, `ignored`, `board` and `playerScores`, each with `playerRefId`, `score` (text),
`winner`, `startPlayer`, `seatOrder`, `rank`, `newPlayer`, `team`, `role`. See docs/interop.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import datetime, tzinfo
from typing import Any
from uuid import uuid5

from tablelog.domain.games import get_rules

from .common import NAMESPACE, UNUSABLE, Imported, Skip, bad, build, game_of, score_of
from .ours import Sheet, score_text

DATE = "%Y-%m-%d %H:%M:%S"


def load(text: str) -> dict[str, Any]:
    """The file's JSON, or one line saying where it breaks (a truncated file, say)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise bad(
            "the file",
            f"not valid JSON ({err.msg} at line {err.lineno} column {err.colno}): is it truncated?",
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("plays"), list):
        raise bad("the file", "not a BG Stats export: no list of `plays` at the top level")
    return data


def by_id(data: Mapping[str, Any], key: str) -> dict[Any, dict[str, Any]]:
    items = data.get(key) or []
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise bad("the file", f"`{key}` is not a list of objects")
    return {item.get("id"): item for item in items}


def count(data: dict[str, Any]) -> int:
    return len(data["plays"])


def read(
    text: str | dict[str, Any],
    mapping: Mapping[str, str],
    zone: tzinfo,
    on_each: Callable[[], None] | None = None,
) -> Imported:
    """Every play of the file checked and built (nothing stored), or BadRecord for a file that
    cannot be read whole: JSON that does not parse, a play naming a player, game or location
    the file lacks, a date that does not parse."""
    data = load(text) if isinstance(text, str) else text  # `load`ed already: counted first
    games, players, places = (by_id(data, k) for k in ("games", "players", "locations"))
    imported = Imported()
    for number, play in enumerate(data["plays"], start=1):
        label = f"play {number}" + (
            f" ({play.get('uuid')})" if isinstance(play, dict) and play.get("uuid") else ""
        )
        if not isinstance(play, dict):
            raise bad(label, "a play is a JSON object")
        try:
            _play(imported, number, label, play, (games, players, places), mapping, zone)
        except Skip as why:
            imported.skip(UNUSABLE, f"{label}: {why}")
        if on_each:
            on_each()
    return imported


def _play(
    imported: Imported,
    number: int,
    label: str,
    play: dict[str, Any],
    refs: tuple[dict, dict, dict],
    mapping: Mapping[str, str],
    zone: tzinfo,
) -> None:
    games, players, places = refs
    game_entry = games.get(play.get("gameRefId"))
    if game_entry is None:
        raise bad(label, f"gameRefId {play.get('gameRefId')!r} names no game of the file")
    played = _date(play.get("playDate"), label, zone)
    scores = play.get("playerScores")
    if not isinstance(scores, list):
        raise bad(label, "playerScores is not a list")
    names = [_player(players, entry, label) for entry in scores]
    location = _location(places, play.get("locationRefId"), label)
    game = game_of(game_entry.get("name"), game_entry.get("bggId"), mapping)
    if game is None:
        imported.skip(f"not one of Tablelog's games ({game_entry.get('name')})")
        return
    if play.get("ignored"):
        imported.skip("marked ignored in BG Stats")
        return
    if not play.get("uuid"):
        raise Skip("no uuid, so it could not be imported only once")
    if any(entry.get("team") for entry in scores):
        raise Skip("played in teams: none of the five games has team rules")
    seats, sheet = _sheet(scores, names, label)
    sheet.update(
        duration_min=_minutes(play.get("durationMin")),
        location=location,
        board=play.get("board") or None,
    )
    build(imported, number, label, "bgstats", str(play["uuid"]), game, seats, sheet, played)


def _date(text: Any, label: str, zone: tzinfo) -> datetime:
    try:
        return datetime.strptime(str(text), DATE).replace(tzinfo=zone)
    except ValueError:
        raise bad(
            label, f"playDate {str(text)[:40]!r} is not a date like 2024-03-01 19:30:00"
        ) from None


def _player(players: dict, entry: Any, label: str) -> str:
    if not isinstance(entry, dict):
        raise bad(label, "a playerScores entry is not an object")
    player = players.get(entry.get("playerRefId"))
    if player is None or not str(player.get("name") or "").strip():
        raise bad(
            label,
            f"playerScores: playerRefId {entry.get('playerRefId')!r} names no player of the file",
        )
    return str(player["name"]).strip()


def _location(places: dict, ref: Any, label: str) -> str | None:
    if ref in (None, 0, ""):
        return None
    if ref not in places:
        raise bad(label, f"locationRefId {ref!r} names no location of the file")
    return str(places[ref].get("name") or "").strip() or None


def _minutes(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _sheet(scores: list[dict], names: list[str], label: str) -> tuple[list[str], dict]:
    """Seats in turn order (by seatOrder where every player has a distinct one, else as
    listed), each seat's total, who started and who won."""
    order = [entry.get("seatOrder") for entry in scores]
    rows = list(zip(names, scores))
    if all(isinstance(o, int) for o in order) and len(set(order)) == len(order):
        rows.sort(key=lambda row: row[1]["seatOrder"])
    seats = [name for name, _ in rows]
    totals = [score_of(entry.get("score"), f"{name}'s score") for name, entry in rows]
    winners = [name for name, entry in rows if entry.get("winner")]
    starters = [name for name, entry in rows if entry.get("startPlayer")]
    if not winners and all(t is None for t in totals):
        raise Skip("no winner and no score: nothing to record")
    entries = [
        None
        if t is None and not entry.get("role") and entry.get("newPlayer") is None
        else {
            "total": t,
            "role": entry.get("role") or None,
            "new": entry.get("newPlayer") if isinstance(entry.get("newPlayer"), bool) else None,
        }
        for t, (_, entry) in zip(totals, rows)
    ]
    return seats, {
        "scores": entries,
        "winners": winners,
        "first": starters[0] if len(starters) == 1 else None,
    }


# ---- writing ----------------------------------------------------------------------------------


def write(sheets: list[Sheet], zone: tzinfo, version: str) -> dict[str, Any]:
    """A BG Stats file of our matches: players, locations and games listed once each."""
    refs: dict[str, dict[str, int]] = {"players": {}, "locations": {}, "games": {}}

    def ref(kind: str, name: str) -> int:
        return refs[kind].setdefault(name, len(refs[kind]) + 1)

    plays = [_play_out(sheet, zone, ref) for sheet in sheets]
    return {
        "about": {
            "app": "Tablelog",
            "version": version,
            "note": "written by tablelog export --to bgstats",
        },
        "games": [
            {
                "id": n,
                "uuid": _uuid("game", game).upper(),
                "name": get_rules(game).name,
                "bggId": 0,
                "cooperative": False,
                "highestWins": True,
                "noPoints": game == "topitop",
                "usesTeams": False,
            }
            for game, n in refs["games"].items()
        ],
        "players": [
            {"id": n, "uuid": _uuid("player", name).upper(), "name": name, "isAnonymous": False}
            for name, n in refs["players"].items()
        ],
        "locations": [
            {"id": n, "uuid": _uuid("location", name).upper(), "name": name}
            for name, n in refs["locations"].items()
        ],
        "plays": plays,
        "userInfo": {"meRefId": 0},
    }


def _uuid(kind: str, name: str) -> str:
    return str(uuid5(NAMESPACE, f"bgstats-{kind}:{name}"))


def _play_out(sheet: Sheet, zone: tzinfo, ref: Callable[[str, str], int]) -> dict[str, Any]:
    # A play that came from BG Stats keeps its uuid, so importing it back finds it again.
    source = sheet.source or {}
    uuid = source["id"] if source.get("from") == "bgstats" else sheet.match_id.upper()
    ranks = sorted({t for t in sheet.totals if t is not None}, reverse=True)
    return {
        "uuid": uuid,
        "gameRefId": ref("games", sheet.game),
        "playDate": sheet.played.astimezone(zone).strftime(DATE),
        "durationMin": sheet.duration_min or 0,
        "locationRefId": ref("locations", sheet.location) if sheet.location else 0,
        "ignored": False,
        "board": "",
        "usesTeams": False,
        "manualWinner": True,
        "playerScores": [
            {
                "playerRefId": ref("players", name),
                "score": score_text(total),
                "winner": name in sheet.winners,
                "startPlayer": name == sheet.first,
                "seatOrder": seat,
                "rank": ranks.index(total) + 1 if total is not None else 0,
                "newPlayer": False,
                "team": "",
                "role": "",
            }
            for seat, (name, total) in enumerate(zip(sheet.seats, sheet.totals), start=1)
        ],
    }
