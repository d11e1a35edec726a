"""What each stored Match event carries, by its kind: the fields `domain.matches.match` gives
it (the `@event` bodies' parameters and the Started class's), for code that reads events as
stored rather than through the aggregate (the audit). The classes the library makes from
`@event` methods are not visible to a type checker, so these say what their instances hold;
an event read from a tampered store may hold other values, which that code catches."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol
from uuid import UUID

from ..games.base import Move
from ..plain import PlainDict


class Stamped(Protocol):
    """Every event: its match, its position and when it was stored."""

    @property
    def originator_id(self) -> UUID: ...
    @property
    def originator_version(self) -> int: ...
    @property
    def timestamp(self) -> datetime: ...


class Started(Stamped, Protocol):
    @property
    def game(self) -> str: ...
    @property
    def rules_version(self) -> str: ...
    @property
    def options(self) -> PlainDict: ...
    @property
    def seats(self) -> list[str]: ...
    @property
    def setup(self) -> PlainDict: ...
    @property
    def components(self) -> PlainDict | None: ...
    @property
    def played_at(self) -> str | None: ...
    @property
    def kind(self) -> str | None: ...


class MoveRecorded(Stamped, Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def move(self) -> Move: ...


class ByWhomWhy(Stamped, Protocol):
    """MoveUndone and Abandoned: who, and their reason."""

    @property
    def by(self) -> str: ...
    @property
    def reason(self) -> str: ...


class ResultClaimed(Stamped, Protocol):
    @property
    def by(self) -> str: ...
    @property
    def scores(self) -> PlainDict: ...


class DisputeRaised(Stamped, Protocol):
    @property
    def by(self) -> str: ...
    @property
    def about(self) -> str: ...


class DisputeResolved(Stamped, Protocol):
    @property
    def by(self) -> str: ...
    @property
    def ruling(self) -> str: ...
    @property
    def signature(self) -> PlainDict | None: ...


class SheetRecorded(Stamped, Protocol):
    @property
    def sheet(self) -> PlainDict: ...
    @property
    def outcome(self) -> PlainDict: ...


class Ended(Stamped, Protocol):
    @property
    def outcome(self) -> PlainDict: ...
