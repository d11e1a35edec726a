"""Refusals as HTTP answers: every one a JSON body `{"error": KIND, "message": REASON}`.

The reason is the recorder's or the rules' own one line (the command line prints the same). The
status says what the client should do about it:

- 400 the request is not the shape the document describes (bad JSON, wrong type, unknown field);
- 401/403 a write without the right to write (see `tablelog.access`);
- 404 no such match (or game); 422 the request is well formed but the rules or the recorder
  refuse it (illegal move, not your turn, bad setup, hidden information a score needs...);
- 409 the match is not in the state the request assumed: another writer got there first
  (`conflict`: reload and enter it again) or the match is closed (`match-closed`: it has ended
  or was abandoned, so no entry of that kind can succeed now; reload to see how it ended).
"""

from __future__ import annotations

from tablelog.domain.errors import (
    BadRecord,
    Conflict,
    Damaged,
    MatchClosed,
    MatchNotFound,
    NotYourTurn,
    Refused,
)
from tablelog.domain.games import IllegalMove, InvalidSetup, RulesError, UnknownInformation


class ApiError(Exception):
    """A refusal with its HTTP status and error kind."""

    def __init__(self, status: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.message = message

    def body(self) -> dict[str, str]:
        return {"error": self.kind, "message": self.message}


# Most specific first: the first class the error is an instance of decides.
REFUSALS: tuple[tuple[type[Exception], int, str], ...] = (
    (MatchNotFound, 404, "match-not-found"),
    (Conflict, 409, "conflict"),
    (MatchClosed, 409, "match-closed"),
    (NotYourTurn, 422, "not-your-turn"),
    (BadRecord, 422, "bad-record"),
    (Damaged, 422, "damaged"),  # a quarantined match: its stored rows no longer read
    (Refused, 422, "refused"),
    (IllegalMove, 422, "illegal-move"),
    (InvalidSetup, 422, "invalid-setup"),
    (UnknownInformation, 422, "unknown-information"),
    (RulesError, 422, "refused"),
)


def from_refusal(error: Refused | RulesError) -> ApiError:
    for cls, status, kind in REFUSALS:
        if isinstance(error, cls):
            return ApiError(status, kind, str(error))
    raise TypeError(f"not a refusal: {error!r}")


def bad_request(message: str) -> ApiError:
    return ApiError(400, "bad-request", message)


def one_line(text: str, limit: int = 200) -> str:
    """One line, not too long (a message may quote what the client sent)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
