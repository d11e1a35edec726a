"""A lean transcoder for Match events, writing what eventsourcing's JSONTranscoder writes.

Match event bodies are plain JSON (moves are checked to be) plus one datetime, the timestamp.
The library's transcoder walks every object through Python hooks; orjson does the same work in C.
The stored form is unchanged (datetimes as {"_type_": "datetime_iso", "_data_": ISO}), so either
transcoder reads what the other wrote, and anything unusual falls back to the library's. The
bytes are the library's but for some floats' spelling (orjson writes 1e-7 where json writes
1e-07): the same value either way, and the hash chain is taken over values, not stored bytes.
Only the `timestamp` field is read back as a datetime, so a move that happens to look like a
tagged value comes back as the plain dict it was.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import (
    Cipher,
    Compressor,
    JSONTranscoder,
    Mapper,
    StoredEvent,
    Transcoder,
)
from eventsourcing.utils import get_topic

from ..recording.eventsourcing_internals import stored_event

DATETIME = "datetime_iso"


def _tag(value: object) -> dict[str, str]:
    if isinstance(value, datetime):
        return {"_type_": DATETIME, "_data_": value.isoformat()}
    raise TypeError(f"{type(value).__name__} is not plain JSON")


class LeanTranscoder(Transcoder):
    def __init__(self, fallback: JSONTranscoder) -> None:
        self.fallback = fallback

    def encode(self, obj: object) -> bytes:
        try:
            return orjson.dumps(obj, default=_tag, option=orjson.OPT_PASSTHROUGH_DATETIME)
        except TypeError:
            return self.fallback.encode(obj)

    def encode_plain_event(self, state: dict[str, object]) -> bytes:
        """`encode` for an event's own dict copy whose fields are plain JSON apart from a UTC
        timestamp: the timestamp is tagged in place and orjson spells it, with no call back into
        Python (orjson writes a UTC datetime as isoformat() does: tested)."""
        stamp = state.get("timestamp")
        if type(stamp) is not datetime or stamp.tzinfo is not UTC:
            return self.encode(state)
        state["timestamp"] = {"_type_": DATETIME, "_data_": stamp}
        try:
            return orjson.dumps(state)
        except TypeError:
            state["timestamp"] = stamp
            return self.fallback.encode(state)

    def decode(self, data: bytes) -> Any:
        obj = orjson.loads(data)
        stamp = obj.get("timestamp") if isinstance(obj, dict) else None
        if isinstance(stamp, dict) and stamp.get("_type_") == DATETIME:
            obj["timestamp"] = datetime.fromisoformat(stamp["_data_"])
        return obj


class LeanMapper(Mapper[UUID]):
    """The library's Mapper without its per-event generality (class versions, compression and
    ciphers are not used by Tablelog's store): one dict copy and one encode per event.

    An event class that sets `plain_json_fields = True` promises that every field but the
    timestamp is plain JSON (Match checks moves, options, setups and claims to be), which lets
    orjson write the whole body without calling back into Python for the timestamp.
    """

    transcoder: LeanTranscoder

    def __init__(
        self,
        transcoder: LeanTranscoder,
        compressor: Compressor | None = None,
        cipher: Cipher | None = None,
    ) -> None:
        super().__init__(transcoder=transcoder, compressor=compressor, cipher=cipher)
        # event class -> (topic, encoder), for the classes this mapper stores the lean way
        self._lean: dict[type, tuple[str, Callable[[dict[str, object]], bytes]]] = {}

    def to_stored_event(self, domain_event: DomainEventProtocol[UUID]) -> StoredEvent:
        cls = type(domain_event)
        lean = self._lean.get(cls)
        if lean is None:
            if getattr(cls, "class_version", 1) > 1 or self.compressor or self.cipher:
                return super().to_stored_event(domain_event)
            plain = getattr(cls, "plain_json_fields", False)
            lean = self._lean[cls] = (
                get_topic(cls),
                self.transcoder.encode_plain_event if plain else self.transcoder.encode,
            )
        topic, encode = lean
        state = domain_event.__dict__.copy()
        originator_id = state.pop("originator_id")
        originator_version = state.pop("originator_version")
        return stored_event(originator_id, originator_version, topic, encode(state))
