"""Refusals by the recorder (the rules engines raise `domain.games.RulesError` for theirs).

Every refusal is a `ValueError` whose message is the one line a person reads; nothing is stored.
"""

from __future__ import annotations


class Refused(ValueError):
    """The recorder refused a request; `str(error)` says why."""


class MatchNotFound(Refused):
    pass


class NotYourTurn(Refused):
    pass


class MatchClosed(Refused):
    """The match has ended or was abandoned: no more moves, undos or endings."""


class Conflict(Refused):
    """Another writer changed the match first; reload and try again."""


class BadRecord(Refused):
    """An imported match record is malformed or breaks the rules."""


class Damaged(Refused):
    """A match whose stored rows no longer decode or replay (see domain.recording.quarantine): it is
    reported and left out; every other match is served as before."""

    def __init__(self, match_id: object, finding: str) -> None:
        self.match_id = str(match_id)
        self.finding = finding
        super().__init__(
            f"match {self.match_id} is damaged: {finding} (`tablelog audit "
            f"{self.match_id[:8]}` names every finding)"
        )
