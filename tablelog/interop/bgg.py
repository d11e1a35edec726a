"""BoardGameGeek's play log, in and out: the XML of BGG's plays API (xmlapi2 `plays`).

    <plays username=".." total=".." page="1">
      <play id=".." date="YYYY-MM-DD" quantity="1" length="45" incomplete="0" nowinstats="0"
            location="..">
        <item name="Topiary" objecttype="thing" objectid=".."/>
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
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from datetime import datetime, tzinfo
from typing import Any

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from tablelog.domain.games import get_rules

from .common import UNUSABLE, Imported, Skip, bad, build, game_of, score_of
from .ours import Sheet, score_text

TERMS = "https://boardgamegeek.com/xmlapi/termsofuse"


def load(text: str) -> ET.Element:
    try:
        root = SafeET.fromstring(text)
    except (ET.ParseError, DefusedXmlException) as err:
        raise bad("the file", f"not BGG plays XML ({err})") from None
    if root.tag != "plays":
        raise bad(
            "the file",
            f"not BGG plays XML: its root is <{root.tag}>, not <plays> "
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
    imported = Imported()
    root = load(text) if isinstance(text, str) else text  # `load`ed already: counted first
    for number, play in enumerate(root.iter("play"), start=1):
        label = f"play {number}" + (f" (id {play.get('id')})" if play.get("id") else "")
        try:
            _play(imported, number, label, play, mapping, zone)
        except Skip as why:
            imported.skip(UNUSABLE, f"{label}: {why}")
        if on_each:
            on_each()
    return imported


def _play(
    imported: Imported,
    number: int,
    label: str,
    play: ET.Element,
    mapping: Mapping[str, str],
    zone: tzinfo,
) -> None:
    played = _date(play.get("date"), label, zone)
    item = play.find("item")
    name = item.get("name") if item is not None else None
    game = game_of(name, item.get("objectid") if item is not None else None, mapping)
    if game is None:
        imported.skip(f"not one of Tablelog's games ({name})")
        return
    if play.get("incomplete") == "1":
        imported.skip("marked incomplete on BGG")
        return
    if play.get("nowinstats") == "1":
        imported.skip("marked 'do not count in win stats' on BGG")
        return
    seats, sheet = _sheet(play.findall("players/player"), label)
    sheet.update(
        duration_min=_minutes(play.get("length")),
        location=(play.get("location") or "").strip() or None,
    )
    quantity = play.get("quantity") or "1"
    copies = int(quantity) if quantity.isdigit() and 0 < int(quantity) <= 100 else 1
    for copy in range(copies):  # "played 3 times" with one result: three matches
        play_id = _play_id(play) + (f"/{copy + 1}" if copies > 1 else "")
        build(imported, number, label, "bgg", play_id, game, seats, sheet, played)


def _play_id(play: ET.Element) -> str:
    """BGG's play id; a play written without one (id 0) is known by its content instead."""
    play_id = play.get("id")
    if play_id and play_id != "0":
        return play_id
    return "sha256:" + hashlib.sha256(ET.tostring(play)).hexdigest()[:32]


def _date(text: Any, label: str, zone: tzinfo) -> datetime:
    try:
        return datetime.strptime(str(text), "%Y-%m-%d").replace(hour=12, tzinfo=zone)
    except ValueError:
        raise bad(label, f"date {str(text)[:40]!r} is not a date like 2024-03-01") from None


def _minutes(text: Any) -> int | None:
    return int(text) if text and text.isdigit() and int(text) > 0 else None


def _sheet(players: list[ET.Element], label: str) -> tuple[list[str], dict]:
    names = [(p.get("name") or p.get("username") or "").strip() for p in players]
    if not players or not all(names):
        raise Skip("a player without a name or username" if players else "no players")
    positions = [p.get("startposition") or "" for p in players]
    rows = list(zip(names, players))
    if all(pos.isdigit() for pos in positions) and len(set(positions)) == len(positions):
        rows.sort(key=lambda row: int(row[1].get("startposition", "")))
    seats = [name for name, _ in rows]
    totals = [score_of(p.get("score"), f"{name}'s score") for name, p in rows]
    winners = [name for name, p in rows if p.get("win") == "1"]
    if not winners and all(t is None for t in totals):
        raise Skip("no winner and no score: nothing to record")
    first = [name for name, p in rows if p.get("startposition") == "1"]
    entries = [
        {"total": t, "colour": (p.get("color") or "").strip() or None, "new": p.get("new") == "1"}
        for t, (_, p) in zip(totals, rows)
    ]
    return seats, {"scores": entries, "winners": winners, "first": first[0] if first else None}


# ---- writing ----------------------------------------------------------------------------------


def write(sheets: list[Sheet], zone: tzinfo) -> bytes:
    """The plays API's XML for our matches (`id` 0 unless the play came from BGG; the match id
    is in the comments, so the play is known again when imported back)."""
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
                "date": sheet.played.astimezone(zone).strftime("%Y-%m-%d"),
                "quantity": "1",
                "length": str(sheet.duration_min or 0),
                "incomplete": "0",
                "nowinstats": "0",
                "location": sheet.location or "",
            },
        )
        ET.SubElement(
            play, "item", name=get_rules(sheet.game).name, objecttype="thing", objectid="0"
        )
        ET.SubElement(play, "comments").text = f"Tablelog match {sheet.match_id}"
        players = ET.SubElement(play, "players")
        for seat, (name, total) in enumerate(zip(sheet.seats, sheet.totals), start=1):
            ET.SubElement(
                players,
                "player",
                username="",
                userid="0",
                name=name,
                startposition=str(seat),
                color="",
                score=score_text(total),
                new="0",
                rating="0",
                win="1" if name in sheet.winners else "0",
            )
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
