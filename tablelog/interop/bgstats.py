"""BG Stats (the phone app) export and backup files, in and out.

No official specification exists; the field names are the ones community parsers agree on:
top level `games`, `players`, `locations`, `plays` (plus `about`, `userInfo`); a play has
`uuid`, `gameRefId`, `playDate` ("YYYY-MM-DD HH:MM:SS", local time), `durationMin`,
`locationRefId`, `ignored`, `board` and `playerScores`, each with `playerRefId`, `score` (text),
`winner`, `startPlayer`, `seatOrder`, `rank`, `newPlayer`, `team`, `role`. The export also
writes what BG Stats' own exports carry: a play's `playDateYmd` (a number, 20240301),
`entryDate`, `modificationDate`, `rounds`, `comments`; a game's `bggId`, `bggName`, `bggYear`.
See docs/interop.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import datetime, tzinfo
from typing import Any, TypedDict, cast
from uuid import UUID, uuid5

from tablelog.domain.games import get_rules
from tablelog.domain.matches.times import within_range
from tablelog.domain.plain import PlainDict, PlainMapping, PlainValue, read_json

from .common import (
    BGG_ENTRY,
    NAMESPACE,
    BadPlay,
    Imported,
    Play,
    bad,
    game_of,
    label,
    left_out,
    minutes,
    read_plays,
    score_of,
    sheet_play,
    shown,
)
from .ours import Sheet, local, score_text

DATE = "%Y-%m-%d %H:%M:%S"


class Export(TypedDict):
    """A BG Stats export as `load` checks it: a JSON object with a list of plays (the games,
    players and locations they refer to are checked as they are read, `by_id`)."""

    plays: list[object]


def load(text: str) -> Export:
    """The file's JSON, or one line saying where it breaks (a truncated file, say)."""
    try:
        data = read_json(text)
    except json.JSONDecodeError as err:
        raise bad(
            "the file",
            f"not valid JSON ({err.msg} at line {err.lineno} column {err.colno}): is it truncated?",
        ) from None
    except RecursionError:
        raise bad("the file", "not a BG Stats export: nested too deep to read") from None
    except ValueError:  # Python reads no integer of more than 4,300 digits
        raise bad("the file", "holds a number of more than 4,300 digits") from None
    if not isinstance(data, dict) or not isinstance(data.get("plays"), list):
        raise bad("the file", "not a BG Stats export: no list of `plays` at the top level")
    return cast(Export, data)  # JSON, checked as far as `Export` says


def by_id(data: PlainMapping, key: str) -> dict[int | str | None, PlainMapping]:
    items = data.get(key) or []
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise bad("the file", f"`{key}` is not a list of objects")
    return {_ref(item.get("id")): item for item in items}


def _ref(value: object) -> int | str | None:
    """A reference as a key: a list or object (unhashable) names nothing."""
    return value if isinstance(value, (int, str)) else None


def count(data: Export) -> int:
    return len(data["plays"])


def read(
    text: str | dict[str, Any],
    mapping: Mapping[str, str],
    zone: tzinfo,
    on_each: Callable[[], None] | None = None,
) -> Imported:
    """Every play of the file checked and built (nothing stored), each bad one named; or
    BadRecord for a file that cannot be read at all (JSON that does not parse, no `plays`)."""
    data = load(text) if isinstance(text, str) else text  # `load`ed already: counted first
    games, players, places = (by_id(data, k) for k in ("games", "players", "locations"))

    def labelled(number: int, play: object) -> str:
        if not isinstance(play, dict):
            return label(number)
        game = games.get(_ref(play.get("gameRefId"))) or {}
        return label(number, play.get("playDate"), game.get("name"), play.get("uuid"))

    def one(imported: Imported, number: int, where: str, play: object) -> None:
        _play(imported, number, where, play, (games, players, places), mapping, zone)

    return read_plays(data["plays"], labelled, one, on_each)


