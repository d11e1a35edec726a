"""What the BG Stats and BGG importers and exporters share: finding the game a play is of,
deterministic match ids (so a file imported twice adds nothing), the tally of what was left
out, and each of our matches as a neutral score sheet for the writers."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any
from uuid import UUID, uuid5
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tablelog.domain.errors import BadRecord, Refused
from tablelog.domain.games import GAMES, RulesError
from tablelog.domain.match import Match
from tablelog.domain.sheet_matches import sheet_match

# Fixed forever: a play's match id is uuid5(NAMESPACE, "<tool>:<play id>").
NAMESPACE = UUID("0b5c8f3e-3b9f-5d0a-9a41-7a1e2f0c7d23")
NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


# A play's game by its name as the tool spells it (case, spaces and dashes aside).
NAMES = {_key(rules.name): game for game, rules in GAMES.items()} | {
    _key(game): game for game in GAMES
}


def parse_map(pairs: Iterable[str]) -> dict[str, str]:
    """`--map NAME=game` (NAME: the tool's game name, or bgg:ID) -> {normalised NAME: game}."""
    mapping = {}
    for pair in pairs:
        name, sep, game = pair.rpartition("=")
        if not sep or not name.strip() or game.strip() not in GAMES:
            raise Refused(
                f"--map takes NAME=GAME with GAME one of {', '.join(GAMES)}, got {pair!r}"
            )
        mapping[_key(name)] = game.strip()
    return mapping


def game_of(name: Any, bgg_id: Any, mapping: Mapping[str, str]) -> str | None:
    """Ours, or None for a game Tablelog does not know. `--map` first (by name or bgg:ID),
    then the name. BGG ids of the five games are not built in (not looked up: see
    docs/interop.md); `--map bgg:ID=game` covers them."""
    if bgg_id not in (None, "", 0, "0") and _key(f"bgg:{bgg_id}") in mapping:
        return mapping[_key(f"bgg:{bgg_id}")]
    key = _key(str(name or ""))
    return mapping.get(key) or NAMES.get(key)


def match_id(tool: str, play_id: str) -> UUID:
    return uuid5(NAMESPACE, f"{tool}:{play_id}")


def zone_of(name: str | None) -> tzinfo:
    """Both tools write local times without a zone: the zone they are read in."""
    if name is None:
        here = datetime.now().astimezone().tzinfo
        assert here is not None  # astimezone() always gives the local zone
        return here
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise Refused(f"--zone {name!r} is not a time zone (e.g. Europe/Berlin, UTC)") from None


def score_of(text: Any, where: str) -> int | float | None:
    """A score as the tools write it (text): a number, None when blank, else a Skip saying so:
    free text ("49-46ish") is reported, never guessed."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return None
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return text
    if isinstance(text, str) and NUMBER.fullmatch(text.strip()):
        value = float(text)
        return int(value) if value.is_integer() else value
    raise Skip(f"{where} {str(text)[:40]!r} is not a number (free text is not guessed at)")


UNUSABLE = "unusable (each listed below)"


class Skip(Exception):
    """A play left out of an import, with the reason the summary gives."""


@dataclass
class Imported:
    """An import's result before anything is stored."""

    matches: list[tuple[int, Match]] = field(default_factory=list)  # (play number, match)
    skipped: Counter = field(default_factory=Counter)  # reason -> plays
    reports: list[str] = field(default_factory=list)  # one line per unusable play

    def skip(self, reason: str, report: str | None = None) -> None:
        self.skipped[reason] += 1
        if report:
            self.reports.append(report)

    def summary(self, stored: int, already: int) -> list[str]:
        lines = [
            f"imported {stored} play{'s' if stored != 1 else ''} as score-sheet matches"
            + (f"; {already} already in this store, skipped" if already else "")
        ]
        lines += [f"skipped {count}: {reason}" for reason, count in sorted(self.skipped.items())]
        return lines + [f"  {line}" for line in self.reports]


def build(
    imported: Imported,
    number: int,
    label: str,
    tool: str,
    play_id: str,
    game: str,
    seats: list[str],
    sheet: dict[str, Any],
    played: datetime,
) -> None:
    """The play as a score-sheet match, or counted as unusable with the sheet rules' reason.
    Both events take the play's time, so the same play always makes the same events."""
    try:
        match = sheet_match(
            match_id(tool, play_id),
            game,
            seats,
            {**sheet, "source": {"from": tool, "id": play_id}},
            played_at=played,
            at=played,
        )
    except (Refused, RulesError) as err:
        imported.skip(UNUSABLE, f"{label}: {err}")
        return
    imported.matches.append((number, match))


def bad(label: str, message: str) -> BadRecord:
    """A file that cannot be read as a whole: one line naming the play and the field."""
    return BadRecord(f"{label}: {message}; nothing was imported")
