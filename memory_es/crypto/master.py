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
    """Wraps data keys and the store's own secrets (AES-GCM, key ids bound as associated
    data). Prints redacted.

    The natural-key HMAC key and the receipt-signing seed are not derived from it any more
    than a data key is: the key store keeps them wrapped, so rotating the master key
    re-wraps them and every digest and signature stays valid. A store created before that
    starts from :meth:`legacy_secret`, which is what it derived then."""

    __slots__ = ("_hmac_key", "_wrap")

    def __init__(self, material: bytes) -> None:
        if len(material) != 32:
            raise InvalidInput("the master key must be 32 bytes (64 hex characters)")
        self._wrap = DataKey("master", hashlib.sha256(b"memory-es wrap\x00" + material).digest())
        self._hmac_key = hashlib.sha256(b"memory-es names\x00" + material).digest()

    def wrap(self, key_id: str, material: bytes, nonce: bytes | None = None) -> bytes:
        """``nonce``: fresh random bytes for this wrap alone (drawn here when not given)."""
        return self._wrap.seal(material, b"key:" + key_id.encode(), nonce)

    def unwrap(self, key_id: str, wrapped: bytes) -> bytes:
        return self._wrap.open(wrapped, b"key:" + key_id.encode())

    def legacy_secret(self, name: str) -> bytes:
        """The store secret ``name`` as stores derived it from this master key before the
        secrets were kept wrapped (``names``: the HMAC key; ``signing``: the seed)."""
        if name == "names":
            return self._hmac_key
        if name == "signing":
            return hmac.new(self._hmac_key, b"receipt-signing", hashlib.sha256).digest()
        raise ValueError(f"no legacy secret {name!r}")

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


def create_key_file(path: Path) -> MasterKey:
    """Write a fresh random master key to ``path``, which must not exist (mode 0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise InvalidInput(f"{path} exists already: a new master key needs a new file") from None
    material = os.urandom(32)
    with os.fdopen(fd, "w") as fh:
        fh.write(material.hex() + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    return MasterKey(material)


def load_master_key(key_file: str | os.PathLike[str] | None, default_file: Path, *,
                    create: bool = True) -> tuple[MasterKey, Path | None]:
    """Key file given > ``MEMORY_ES_KEY_FILE`` > ``MEMORY_ES_MASTER_KEY`` > default file.

    The default file is created (mode 0600) on first use, so the embedded default works
    out of the box; production deployments should keep the key file off the data disk.
    Returns the key and, when it came from the default file, that file (a rotation away
    from it deletes it).
    """
    path = key_file or os.environ.get(KEY_FILE_ENV)
    if path:
        p = Path(path)
        if not p.exists():
            raise InvalidInput(f"master key file {p} does not exist")
        return MasterKey(_parse(p.read_text(), str(p))), None
    env_value = os.environ.pop(KEY_ENV, None)
    if env_value:
        return MasterKey(_parse(env_value, KEY_ENV)), None
    if not default_file.exists():
        if not create:
            raise InvalidInput(
                f"no master key at {default_file}, and this store already has keys: open it "
                "with key_file= (or MEMORY_ES_KEY_FILE) naming its key file, e.g. the one a "
                "rotation wrote")
        default_file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(default_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(os.urandom(32).hex() + "\n")
    return MasterKey(_parse(default_file.read_text(), str(default_file))), default_file
