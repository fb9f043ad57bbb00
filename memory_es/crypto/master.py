"""The master key that wraps every data key.

Read from a key file; an environment variable is only a fallback, and it is removed
from the process environment once read so that child processes do not inherit it.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from pathlib import Path

from memory_es.crypto.sealing import DataKey
from memory_es.errors import InvalidInput

KEY_FILE_ENV = "MEMORY_ES_KEY_FILE"
KEY_ENV = "MEMORY_ES_MASTER_KEY"


class MasterKey:
    """Wraps data keys (AES-GCM, key ids bound as associated data) and derives the HMAC key
    used for natural-key lookups. Prints redacted."""

    __slots__ = ("_hmac_key", "_wrap")

    def __init__(self, material: bytes) -> None:
        if len(material) != 32:
            raise InvalidInput("the master key must be 32 bytes (64 hex characters)")
        self._wrap = DataKey("master", hashlib.sha256(b"memory-es wrap\x00" + material).digest())
        self._hmac_key = hashlib.sha256(b"memory-es names\x00" + material).digest()

    def wrap(self, key_id: str, material: bytes) -> bytes:
        return self._wrap.seal(material, b"key:" + key_id.encode())

    def unwrap(self, key_id: str, wrapped: bytes) -> bytes:
        return self._wrap.open(wrapped, b"key:" + key_id.encode())

    def digest(self, *parts: str) -> bytes:
        """Keyed hash of a natural key: not reversible by a dictionary without the master key."""
        return hmac.digest(self._hmac_key, "\x1f".join(parts).encode(), "sha256")

    def signing_seed(self) -> bytes:
        """Seed of the Ed25519 key that signs deletion receipts."""
        return hmac.new(self._hmac_key, b"receipt-signing", hashlib.sha256).digest()

    def __repr__(self) -> str:
        return "MasterKey(<redacted>)"

    __str__ = __repr__

    def __reduce__(self) -> tuple[object, ...]:
        raise TypeError("the master key cannot be pickled")


def _parse(text: str, origin: str) -> bytes:
    try:
        material = bytes.fromhex(text.strip())
    except ValueError:
        raise InvalidInput(f"the master key in {origin} is not hex") from None
    if len(material) != 32:
        raise InvalidInput(f"the master key in {origin} must be 64 hex characters")
    return material


def load_master_key(key_file: str | os.PathLike[str] | None, default_file: Path) -> MasterKey:
    """Key file given > ``MEMORY_ES_KEY_FILE`` > ``MEMORY_ES_MASTER_KEY`` > default file.

    The default file is created (mode 0600) on first use, so the embedded default works
    out of the box; production deployments should keep the key file off the data disk.
    """
    path = key_file or os.environ.get(KEY_FILE_ENV)
    if path:
        p = Path(path)
        if not p.exists():
            raise InvalidInput(f"master key file {p} does not exist")
        return MasterKey(_parse(p.read_text(), str(p)))
    env_value = os.environ.pop(KEY_ENV, None)
    if env_value:
        return MasterKey(_parse(env_value, KEY_ENV))
    if not default_file.exists():
        default_file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(default_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(os.urandom(32).hex() + "\n")
    return MasterKey(_parse(default_file.read_text(), str(default_file)))
