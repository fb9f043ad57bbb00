"""Identifiers and the read-ahead random pool: time-ordered ids, bytes never handed out
twice, and never repeated across a fork."""

from __future__ import annotations

import os
import random
import sys
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_es import entropy
from memory_es.entropy import POOL, RandomPool
from memory_es.ids import fact_id, stream_of, uuid7, uuid7_str


def test_ids_are_version_seven_and_distinct() -> None:
    """Every id is a UUIDv7 string, and many drawn in a row never repeat."""
    drawn = [uuid7_str() for _ in range(5_000)]
    assert len(set(drawn)) == len(drawn)
    assert {uuid7().version, *(int(u[14], 16) for u in drawn[:50])} == {7}


@settings(max_examples=100)
@given(st.lists(st.integers(min_value=0, max_value=2 * entropy.BLOCK), max_size=60))
def test_the_pool_hands_out_each_byte_of_its_reads_once(sizes: list[int]) -> None:
    """Every draw has the size asked for, and the draws served from one read of the
    system's source are consecutive, non-overlapping pieces of it from its start (checked
    against the reads themselves, recorded by a fake source)."""
    reads: list[bytes] = []
    rng = random.Random(len(sizes))

    def fake_urandom(n: int) -> bytes:
        reads.append(rng.randbytes(n))
        return reads[-1]

    with mock.patch.object(os, "urandom", fake_urandom):
        pool = RandomPool()
        served: dict[int, list[bytes]] = {}
        current = -1  # the read that draws are served from
        for n in sizes:
            before = len(reads)
            out = pool.take(n)
            assert len(out) == n
            if n > entropy.BLOCK:  # read directly, for this draw alone
                assert len(reads) == before + 1 and out == reads[-1]
                continue
            if n == 0:
                continue
            if len(reads) > before:  # a new block was read for this draw
                assert len(reads) == before + 1 and len(reads[-1]) == entropy.BLOCK
                current = len(reads) - 1
            served.setdefault(current, []).append(out)
    for index, pieces in served.items():
        joined = b"".join(pieces)
        assert reads[index][:len(joined)] == joined


@pytest.mark.skipif(sys.platform == "win32", reason="needs os.fork")
def test_a_forked_child_never_draws_its_parents_next_bytes() -> None:
    """Bytes drawn after a fork (nonces, id suffixes) differ between parent and child:
    the child does not reuse what the parent had read ahead."""
    POOL.take(12)  # the parent has read ahead now
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: send its next draw and leave at once
        os.write(write, POOL.take(12))
        os._exit(0)
    os.close(write)
    child = os.read(read, 64)
    os.close(read)
    os.waitpid(pid, 0)
    assert len(child) == 12
    assert POOL.take(12) != child


@settings(max_examples=50)
@given(st.integers(min_value=1, max_value=10**9))
def test_a_fact_id_names_its_stream(seq: int) -> None:
    """stream_of(fact_id(s, n)) is s for every minted stream id."""
    stream = uuid7_str()
    assert stream_of(fact_id(stream, seq)) == stream
