"""What the BG Stats and BGG importers and exporters share: finding the game a play is of,
deterministic match ids (so a file imported twice adds nothing), and the tally of an import:
its plays, those left out (other games) and the bad ones, each named."""

from __future__ import annotations

import math
import re
import reprlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import TypeVar
from uuid import UUID, uuid5
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tablelog.domain.errors import BadRecord, Refused
from tablelog.domain.games import GAMES, RulesError, declarations
from tablelog.domain.matches.match import Match
from tablelog.domain.matches.sheet_matches import sheet_match
from tablelog.domain.plain import PlainDict

# Fixed forever: a play's match id is uuid5(NAMESPACE, "<tool>:<play id>").
NAMESPACE = UUID("0b5c8f3e-3b9f-5d0a-9a41-7a1e2f0c7d23")
NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")
DIGITS = re.compile(r"[0-9]{1,9}")
# The most matches one import builds: each is checked and held until the one transaction that
# stores them all (some 18 KB each until then; measured in docs/interop.md). No club logs so
# many of five games, but a BGG file can ask for 100 of each play (`quantity`).
MOST_MATCHES = 20_000
DETAILED = 10  # bad plays a refusal names with their reasons; it counts the rest
REASON = 240  # characters of one bad play's reason in a refusal (a reason may quote a sheet)


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


# A play's game by its name as the tool spells it (case, spaces and dashes aside), and by the
# BoardGameGeek id a game declares (domain/games/*/declaration.py; docs/interop.md).
NAMES = {_key(rules.name): game for game, rules in GAMES.items()} | {
    _key(game): game for game in GAMES
}
BGG_ENTRY = {game: info.bgg for game, info in declarations().items() if info.bgg is not None}
BGG_GAME = {bgg.id: game for game, bgg in BGG_ENTRY.items()}


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


def game_of(name: object, bgg_id: object, mapping: Mapping[str, str]) -> str | None:
    """Ours, or None for a game Tablelog does not know. `--map` first (by bgg:ID, then by
    name), then the BoardGameGeek id a game declares, then the name: but a play whose BGG id
    is not the id its namesake declares is of another game of that name."""
    given = _bgg_id(bgg_id)
    if given is not None and _key(f"bgg:{given}") in mapping:
        return mapping[_key(f"bgg:{given}")]
    key = _key(name) if isinstance(name, str) else ""
    if key in mapping:
        return mapping[key]
    if given in BGG_GAME:
        return BGG_GAME[given]
    game = NAMES.get(key)
    if game in BGG_ENTRY and given is not None:  # Topas, but not BGG's Topas
        return None
    return game


def left_out(name: object, bgg_id: object) -> str:
    """Why a play of a game `game_of` does not know is left out, in the summary's words."""
    game, given = NAMES.get(_key(name) if isinstance(name, str) else ""), _bgg_id(bgg_id)
    if game in BGG_ENTRY and given is not None:
        return (
            f"not one of Tablelog's games ({plain(name)}, BGG id {given}: Tablelog's "
            f"{BGG_ENTRY[game].name} is BGG id {BGG_ENTRY[game].id})"
        )
    return f"not one of Tablelog's games ({plain(name)})"


def _bgg_id(value: object) -> int | None:
    """A BoardGameGeek id as the file gives it (BG Stats: a number, BGG: text), or None for
    none (absent, 0, anything else)."""
    if isinstance(value, str) and DIGITS.fullmatch(value.strip()):
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None


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


