"""Who may write what: the one door every write of the API and the dashboard goes through.

Until the store has an admin (`Users.accounts_on`), writes are as they always were (the write
policy, tablelog/access.py): open on loopback, the write token elsewhere, and whoever is let in
may do everything. From the first admin on, every write needs a person's bearer token (read
from the store at each request: revoked, expired or disabled is refused at once), or the
server's write token, which then stands for a service with the recorder role. The person's
role must reach the action's (`ACTIONS`, the role matrix of docs/api.md), and a limited
recorder writes only in matches they started or were assigned to.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from uuid import UUID

from tablelog.access import WritePolicy
from tablelog.domain.errors import MatchNotFound
from tablelog.domain.matches.entering import API, WRITE_TOKEN, os_user, person
from tablelog.domain.plain import PlainDict
from tablelog.domain.recording.users import ADMIN, RECORDER, ROLES, UMPIRE, User, users_of

if TYPE_CHECKING:
    from tablelog.domain.recording.recorder import Recorder

# Every write, and the least role that may make it (the role matrix: docs/api.md).
ACTIONS: dict[str, str] = {
    "start a match": RECORDER,
    "log a score sheet": RECORDER,
    "record a move": RECORDER,
    "undo a move": RECORDER,
    "claim a result": RECORDER,
    "end a match": RECORDER,
    "abandon a match": RECORDER,
    "raise a dispute": UMPIRE,
    "resolve a dispute": UMPIRE,
    "start an experiment": RECORDER,
    "cancel an experiment": RECORDER,
}
# The writes in one match: a limited recorder makes them only in their own matches.
IN_A_MATCH = frozenset(
    {"record a move", "undo a move", "claim a result", "end a match", "abandon a match"}
)
SERVICE = "write token"  # the name the server's write token enters under, with accounts on


class Denied(Exception):
    """A write refused before anything is touched: its HTTP status and one line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Admitted:
    role: str
    entered_by: PlainDict
    user: User | None = None  # None: no accounts, or the write token


def role_may(role: str, action: str) -> bool:
    return ROLES.index(role) >= ROLES.index(ACTIONS[action])


class Gate:
    def __init__(self, policy: WritePolicy, recorder: Recorder) -> None:
        self.policy = policy
        self.recorder = recorder
        self.users = users_of(recorder)

    def admit(
        self,
        authorization: str | None,
        host_header: str | None,
        action: str,
        match: Callable[[], UUID | None] = lambda: None,
        via: str = API,
    ) -> Admitted:
        """Who is writing, when they may make `action` (in the match `match()` names, looked up
        only for a limited recorder); Denied otherwise."""
        if not self.users.accounts_on():
            return self._as_ever(authorization, host_header, via)
        return self.allowed(self._person(authorization, via), action, match)

    def signed_in(
        self, user: User, action: str, match: Callable[[], UUID | None], via: str
    ) -> Admitted:
        """A person signed in on the dashboard (their session read anew at this request)."""
        current = self.users.by_id(user.id)
        if current is None or current.disabled:
            raise Denied(401, "you are signed out: your account was disabled")
        return self.allowed(
            Admitted(current.role, {**current.entered_by, "via": via}, current), action, match
        )

    def allowed(
        self, admitted: Admitted, action: str, match: Callable[[], UUID | None]
    ) -> Admitted:
        """`admitted`, when their role (and, for a limited recorder, the match) allows
        `action`; Denied otherwise."""
        if not role_may(admitted.role, action):
            raise Denied(
                403,
                f"{admitted.entered_by['name']} is a {admitted.role}: to {action} takes "
                f"{' or '.join(r for r in ROLES if role_may(r, action))}",
            )
        user = admitted.user
        if user is not None and user.limited and action in IN_A_MATCH:
            match_id = match()
            if match_id is not None and not self._theirs(user, match_id):
                raise Denied(
                    403,
                    f"{user.name} records only in the matches they started or were "
                    "assigned to, and this is not one (`tablelog users role NAME recorder "
                    "--assign MATCH`)",
                )
        return admitted

    def _as_ever(self, authorization: str | None, host_header: str | None, via: str) -> Admitted:
        refusal = self.policy.refusal(authorization, host_header)
        if refusal is not None:
            raise Denied(*refusal)
        if self.policy.open:  # one person at their own machine
            return Admitted(ADMIN, person(os_user(), None, via))
        return Admitted(ADMIN, person(SERVICE, None, WRITE_TOKEN))

    def _person(self, authorization: str | None, via: str) -> Admitted:
        scheme, _, given = (authorization or "").partition(" ")
        given = given.strip()
        if scheme.lower() != "bearer" or not given:
            raise Denied(
                401, "writes on this server need a person's token: 'Authorization: Bearer TOKEN'"
            )
        token = self.policy.token
        if token is not None and hmac.compare_digest(given.encode(), token.encode()):
            return Admitted(RECORDER, person(SERVICE, None, WRITE_TOKEN))
        user, why = self.users.holder(given)
        if user is None:
            raise Denied(401, why)
        return Admitted(user.role, {**user.entered_by, "via": via}, user)

    def _theirs(self, user: User, match_id: UUID) -> bool:
        if self.users.assigned(user.id, str(match_id)):
            return True
        try:
            started = self.recorder.stored_events(match_id, lte=1)[0]
        except (MatchNotFound, IndexError):
            return True  # no such match: the write itself says so
        who = getattr(started, "entered_by", None)
        return isinstance(who, dict) and who.get("id") == user.id
