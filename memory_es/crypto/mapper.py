"""Maps domain events to the log's stored events and back, sealing each payload.

Stored ``state`` layout::

    b"ME1" | recorded_at (8 bytes, µs) | previous hash (32 bytes) | len(kid) (1) | kid | body

``body`` is the event's JSON sealed with AES-GCM under the key ``kid`` (a chain's
sub-key or the entity key), with the stream id, version, topic and kid as associated
data; an empty kid means the event holds no personal data and is stored in clear.
The previous hash chains each stream's events, so an edited, reordered or removed
record is detected over the ciphertext alone, even after its key is destroyed.
"""

from __future__ import annotations

import hashlib
import json
import struct
from dataclasses import dataclass
from typing import Any

from eventsourcing.persistence import StoredEvent

from memory_es.crypto.keystore import KeyStore
from memory_es.crypto.sealing import DataKey
from memory_es.errors import ErasedContent, IntegrityViolation

MAGIC = b"ME1"
_HEAD = struct.Struct(">3sq32sB")


def chain_hash(previous: bytes, stored: StoredEvent) -> bytes:
    """The stream's running hash after ``stored`` (computed over what is stored)."""
    h = hashlib.sha256(previous)
    h.update(str(stored.originator_id).encode())
    h.update(stored.originator_version.to_bytes(8, "big"))
    h.update(stored.topic.encode())
    h.update(stored.state)
    return h.digest()


def _aad(stream_id: str, version: int, topic: str, header: bytes) -> bytes:
    """Associated data: the event's identity and its whole clear header (time, previous
    hash, key id), so neither can be edited or re-hashed without failing authentication."""
    return f"{stream_id}|{version}|{topic}|".encode() + header


@dataclass(frozen=True, slots=True)
class Unsealed:
    """One stored event opened: header fields and the body (None when shredded)."""

    stream_id: str
    version: int
    topic: str
    recorded_at: int
    prev_hash: bytes
    kid: str
    body: dict[str, Any] | None


class SealingMapper:
    """Per-stream keys instead of eventsourcing's one application-wide cipher (NOTES.md)."""

    def __init__(self, keys: KeyStore) -> None:
        self.keys = keys

    def to_stored(self, stream_id: str, version: int, topic: str, payload: bytes,
                  recorded_at: int, prev_hash: bytes, key: DataKey | None) -> StoredEvent:
        kid_bytes = (key.key_id if key is not None else "").encode()
        header = _HEAD.pack(MAGIC, recorded_at, prev_hash or bytes(32), len(kid_bytes)) + kid_bytes
        body = payload if key is None else key.seal(payload, _aad(stream_id, version, topic, header))
        return StoredEvent(
            originator_id=stream_id, originator_version=version, topic=topic,
            state=header + body,
        )

    @staticmethod
    def header(stored: StoredEvent) -> tuple[int, bytes, str, int]:
        """(recorded_at, previous hash, kid, body offset) without touching the body."""
        magic, recorded_at, prev, kid_len = _HEAD.unpack_from(stored.state)
        if magic != MAGIC:
            raise IntegrityViolation(
                f"event {stored.originator_id}:{stored.originator_version} is not a memory-es record")
        kid = stored.state[_HEAD.size:_HEAD.size + kid_len].decode()
        return recorded_at, prev, kid, _HEAD.size + kid_len

    def open(self, stored: StoredEvent) -> Unsealed:
        """Decode one stored event; a body sealed under a destroyed key comes back as None."""
        recorded_at, prev, kid, offset = self.header(stored)
        stream_id = str(stored.originator_id)
        raw = stored.state[offset:]
        body: dict[str, Any] | None
        if not kid:
            body = json.loads(raw)
        else:
            try:
                key = self.keys.for_id(kid, stream_id)
            except ErasedContent:
                body = None
            else:
                aad = _aad(stream_id, stored.originator_version, stored.topic,
                           stored.state[:offset])
                body = json.loads(key.open(raw, aad))
        return Unsealed(stream_id, stored.originator_version, stored.topic, recorded_at, prev,
                        kid, body)