def _play(
    imported: Imported,
    number: int,
    where: str,
    play: object,
    refs: tuple[dict, dict, dict],
    mapping: Mapping[str, str],
    zone: tzinfo,
) -> None:
    if not isinstance(play, dict):
        raise BadPlay("a play is a JSON object")
    games, players, places = refs
    game_entry = games.get(_ref(play.get("gameRefId")))
    if game_entry is None:
        raise BadPlay(f"gameRefId {shown(play.get('gameRefId'))} names no game of the file")
    game = game_of(game_entry.get("name"), game_entry.get("bggId"), mapping)
    if game is None:  # not checked further: nothing of it is stored
        imported.leave_out(left_out(game_entry.get("name"), game_entry.get("bggId")))
        return
    if play.get("ignored") is True:
        imported.leave_out("marked ignored in BG Stats")
        return
    uuid = play.get("uuid")
    if not isinstance(uuid, str) or not uuid.strip():
        raise BadPlay("no uuid, so it could not be imported only once")
    played = _date(play.get("playDate"), zone)
    scores = play.get("playerScores")
    if not isinstance(scores, list) or not all(isinstance(entry, dict) for entry in scores):
        raise BadPlay("playerScores is not a list of objects")
    if any(entry.get("team") for entry in scores):
        raise BadPlay("played in teams: none of the five games has team rules")
    names = [_player(players, entry) for entry in scores]
    seats, sheet = _sheet(scores, names)
    sheet.update(
        duration_min=minutes(play.get("durationMin"), "durationMin"),
        location=_location(places, play.get("locationRefId")),
        board=play.get("board") or None,
    )
    match = sheet_play("bgstats", uuid, game, seats, sheet, played)
    imported.add(Play(number, where, match, names=_uuid_of(uuid)), "uuid")


def _uuid_of(text: str) -> UUID | None:
    """The Tablelog match a play of our own export is (its uuid is the match id)."""
    try:
        return UUID(text)
    except ValueError:
        return None


def _date(text: Any, zone: tzinfo) -> datetime:
    try:
        played = datetime.strptime(text, DATE).replace(tzinfo=zone)
    except (TypeError, ValueError):
        raise BadPlay(f"playDate {shown(text)} is not a date like 2024-03-01 19:30:00") from None
    return within_range(played, "playDate")


def _player(players: dict, entry: dict) -> str:
    player = players.get(_ref(entry.get("playerRefId")))
    name = player.get("name") if player is not None else None
    if not isinstance(name, str) or not name.strip():
        raise BadPlay(
            f"playerScores: playerRefId {shown(entry.get('playerRefId'))} names no player "
            "of the file"
        )
    return name.strip()


def _location(places: dict, ref: object) -> str | None:
    if ref in (None, 0, ""):
        return None
    place = places.get(_ref(ref))
    if place is None:
        raise BadPlay(f"locationRefId {shown(ref)} names no location of the file")
    name = place.get("name")
    return name.strip() or None if isinstance(name, str) else None


def _sheet(scores: list[dict], names: list[str]) -> tuple[list[str], dict]:
    """Seats in turn order (by seatOrder where every player has a distinct one, else as
    listed), each seat's total, who started and who won."""
    order = [entry.get("seatOrder") for entry in scores]
    rows = list(zip(names, scores))
    if all(_whole(o) for o in order) and len(set(order)) == len(order):
        rows.sort(key=lambda row: row[1]["seatOrder"])
    seats = [name for name, _ in rows]
    totals = [score_of(entry.get("score"), f"{name}'s score") for name, entry in rows]
    winners = [name for name, entry in rows if entry.get("winner") is True]
    starters = [name for name, entry in rows if entry.get("startPlayer") is True]
    if not winners and all(t is None for t in totals):
        raise BadPlay("no winner and no score: nothing to record")
    entries = [
        None
        if t is None and not entry.get("role") and entry.get("newPlayer") is None
        else {"total": t, "role": entry.get("role") or None, "new": entry.get("newPlayer")}
        for t, (_, entry) in zip(totals, rows)
    ]
    return seats, {
        "scores": entries,
        "winners": winners,
        "first": starters[0] if len(starters) == 1 else None,
    }


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---- writing ----------------------------------------------------------------------------------


