"""CPU per write on a RAM disk (issue 16 item 2): the write path's own cost, without the
disk's, for comparing two trees in the same session (run each in turn, several rounds, and
compare medians: the other sessions on a shared machine move a single run by 10-30 %).

    python -m benchmarks.write_cpu batched --rounds 10     # transact of 1,000 new facts
    python -m benchmarks.write_cpu new --rounds 2000       # one commit per new entity
    python -m benchmarks.write_cpu known --rounds 2000     # one supersede per known entity

``batched``: 10 attributes x 100 new entities per transaction, as ``core_bench``, after one
warm-up batch. ``new``/``known``: single ``assert_fact`` of new entities, then
``supersede`` of those same entities. Prints µs of process CPU per fact or write.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import memory_es

RAM = Path("/dev/shm")  # noqa: S108  (a RAM disk to take the disk out; mkdtemp makes a private folder)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=("batched", "new", "known"))
    ap.add_argument("--rounds", type=int, default=10,
                    help="transactions of 1,000 (batched) or single writes")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="me-write-cpu-", dir=RAM if RAM.is_dir() else None))
    try:
        store = memory_es.open(folder / "store")
        base = datetime(2024, 1, 1, tzinfo=UTC)

        def batch(written: int) -> None:
            with store.transact() as tx:
                for k in range(written, written + 1000):
                    tx.assert_fact("bench", f"user:u{k // 10}", f"attr.a{k % 10}", f"v{k}",
                                   valid_from=base + timedelta(seconds=k))

        n = args.rounds
        if args.kind == "batched":
            batch(0)
            t = time.process_time()
            for b in range(1, n + 1):
                batch(b * 1000)
            per = (time.process_time() - t) / (n * 1000)
        else:
            for i in range(n):
                if args.kind == "known":
                    store.assert_fact("bench", f"user:s{i}", "home.city", f"city-{i}")
            store.assert_fact("bench", "user:warm", "home.city", "x")
            t = time.process_time()
            for i in range(n):
                if args.kind == "new":
                    store.assert_fact("bench", f"user:n{i}", "home.city", f"city-{i}")
                else:
                    store.supersede("bench", f"user:s{i}", "home.city", f"town-{i}")
            per = (time.process_time() - t) / n
        store.close()
        unit = "fact" if args.kind == "batched" else "write"
        print(f"{args.kind}: {per * 1e6:.1f} us of CPU per {unit}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
