"""AES-256-GCM with random 96-bit nonces and associated data that binds the event's identity.

A nonce is never derived from a version: a retried write at the same version would
reuse it. Associated data makes a ciphertext copied into another event's row fail
authentication instead of decrypting silently.
"""

from __future__ import annotations

import os
import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from memory_es.errors import IntegrityViolation

NONCE_BYTES = 12


class DataKey:
    """An unwrapped 256-bit key. It prints redacted, so it cannot leak through logs."""

    __slots__ = ("_aead", "key_id")

    def __init__(self, key_id: str, material: bytes) -> None:
        self.key_id = key_id
        self._aead = AESGCM(material)

    def seal(self, plaintext: bytes, aad: bytes, nonce: bytes | None = None) -> bytes:
        """``nonce``: fresh random bytes the caller drew for this one seal (a batch draws
        all of its nonces at once); drawn here when not given."""
        if nonce is None:
            nonce = os.urandom(NONCE_BYTES)
        elif len(nonce) != NONCE_BYTES:
            raise ValueError("a nonce is 12 random bytes")
        return nonce + self._aead.encrypt(nonce, plaintext, aad)

    def open(self, blob: bytes, aad: bytes) -> bytes:
        try:
            return self._aead.decrypt(blob[:NONCE_BYTES], blob[NONCE_BYTES:], aad)
        except InvalidTag:
            raise _tampered(self.key_id) from None

    def __repr__(self) -> str:
        return f"DataKey({self.key_id!r}, <redacted>)"

    __str__ = __repr__

    def __reduce__(self) -> tuple[object, ...]:
        raise TypeError("data keys cannot be pickled")


def _tampered(key_id: str) -> IntegrityViolation:
    return IntegrityViolation(
        f"authentication failed under key {key_id}: the ciphertext was altered,"
        " moved to another event, or sealed under another key")


class WrappedKey:
    """A sub-key still wrapped under its unwrapped parent, opened at each use and dropped.

    For reading a log of far more keys than a cache keeps, each for a few events (a
    rebuild opens every chain's key): holding a batch's tens of thousands of AES-GCM
    contexts touched ≈ 100 MB per batch, and each context's first use was several times
    the cost of an unwrap and a decryption done together and freed at once. The material
    is never bound to a name here, so no frame's locals hold it."""

    __slots__ = ("_parent", "_wrapped", "key_id")

    def __init__(self, key_id: str, parent: DataKey, wrapped: bytes) -> None:
        self.key_id = key_id
        self._parent = parent
        self._wrapped = wrapped

    def open(self, blob: bytes, aad: bytes) -> bytes:
        try:
            return AESGCM(self._parent.open(self._wrapped, b"key:" + self.key_id.encode())
                          ).decrypt(blob[:NONCE_BYTES], blob[NONCE_BYTES:], aad)
        except InvalidTag:
            raise _tampered(self.key_id) from None

    def __repr__(self) -> str:
        return f"WrappedKey({self.key_id!r}, <wrapped>)"

    __str__ = __repr__


KEY_BYTES = 32


def new_key_material() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


def random_bytes(n: int) -> bytes:
    """``n`` bytes from the system's random source, for keys and nonces drawn together."""
    return secrets.token_bytes(n)
