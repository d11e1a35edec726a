"""Who entered an event: `entered_by` on every new event, part of its hash.

A person is `{"id": ..., "name": ..., "via": ...}`: the id and name of a person of the store
(`domain.recording.users`), or at the command line, where whoever holds the store's credentials is
trusted, the OS user or the name given with `--as` (id None, via "command line"). The recorder
reads it from `ENTERED_BY`, set by the front end for the request or command it runs (a context
variable: one value per thread, so a server's requests never mix their people).

Events stored before the field existed, and events made where no one is entering (simulations,
the library used directly), have no `entered_by` at all: they hash as they always did, and read
as entered by "unknown".
"""

from __future__ import annotations

import getpass
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..errors import Refused
from ..plain import PlainDict, PlainMapping
from ..recording.eventsourcing_internals import amend_event
from .values import stored_value

UNKNOWN = "unknown"
COMMAND_LINE, API, DASHBOARD, WRITE_TOKEN = "command line", "api", "dashboard", "write token"
ENTERED_BY: ContextVar[PlainDict | None] = ContextVar("tablelog_entered_by", default=None)
FIELDS = {"id", "name", "via"}


def person(name: str, user_id: str | None, via: str) -> PlainDict:
    return {"id": user_id, "name": name, "via": via}


def os_user() -> str:
    try:
        return getpass.getuser() or UNKNOWN
    except Exception:  # noqa: BLE001 - no user name in the environment or the password file
        return UNKNOWN


@contextmanager
def entering_as(who: PlainDict | None) -> Iterator[None]:
    """Every event made inside carries `who` as its `entered_by`."""
    token = ENTERED_BY.set(who)
    try:
        yield
    finally:
        ENTERED_BY.reset(token)


def check_person(value: object) -> PlainDict | None:
    """A record's `entered_by` (None: the event carries none), checked to be a person."""
    if value is None:
        return None
    value = stored_value(value, "entered_by")
    if (
        not isinstance(value, dict)
        or not set(value) <= FIELDS
        or not isinstance(value.get("name"), str)
        or not value["name"].strip()
    ):
        raise Refused('entered_by is {"id": ..., "name": NAME, "via": ...}')
    return value


def set_entered_by(event: object, who: PlainMapping | None) -> None:
    """Give a new event its `entered_by` (none when no one entered it), checked as a record's
    is read back: a name an export could not carry (a NUL, a lone surrogate) is refused here,
    before anything is stored, not found when the match is read again."""
    if who is not None:
        amend_event(event, entered_by=check_person(who))


def entered_by_name(event: object) -> str:
    """Who entered a stored event, in words: their name, or "unknown"."""
    who = getattr(event, "entered_by", None)
    name = who.get("name") if isinstance(who, dict) else None
    return name if isinstance(name, str) and name else UNKNOWN
