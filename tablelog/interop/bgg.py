"""BoardGameGeek's play log, in and out: the XML of BGG's plays API (xmlapi2 `plays`).

    <plays username=".." total=".." page="1">
      <play id=".." date="YYYY-MM-DD" quantity="1" length="45" incomplete="0" nowinstats="0"
            location="..">
        <item name="Topiary" objecttype="thing" objectid="210900">
          <subtypes><subtype value="boardgame"/></subtypes></item>
        <comments>..</comments>
        <players><player username=".." userid=".." name="Ann" startposition="1" color="red"
                         score="43" new="0" rating="0" win="1"/></players>
      </play>
    </plays>

The file is untrusted: parsed with defusedxml (no entity expansion, no external entities).
Writing uses the standard library's ElementTree.
"""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from datetime import datetime, tzinfo
from uuid import UUID

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from tablelog.domain.games import get_rules
from tablelog.domain.matches.times import within_range

from .common import (
    BGG_ENTRY,
    DIGITS,
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

TERMS = "https://boardgamegeek.com/xmlapi/termsofuse"
TABLELOG = "tablelog:"  # the play id of a play of our export: "tablelog:<match id>"
MOST_TIMES = 100  # a play's `quantity`: "played 3 times" makes three matches
# What our export writes in `comments`: the play is that match of the store it came from.
OURS = re.compile(r"Tablelog match ([0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12})")


def load(text: str) -> ET.Element:
    try:
        root = SafeET.fromstring(text)
    except (ET.ParseError, DefusedXmlException) as err:
        raise bad("the file", f"not BGG plays XML ({err})") from None
    if root.tag != "plays":
        raise bad(
            "the file",
            f"not BGG plays XML: its root is <{shown(root.tag)[1:-1]}>, not <plays> "
            "(an HTML page saved instead of the API's answer?)",
        )
    return root


def count(root: ET.Element) -> int:
    return sum(1 for _ in root.iter("play"))


def read(
    text: str | ET.Element,
    mapping: Mapping[str, str],
    zone: tzinfo,
    on_each: Callable[[], None] | None = None,
) -> Imported:
    """Every play checked and built (nothing stored), each bad one named; or BadRecord for a
    file that is not plays XML."""
    root = load(text) if isinstance(text, str) else text  # `load`ed already: counted first

    def labelled(number: int, play: ET.Element) -> str:
        item = play.find("item")
        name = item.get("name") if item is not None else None
        play_id = play.get("id")
        return label(number, play.get("date"), name, f"id {play_id}" if play_id else None)

    def one(imported: Imported, number: int, where: str, play: ET.Element) -> None:
        _play(imported, number, where, play, mapping, zone)

    return read_plays(root.iter("play"), labelled, one, on_each)


def _play(
    imported: Imported,
    number: int,
    where: str,
    play: ET.Element,
    mapping: Mapping[str, str],
    zone: tzinfo,
) -> None:
    item = play.find("item")
    name = item.get("name") if item is not None else None
    objectid = item.get("objectid") if item is not None else None
    game = game_of(name, objectid, mapping)
    if game is None:  # not checked further: nothing of it is stored
        imported.leave_out(left_out(name, objectid))
        return
    if play.get("incomplete") == "1":
        imported.leave_out("marked incomplete on BGG")
        return
    if play.get("nowinstats") == "1":
        imported.leave_out("marked 'do not count in win stats' on BGG")
        return
    played = _date(play.get("date"), zone)
    copies = _quantity(play.get("quantity"))
    seats, sheet = _sheet(play.findall("players/player"))
    sheet.update(
        duration_min=minutes(play.get("length"), "length"),
        location=(play.get("location") or "").strip() or None,
    )
    named = OURS.search(play.findtext("comments") or "")
    ours = UUID(named.group(1)) if named else None
    for copy in range(copies):  # "played 3 times" with one result: three matches
        play_id = _play_id(play, ours) + (f"/{copy + 1}" if copies > 1 else "")
        match = sheet_play("bgg", play_id, game, seats, sheet, played)
        imported.add(Play(number, where, match, names=ours), "play id")


def _quantity(text: str | None) -> int:
    """How many times the play was played; BGG writes 1 when the player gave none."""
    if text is None or text == "":
        return 1
    if DIGITS.fullmatch(text) and 1 <= int(text) <= MOST_TIMES:
        return int(text)
    raise BadPlay(f"quantity {shown(text)} is not a number of times from 1 to {MOST_TIMES}")


def _play_id(play: ET.Element, ours: UUID | None) -> str:
    """BGG's play id. A play written without one (id 0): the Tablelog match it names (our own
    export), which its own export names again, so the play stays that match from store to store;
    else its content."""
    play_id = play.get("id")
    if play_id and play_id != "0":
        return play_id
    if ours is not None:
        return f"{TABLELOG}{ours}"
    return "sha256:" + hashlib.sha256(ET.tostring(play)).hexdigest()[:32]


def _date(text: str | None, zone: tzinfo) -> datetime:
    try:
        day = datetime.strptime(str(text), "%Y-%m-%d").replace(tzinfo=zone)
    except ValueError:
        raise BadPlay(f"date {shown(text)} is not a date like 2024-03-01") from None
    # A play has a date, no time: noon of it, or, for a play of today whose noon is still
    # ahead, the day's start (noon would be "in the future").
    noon = day.replace(hour=12)
    return within_range(noon if noon <= datetime.now(zone) else day, "date")


def _sheet(players: list[ET.Element]) -> tuple[list[str], dict]:
    names = [(p.get("name") or p.get("username") or "").strip() for p in players]
    if not players or not all(names):
        raise BadPlay("a player without a name or username" if players else "no players")
    positions = [p.get("startposition") or "" for p in players]
    rows = list(zip(names, players))
    if all(DIGITS.fullmatch(pos) for pos in positions) and len(set(positions)) == len(positions):
        rows.sort(key=lambda row: int(row[1].get("startposition", "")))
    seats = [name for name, _ in rows]
    totals = [score_of(p.get("score"), f"{name}'s score") for name, p in rows]
    winners = [name for name, p in rows if p.get("win") == "1"]
    if not winners and all(t is None for t in totals):
        raise BadPlay("no winner and no score: nothing to record")
    first = [name for name, p in rows if p.get("startposition") == "1"]
    entries = [
        {"total": t, "colour": (p.get("color") or "").strip() or None, "new": p.get("new") == "1"}
        for t, (_, p) in zip(totals, rows)
    ]
    return seats, {"scores": entries, "winners": winners, "first": first[0] if first else None}


# ---- writing ----------------------------------------------------------------------------------


def write(sheets: list[Sheet], zone: tzinfo) -> bytes:
    """The plays API's XML for our matches, as BGG writes it (`id` 0 unless the play came from
    BGG; the match id is in the comments, so the play is known again when imported back)."""
    root = ET.Element(
        "plays", username="", userid="0", total=str(len(sheets)), page="1", termsofuse=TERMS
    )
    for sheet in sheets:
        source = sheet.source or {}
        play = ET.SubElement(
            root,
            "play",
            {
                "id": source["id"]
                if source.get("from") == "bgg" and source["id"].isdigit()
                else "0",
                "date": local(sheet, sheet.played, zone).strftime("%Y-%m-%d"),
                "quantity": "1",
                "length": str(sheet.duration_min or 0),
                "incomplete": "0",
                "nowinstats": "0",
                "location": sheet.location or "",
            },
        )
        _item(play, sheet.game)
        ET.SubElement(play, "comments").text = f"Tablelog match {_origin(sheet)}"
        _players(ET.SubElement(play, "players"), sheet)
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _item(play: ET.Element, game: str) -> None:
    """The game played, by its BoardGameGeek id where it declares one (0: none)."""
    bgg = BGG_ENTRY.get(game)
    item = ET.SubElement(
        play,
        "item",
        name=bgg.name if bgg else get_rules(game).name,
        objecttype="thing",
        objectid=str(bgg.id) if bgg else "0",
    )
    ET.SubElement(ET.SubElement(item, "subtypes"), "subtype", value="boardgame")


def _players(players: ET.Element, sheet: Sheet) -> None:
    for name, total, entry, position in zip(
        sheet.seats, sheet.totals, sheet.entries, _positions(sheet)
    ):
        ET.SubElement(
            players,
            "player",
            username="",
            userid="0",
            name=name,
            startposition=position,
            color=(entry or {}).get("colour") or "",
            score=score_text(total),
            new="1" if (entry or {}).get("new") else "0",
            rating="0",
            win="1" if name in sheet.winners else "0",
        )


def _origin(sheet: Sheet) -> str:
    """The match a play is: this one, or the one whose export it was imported from."""
    source = sheet.source or {}
    if source.get("from") == "bgg" and source["id"].startswith(TABLELOG):
        return source["id"].removeprefix(TABLELOG).partition("/")[0]
    return sheet.match_id


def _positions(sheet: Sheet) -> list[str]:
    """`startposition` per seat, the seats listed in their order: each seat's place in turn
    order counted from the seat that started (1), as BGG numbers them; none when nobody is
    known to have started. (Read back, the seats then begin with the one that started.)"""
    if sheet.first is None:
        return [""] * len(sheet.seats)
    start, count = sheet.seats.index(sheet.first), len(sheet.seats)
    return [str((seat - start) % count + 1) for seat in range(count)]


def round_trip(sheet: Sheet, zone: tzinfo) -> Imported:
    """One of our matches exported as BGG plays XML and read back: what importing that play
    again would make of it."""
    return read(SafeET.fromstring(write([sheet], zone)), {}, zone)