def write(sheets: list[Sheet], zone: tzinfo, version: str = "") -> PlainDict:
    """A BG Stats file of our matches, with the fields BG Stats' own exports have: players,
    locations and games listed once each. `userInfo.meRefId` (the app owner's player) is left
    out: a Tablelog store has no owner among its players."""
    refs: dict[str, dict[str, int]] = {"players": {}, "locations": {}, "games": {}}

    def ref(kind: str, name: str) -> int:
        return refs[kind].setdefault(name, len(refs[kind]) + 1)

    plays: list[PlainValue] = [_play_out(sheet, zone, ref) for sheet in sheets]
    return {
        "about": f"written by Tablelog {version}".strip(),  # BG Stats writes text here
        "games": [_game_out(game, n) for game, n in refs["games"].items()],
        "players": [
            {"id": n, "uuid": _uuid("player", name).upper(), "name": name, "isAnonymous": False}
            for name, n in refs["players"].items()
        ],
        "locations": [
            {"id": n, "uuid": _uuid("location", name).upper(), "name": name}
            for name, n in refs["locations"].items()
        ],
        "plays": plays,
        "userInfo": {},
    }


def _game_out(game: str, number: int) -> PlainDict:
    """A game as BG Stats lists it: its BoardGameGeek id, name and year where it declares them
    (bggId 0: none)."""
    bgg = BGG_ENTRY.get(game)
    return {
        "id": number,
        "uuid": _uuid("game", game).upper(),
        "name": get_rules(game).name,
        "bggId": bgg.id if bgg else 0,
        **({"bggName": bgg.name, "bggYear": bgg.year} if bgg else {}),
        "cooperative": False,
        "highestWins": True,
        "noPoints": game == "topitop",
        "usesTeams": False,
    }


def _uuid(kind: str, name: str) -> str:
    return str(uuid5(NAMESPACE, f"bgstats-{kind}:{name}"))


def _play_out(sheet: Sheet, zone: tzinfo, ref: Callable[[str, str], int]) -> PlainDict:
    # A play that came from BG Stats keeps its uuid, so importing it back finds it again; any
    # other match is written with its own id, which an import into this store finds too.
    source = sheet.source or {}
    from_here = source.get("from") == "bgstats"
    played = local(sheet, sheet.played, zone)
    return {
        "uuid": source["id"] if from_here else sheet.match_id.upper(),
        "gameRefId": ref("games", sheet.game),
        "playDate": played.strftime(DATE),
        "playDateYmd": int(played.strftime("%Y%m%d")),
        "entryDate": local(sheet, sheet.entered or sheet.played, zone).strftime(DATE),
        "modificationDate": local(sheet, sheet.modified or sheet.played, zone).strftime(DATE),
        "durationMin": sheet.duration_min or 0,
        "locationRefId": ref("locations", sheet.location) if sheet.location else 0,
        "ignored": False,
        "board": sheet.board or "",
        "rounds": 0,  # BG Stats' "not counted": Tablelog keeps no count of rounds
        "comments": "",
        "usesTeams": False,
        "manualWinner": True,
        "playerScores": _scores_out(sheet, ref, from_here),
    }


def _scores_out(sheet: Sheet, ref: Callable[[str, str], int], from_here: bool) -> list[PlainValue]:
    ranks = sorted({t for t in sheet.totals if t is not None}, reverse=True)
    return [
        {
            "playerRefId": ref("players", name),
            "score": score_text(total),
            "winner": name in sheet.winners,
            "startPlayer": name == sheet.first,
            "seatOrder": seat,
            "rank": ranks.index(total) + 1 if total is not None else 0,
            **_new_player((entry or {}).get("new"), from_here),
            "team": "",
            "role": (entry or {}).get("role") or "",
        }
        for seat, (name, total, entry) in enumerate(
            zip(sheet.seats, sheet.totals, sheet.entries), start=1
        )
    ]


def _new_player(new: bool | None, from_here: bool) -> dict[str, bool]:
    """`newPlayer` as the seat has it; left out only where the BG Stats play it came from had
    none (so it imports back the same), else false when unknown, as BG Stats writes it."""
    return {} if new is None and from_here else {"newPlayer": bool(new)}


def round_trip(sheet: Sheet, zone: tzinfo) -> Imported:
    """One of our matches exported to a BG Stats file and read back: what importing that
    play again would make of it."""
    return read(write([sheet], zone), {}, zone)
