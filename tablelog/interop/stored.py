"""An import's plays against the store: which are new, which it holds already (a file imported
twice, or our own export imported back), and which it holds otherwise (refused, named).

A play is held already when its match is stored with the same first events (later entries on
the match, a claim or a dispute, do not make it another play), or when it names one of this
store's matches (our own export: BG Stats `uuid`, BGG `comments`) and that match, exported the
same way and read back, gives the same play."""

from __future__ import annotations

from collections.abc import Callable
from datetime import tzinfo

from tablelog.domain.errors import Refused
from tablelog.domain.matches.match import Match, event_hash
from tablelog.domain.recording.recorder import Recorder

from .common import BadPlay, Imported, Play
from .ours import Sheet, sheet_of

# What a play keeps of a match, compared when the play names one of this store's matches, and
# the words a refusal names each by.
FIELDS = {"game": "game", "seats": "players", "played_at": "date", "options": "variant"}
SHEET_FIELDS = {
    "scores": "scores",
    "winners": "winners",
    "first": "start player",
    "duration_min": "length",
    "location": "location",
    "board": "board",
}

RoundTrip = Callable[[Sheet, tzinfo], Imported]


def sort_out(
    recorder: Recorder,
    imported: Imported,
    round_trip: RoundTrip,
    zone: tzinfo,
    on_each: Callable[..., object] | None = None,
) -> list[tuple[int, Match]]:
    """The plays the store does not hold yet, numbered; those it holds the same are counted
    (`imported.already`), those it holds otherwise are added to `imported.bad`."""
    new = []
    for play in imported.plays:
        try:
            if not _held(recorder, play, round_trip, zone):
                new.append((play.number, play.match))
            else:
                imported.already += 1
        except (BadPlay, Refused) as why:  # Refused: a stored match that is damaged
            imported.refuse(play.label, why)
        if on_each:
            on_each()
    return new


def _held(recorder: Recorder, play: Play, round_trip: RoundTrip, zone: tzinfo) -> bool:
    ours = [event_hash(event) for event in play.match.pending_events]
    if recorder.exists(play.match.id):
        stored = [event_hash(e) for e in recorder.stored_events(play.match.id, lte=len(ours))]
        if stored != ours:
            raise BadPlay(
                f"already in this store as match {play.match.id} with other events "
                "(imported before with another --zone or --map?)"
            )
        return True
    if play.names is None or not recorder.exists(play.names):
        return False
    sheet = sheet_of(recorder.get(play.names))
    again = round_trip(sheet, zone).plays if sheet is not None else []
    if not again:
        raise BadPlay(
            f"it is match {play.names} of this store, which gives no play to compare it with "
            "(not ended, or a result a play cannot hold)"
        )
    differs = _differs(play.match, again[0].match)
    if differs:
        raise BadPlay(
            f"it is match {play.names} of this store (a Tablelog export), but differs from it "
            f"in its {', '.join(differs)}"
            + (" (exported in another --zone?)" if "date" in differs else "")
        )
    return True


def _differs(play: Match, stored: Match) -> list[str]:
    """The fields where the play differs from what the stored match exports as."""

    def kept(match: Match) -> dict[str, object]:
        sheet = match.sheet or {}
        return {word: getattr(match, name) for name, word in FIELDS.items()} | {
            word: sheet.get(name) for name, word in SHEET_FIELDS.items()
        }

    mine, theirs = kept(play), kept(stored)
    return [word for word in mine if mine[word] != theirs[word]]