def score_of(text: object, where: str) -> int | float | None:
    """A score as the tools write it (text): a number, None when blank, else a BadPlay saying
    so: free text ("49-46ish") is reported, never guessed. The sheet rules then bound it."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return None
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        value = text
    elif isinstance(text, str) and NUMBER.fullmatch(text.strip()):
        value = float(text)
    else:
        raise BadPlay(f"{where} {shown(text)} is not a number (free text is not guessed at)")
    if isinstance(value, float) and not math.isfinite(value):  # NaN, Infinity, 400 digits
        raise BadPlay(f"{where} {shown(text)} is not a finite number")
    return int(value) if isinstance(value, float) and value.is_integer() else value


_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = 80


def shown(value: object) -> str:
    """A value from the file, quoted on one line and at most 80 characters: a hostile file
    gets no newline, escape sequence or megabyte into a message."""
    return _repr.repr(value)


def plain(value: object) -> str:
    """Text from the file as it is when it is short printable text, else `shown`."""
    if isinstance(value, str) and value.isprintable() and len(value) <= 80:
        return value
    return shown(value)


def label(number: int, *parts: object) -> str:
    """How a refusal names a play: its place in the file, then its date, game and id as the file
    gives them (those it has)."""
    given = [plain(part) for part in parts if part not in (None, "")]
    return f"play {number}" + (f" ({', '.join(given)})" if given else "")


class BadPlay(Exception):
    """A play that cannot be imported as the file gives it; the refusal names it and why."""


@dataclass
class Play:
    number: int  # its place in the file
    label: str
    match: Match  # both events pending
    # The Tablelog match the play says it is: a play of our own export (BG Stats: its uuid;
    # BGG: "Tablelog match ID" in its comments). Importing it back finds that match.
    names: UUID | None = None


@dataclass
class Imported:
    """An import's result before anything is stored."""

    total: int = 0  # plays in the file
    plays: list[Play] = field(default_factory=list)
    left_out: Counter = field(default_factory=Counter)  # reason -> plays (other games...)
    bad: list[str] = field(default_factory=list)  # "play 7 (...): why", in file order
    already: int = 0  # plays this store holds already (`stored.sort_out` counts them)
    _ids: dict[UUID, int] = field(default_factory=dict, repr=False)  # match id -> play

    @property
    def matches(self) -> list[tuple[int, Match]]:
        return [(play.number, play.match) for play in self.plays]

    def add(self, play: Play, what: str) -> None:
        """The play, or a BadPlay when an earlier play of the file has the same `what` (its
        uuid, BGG's play id): a play is imported once."""
        first = self._ids.setdefault(play.match.id, play.number)
        if first != play.number:
            raise BadPlay(f"the same {what} as play {first}")
        self.plays.append(play)

    def leave_out(self, reason: str) -> None:
        self.left_out[reason] += 1

    def refuse(self, label: str, reason: object) -> None:
        text = " ".join(str(reason).split())
        self.bad.append(f"{label}: {text if len(text) <= REASON else text[: REASON - 3] + '...'}")

    def refusal(self) -> str:
        """The one line refusing the file: how many plays are bad, the first few with why."""
        count, more = len(self.bad), len(self.bad) - DETAILED
        return (
            f"{count} of {self.total} play{'s' if self.total != 1 else ''} "
            f"{'are' if count != 1 else 'is'} refused, nothing was imported: "
            + "; ".join(self.bad[:DETAILED])
            + (f"; and {more} more" if more > 0 else "")
            + " (--skip-invalid imports the others and lists every one refused)"
        )

    def summary(self, stored: int) -> list[str]:
        if stored == 0 and self.already:
            lines = [f"nothing new: {_plays(self.already)} already in this store"]
        else:
            lines = [
                f"imported {_plays(stored)} as score-sheet matches"
                + (f"; {self.already} already in this store" if self.already else "")
            ]
        lines += [f"skipped {count}: {why}" for why, count in sorted(self.left_out.items())]
        if self.bad:
            lines.append(f"skipped {_plays(len(self.bad))} refused (--skip-invalid):")
        return lines + [f"  {line}" for line in self.bad]


def _plays(count: int) -> str:
    return f"{count} play{'s' if count != 1 else ''}"


P = TypeVar("P")  # a play as the file holds it


def read_plays(
    plays: Iterable[P],
    labelled: Callable[[int, P], str],
    one: Callable[[Imported, int, str, P], None],
    on_each: Callable[[], None] | None,
) -> Imported:
    """Every play checked and built (nothing stored): `one` adds it, leaves it out, or raises
    why it is bad; every bad play is collected, so a refusal can name them all."""
    imported = Imported()
    for number, play in enumerate(plays, start=1):
        imported.total += 1
        where = labelled(number, play)
        try:
            one(imported, number, where, play)
        except (BadPlay, Refused, RulesError) as why:
            imported.refuse(where, why)
        except RecursionError:  # an element nested thousands deep
            imported.refuse(where, "nested too deep to read")
        if len(imported.plays) > MOST_MATCHES:
            raise bad(
                "the file",
                f"more than {MOST_MATCHES:,} matches of Tablelog's games (BGG's quantity "
                "counted) in one import; import it in parts",
            )
        if on_each:
            on_each()
    return imported


def sheet_play(
    tool: str,
    play_id: str,
    game: str,
    seats: list[str],
    sheet: PlainDict,
    played: datetime,
) -> Match:
    """The play as a score-sheet match (Refused with the sheet rules' reason). Both events take
    the play's time, so the same play always makes the same events."""
    return sheet_match(
        match_id(tool, play_id),
        game,
        seats,
        {**sheet, "source": {"from": tool, "id": play_id}},
        played_at=played,
        at=played,
    )


def minutes(value: object, where: str) -> int | float | None:
    """A play's length: None when not given (0), else passed on for the sheet rules to bound;
    a negative or non-number is a BadPlay."""
    if value in (None, "", 0, "0"):
        return None
    if isinstance(value, str) and DIGITS.fullmatch(value):
        return int(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return value
    raise BadPlay(f"{where} {shown(value)} is not a number of minutes")


def bad(label: str, message: str) -> BadRecord:
    """A file that cannot be read as a whole: one line naming the part and what is wrong."""
    return BadRecord(f"{label}: {message}; nothing was imported")
