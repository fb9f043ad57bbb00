"""Shared fixtures: a fake clock and stores opened on it.

Fixtures stay backend-agnostic where that is cheap: tests that only need "a store"
ask for ``fresh_store``; tests that reopen one ask for ``store_factory`` (open a
store at a folder, closed at teardown). PostgreSQL suites can override
``store_factory`` in their own conftest and reuse the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import memory_es
from tests.fakes import FakeClock

StoreFactory = Callable[..., memory_es.MemoryStore]


@pytest.fixture
def clock() -> FakeClock:
    """A clock standing at 2025-06-01 12:00 UTC until the test advances it."""
    return FakeClock()


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    """The folder of the embedded store under test."""
    return tmp_path / "store"


@pytest.fixture
def store_factory(store_path: Path, clock: FakeClock) -> Iterator[StoreFactory]:
    """Open (or reopen) a store; every store it opened is closed at teardown."""
    opened: list[memory_es.MemoryStore] = []

    def factory(path: Path | None = None, **kwargs: object) -> memory_es.MemoryStore:
        kwargs.setdefault("clock", clock)
        store = memory_es.open(path or store_path, **kwargs)  # type: ignore[arg-type]
        opened.append(store)
        return store

    yield factory
    for store in opened:
        store.close()


@pytest.fixture
def fresh_store(store_factory: StoreFactory) -> memory_es.MemoryStore:
    """An empty embedded store in ``tmp_path`` whose clock is the ``clock`` fixture."""
    return store_factory()

