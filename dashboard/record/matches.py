"""The matches the Record page shows, remembered by (id, version): a tap replays nothing. And
which page wrote what: a page that polls the store while its own write is under way, or before
that write's answer has come back, sees a version it has not shown yet; that is its own entry,
not another device's (the page would otherwise say "the match changed on another device")."""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from threading import Lock

from tablelog.domain.errors import MatchNotFound
from tablelog.domain.matches.match import Match
from tablelog.domain.recording.recorder import Recorder

from .actions import current

CACHED = 16


class Matches:
    """The app's recently shown matches by (id, version). A version is one position in the
    match's event stream, so a cached entry never goes stale."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self._cache: OrderedDict[tuple[str, int], Match] = OrderedDict()
        self._lock = Lock()
        self._writing: Counter[tuple[str, str]] = Counter()  # (match, page): writes under way
        self._written: OrderedDict[tuple[str, int], str] = OrderedDict()  # (match, version): page

    def get(self, match_id: str, version: int | None = None) -> Match:
        """The match; Conflict when it is no longer at `version` (None: any version)."""
        with self._lock:
            if version is not None and (match_id, version) in self._cache:
                self._cache.move_to_end((match_id, version))
                return self._cache[(match_id, version)]
        match = current(self.recorder, match_id, version)
        self.put(match)
        return match

    def put(self, match: Match) -> None:
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

    @contextmanager
    def writing(self, match_id: str, page: str | None) -> Iterator[None]:
        """While `page` writes to the match: from before the store is touched until the write
        has been noted (`wrote`), so no poll falls in between."""
        key = (match_id, page or "")
        with self._lock:
            self._writing[key] += 1
        try:
            yield
        finally:
            with self._lock:
                self._writing[key] -= 1
                if self._writing[key] <= 0:
                    del self._writing[key]

    def wrote(self, match_id: str, version: int, page: str | None) -> None:
        with self._lock:
            self._written[(match_id, version)] = page or ""
            while len(self._written) > CACHED * 16:
                self._written.popitem(last=False)

    def mine(self, match_id: str, version: int, page: str | None) -> bool:
        """Whether the match is at `version` by `page`'s own write (stored, or under way)."""
        if not page:
            return False
        with self._lock:
            return (match_id, page) in self._writing or self._written.get(
                (match_id, version)
            ) == page
