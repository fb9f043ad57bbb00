"""Random bytes read ahead from the system's random source, for values that are random
but not secret: id suffixes and AES-GCM nonces (both are stored in clear).

One ``os.urandom`` call per id or per unit's nonces was a twentieth of a batched fact's
time and a few per cent of a single write's (a system call each). Key material is never
drawn from here (:func:`memory_es.crypto.sealing.random_bytes`): no future key sits in a
read-ahead buffer. A forked child drops the buffer, so it never hands out bytes its parent
hands out too (a repeated nonce under one key breaks AES-GCM).
"""

from __future__ import annotations

import os
import threading

BLOCK = 4096


class RandomPool:
    """Bytes from ``os.urandom``, read ``BLOCK`` at a time, each handed out once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buffer = b""
        self._at = 0
        os.register_at_fork(after_in_child=self._drop)

    def _drop(self) -> None:
        self._buffer, self._at = b"", 0

    def take(self, n: int) -> bytes:
        """``n`` bytes never handed out before (read directly when ``n`` exceeds a block)."""
        if n > BLOCK:
            return os.urandom(n)
        with self._lock:
            at = self._at
            if at + n > len(self._buffer):
                self._buffer, at = os.urandom(BLOCK), 0
            self._at = at + n
            return self._buffer[at:at + n]


POOL = RandomPool()
"""The process's pool (one per process: a fork gets its own)."""
