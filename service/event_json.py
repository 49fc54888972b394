"""The stored events' JSON, written with orjson.

The library's ``JSONTranscoder`` writes each stored event with the standard ``json`` module: about 5.6 us for a
typical event, and a command stores six or seven. ``EventJSON`` writes the same JSON with orjson (about 1.5 us) and
reads it as the library does, so stores written before and after read alike, and any process (or the library's own
transcoder) reads what it wrote.

The same JSON, byte for byte in practice: compact separators, keys in their order, text unescaped (UTF-8), the
library's transcodings for what JSON has no type for (``{"_type_": "datetime_iso", "_data_": ...}`` for a timestamp,
and every other transcoding registered on it). orjson writes a few types itself that the standard module hands to
the transcodings: an event whose top-level fields hold one (a UUID, an enum) is written by the standard module, as
is anything orjson refuses (an integer beyond 64 bits, a key that is not a string). Below the top level an event
holds JSON data only (payloads, commands, specs: what the domain and the API exchange as JSON), which both write
alike. Floats are the one visible difference: the same value, written ``1e16`` rather than ``1e+16``.
tests/service/test_event_json.py compares the two on whole games.

Snapshots keep the library's transcoder: a snapshot holds the aggregate's own fields, a UUID among them.
"""

from __future__ import annotations

from enum import Enum
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import JSONTranscoder

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS  # both go to the transcodings
_OWN_TYPES = (UUID, Enum)  # types orjson would write itself, and the standard module hands to the transcodings


class EventJSON(JSONTranscoder):
    """The library's JSON transcoder, writing with orjson where that gives the same JSON."""

    def encode(self, obj: Any) -> bytes:
        if isinstance(obj, dict):
            for value in obj.values():  # a loop: any() over a generator cost as much as orjson's whole write
                if isinstance(value, _OWN_TYPES):
                    return super().encode(obj)
            try:
                return orjson.dumps(obj, default=self._encode_obj, option=_OPTIONS)
            except orjson.JSONEncodeError:
                pass  # a value orjson refuses: the standard module writes it, or says why it cannot
        return super().encode(obj)
