"""Identifiers: time-ordered, random, and never repeated across a fork."""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_es.ids import fact_id, stream_of, uuid7, uuid7_str


def _random_bits(uid: str) -> int:
    """The 74 random bits of a UUIDv7 (everything but the timestamp, version and variant)."""
    value = int(uid.replace("-", ""), 16)
    return ((value >> 64) & 0xFFF) << 62 | (value & 0x3FFF_FFFF_FFFF_FFFF)


def test_ids_are_version_seven_and_distinct() -> None:
    """Every id is a UUIDv7 string, and many drawn in a row never repeat."""
    drawn = [uuid7_str() for _ in range(5_000)]
    assert len(set(drawn)) == len(drawn)
    assert {uuid7().version, *(int(u[14], 16) for u in drawn[:50])} == {7}


@pytest.mark.skipif(sys.platform == "win32", reason="needs os.fork")
def test_a_forked_child_never_draws_its_parents_next_id() -> None:
    """Ids drawn after a fork differ between parent and child: the child does not reuse
    random bits the parent had read ahead."""
    uuid7_str()  # the parent has read ahead now
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: send its next id and leave at once
        os.write(write, uuid7_str().encode())
        os._exit(0)
    os.close(write)
    child = os.read(read, 64).decode()
    os.close(read)
    os.waitpid(pid, 0)
    assert _random_bits(uuid7_str()) != _random_bits(child)


@settings(max_examples=50)
@given(st.integers(min_value=1, max_value=10**9))
def test_a_fact_id_names_its_stream(seq: int) -> None:
    """stream_of(fact_id(s, n)) is s for every minted stream id."""
    stream = uuid7_str()
    assert stream_of(fact_id(stream, seq)) == stream
