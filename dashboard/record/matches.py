"""The matches the Record page shows, remembered by (id, version): a tap replays nothing."""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any

from tablelog.domain.errors import MatchNotFound
from tablelog.domain.recorder import Recorder

from .actions import current

CACHED = 16


class Matches:
    """The app's recently shown matches by (id, version). A version is one position in the
    match's event stream, so a cached entry never goes stale."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self._cache: OrderedDict[tuple[str, int], Any] = OrderedDict()
        self._lock = Lock()

    def get(self, match_id: str, version: int | None = None) -> Any:
        """The match; Conflict when it is no longer at `version` (None: any version)."""
        with self._lock:
            if version is not None and (match_id, version) in self._cache:
                self._cache.move_to_end((match_id, version))
                return self._cache[(match_id, version)]
        match = current(self.recorder, match_id, version)
        self.put(match)
        return match

    def put(self, match: Any) -> None:
        with self._lock:
            self._cache[(str(match.id), match.version)] = match
            while len(self._cache) > CACHED:
                self._cache.popitem(last=False)

    def loaded(self, match_id: str) -> int | None:
        """The version of the match as it is loaded now; None when the store has no such match."""
        try:
            return self.get(match_id).version
        except MatchNotFound:
            return None

    def now(self, match_id: str) -> int | None:
        """The match's version now, read from its last stored event only; None when the store
        has no such match."""
        try:
            return self.recorder.version(match_id)
        except MatchNotFound:
            return None
