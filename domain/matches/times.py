"""Times a person or a record gives: ISO 8601 with a zone, within `EARLIEST`..now.

A stored time is part of the hash chain, so it must be exact and unambiguous: a time without a
zone could mean anything, and one in the future cannot have been recorded yet. (The command
line reads a zoneless `--played-at` as the machine's local time before it gets here.) A time
before `EARLIEST` is refused too: 0001-01-01T00:00+05:00 is a valid ISO time, but it has no
UTC equivalent Python can hold, so a match stored with it could never be shown again.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ..errors import Refused
from ..quoting import quoted

# Clocks of two machines disagree a little; a time this far ahead still counts as now.
CLOCK_SKEW = timedelta(minutes=5)
# The earliest time stored: long before any of these games, late enough that every zone's
# conversion, display and both stores (SQLite text, PostgreSQL timestamptz) hold it.
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
# What a search may name as its end (`export --until`): the end of today, or of any later day,
# is no stored time, so the future is fine there; past this, times stop converting.
LATEST_BOUND = datetime(9000, 1, 1, tzinfo=UTC)


def parse_time(text: object, what: str, now: datetime | None = None) -> datetime:
    """`text` as an aware datetime, or Refused naming `what`."""
    if isinstance(text, datetime):
        when = text
    else:
        if not isinstance(text, str) or len(text) > 64:
            raise Refused(f"{what} must be an ISO 8601 time with a zone, got {quoted(text)}")
        try:
            when = datetime.fromisoformat(text)
        except ValueError:
            raise Refused(
                f"{what} must be an ISO 8601 time with a zone (like "
                f"2026-11-28T19:30:00+01:00), got {quoted(text)}"
            ) from None
    if when.tzinfo is None or when.utcoffset() is None:
        raise Refused(
            f"{what} has no zone: write it like 2026-11-28T19:30:00+01:00 or "
            f"...Z, got {quoted(text)}"
        )
    return within_range(when, what, now)


def parse_bound(text: object, what: str) -> datetime:
    """A time that bounds a search (`--since`, `--until`): as `parse_time`, but it may lie in
    the future (up to `LATEST_BOUND`), as "until the end of today" does."""
    return parse_time(text, what, now=LATEST_BOUND)


def within_range(when: datetime, what: str, now: datetime | None = None) -> datetime:
    """`when` (aware) if it lies between `EARLIEST` and now (give or take the clock skew), or
    Refused naming `what`. Every time taken from outside passes here before it is stored."""
    utc = in_utc(when)
    if utc < EARLIEST:
        raise Refused(f"{what} lies before {EARLIEST.year}: {quoted(when.isoformat())}")
    if utc > (now or datetime.now(UTC)) + CLOCK_SKEW:
        raise Refused(f"{what} lies in the future: {when.isoformat()}")
    return when


def local_unless_zoned(text: str | None) -> datetime | str | None:
    """A time typed by a person (`--played-at`, the Record page): without a zone it is the
    machine's local time. Text that is no time at all is passed on, for `parse_time` to refuse
    with its reason."""
    if text is None or not str(text).strip():
        return None
    try:
        when = datetime.fromisoformat(str(text).strip())
    except ValueError:
        return text
    if when.tzinfo is not None:
        return when
    try:
        return when.astimezone()
    except (OverflowError, ValueError):  # year 1 or 9999: the local zone as it is today, for
        return when.replace(tzinfo=datetime.now().astimezone().tzinfo)  # `within_range` to refuse


def in_utc(when: datetime) -> datetime:
    """`when` (aware) in UTC; a time with no UTC form Python can hold (year 1 east of
    Greenwich, year 9999 west of it) as the earliest or latest UTC time there is, so that it
    still compares and sorts in its place."""
    utc = _utc(when)
    if utc is not None:
        return utc
    return (datetime.min if when.year == datetime.min.year else datetime.max).replace(tzinfo=UTC)


def utc_text(stored: str) -> str:
    """A stored time (ISO 8601 with a zone) as UTC text, as every list shows times and sorts
    them; one with no UTC form (stored before `within_range` guarded every entry) as stored,
    which sorts first (year 1) or last (year 9999) all the same."""
    utc = _utc(datetime.fromisoformat(stored))
    return stored if utc is None else utc.isoformat()


def _utc(when: datetime) -> datetime | None:
    try:
        return when.astimezone(UTC)
    except (OverflowError, ValueError):  # past year 1 or 9999 once in UTC
        return None
