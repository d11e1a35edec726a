"""A lean transcoder for Match events, writing exactly what eventsourcing's JSONTranscoder writes.

Match event bodies are plain JSON (moves are checked to be) plus one datetime, the timestamp.
The library's transcoder walks every object through Python hooks; orjson does the same work in C.
The stored form is unchanged (datetimes as {"_type_": "datetime_iso", "_data_": ISO}), so either
transcoder reads what the other wrote, and anything unusual falls back to the library's.
Only the `timestamp` field is read back as a datetime, so a move that happens to look like a
tagged value comes back as the plain dict it was.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson
from eventsourcing.persistence import JSONTranscoder, Mapper, StoredEvent, Transcoder
from eventsourcing.utils import get_topic

DATETIME = "datetime_iso"


def _tag(value: Any) -> Any:
    if isinstance(value, datetime):
        return {"_type_": DATETIME, "_data_": value.isoformat()}
    raise TypeError(f"{type(value).__name__} is not plain JSON")


class LeanTranscoder(Transcoder):
    def __init__(self, fallback: JSONTranscoder) -> None:
        self.fallback = fallback

    def encode(self, obj: Any) -> bytes:
        try:
            return orjson.dumps(obj, default=_tag, option=orjson.OPT_PASSTHROUGH_DATETIME)
        except TypeError:
            return self.fallback.encode(obj)

    def decode(self, data: bytes) -> Any:
        obj = orjson.loads(data)
        stamp = obj.get("timestamp") if isinstance(obj, dict) else None
        if isinstance(stamp, dict) and stamp.get("_type_") == DATETIME:
            obj["timestamp"] = datetime.fromisoformat(stamp["_data_"])
        return obj


class LeanMapper(Mapper):
    """The library's Mapper without its per-event generality (class versions, compression and
    ciphers are not used by Tablelog's store): one dict copy and one encode per event."""

    _topics: dict[type, str] = {}

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        cls = type(domain_event)
        if getattr(cls, "class_version", 1) > 1 or self.compressor or self.cipher:
            return super().to_stored_event(domain_event)
        topic = self._topics.get(cls) or self._topics.setdefault(cls, get_topic(cls))
        state = domain_event.__dict__.copy()
        originator_id = state.pop("originator_id")
        originator_version = state.pop("originator_version")
        return StoredEvent(originator_id=originator_id, originator_version=originator_version,
                           topic=topic, state=self.transcoder.encode(state))
