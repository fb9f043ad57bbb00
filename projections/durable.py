"""fsync for the read models' own files: a snapshot or an index segment counts as written
only once its bytes, and the folder entry naming it, are on disk."""

from __future__ import annotations

import os
from pathlib import Path


def fsync_path(path: Path) -> None:
    """fsync one file or folder (a folder's fsync makes a rename or unlink in it durable)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
