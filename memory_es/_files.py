"""Write a file all at once or not at all (plots, reports): temp file, then rename."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from memory_es.errors import InvalidInput, MemoryESError


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path: str | Path, write: Callable[[BinaryIO], object], what: str) -> Path:
    """Run ``write`` on a temporary file beside ``path``, then rename it over ``path``.

    A failure (in ``write`` or in the file system) removes the temporary file, so no
    half-written output is ever left behind. The file gets the usual permissions
    (``0o666`` less the umask), not the temporary file's private ones.

    Raises:
        InvalidInput: the folder does not exist.
        MemoryESError: the file system refused the write.
    """
    target = Path(path)
    if not target.parent.is_dir():
        raise InvalidInput(f"the folder for the {what} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise MemoryESError(f"could not write the {what} ({e.strerror or type(e).__name__})"
                            ) from e
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
