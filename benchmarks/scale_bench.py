"""Writers and workers on PostgreSQL: how throughput grows with processes and with logs.

``python -m benchmarks.scale_bench [--seconds 5] [--dsn postgresql://postgres@127.0.0.1/test]``
runs, in one go on this machine, 1, 2 and 4 writer processes doing single durable writes
against one log and against two logs (two schemas, tenants routed by
:func:`memory_es.sharding.shard_of`), then 1 and 2 projection workers catching up with
what was written. It prints a table, writes ``results/scale_bench.json``, and its figures
are what ``benchmarks/SCALING.md`` projects from.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import uuid
from pathlib import Path
from typing import Any

from benchmarks.common import machine, text_table

RESULTS = Path(__file__).parent / "results"
ROOT = Path(__file__).resolve().parents[1]

WRITER = textwrap.dedent("""
    import sys, time
    import memory_es
    from memory_es.sharding import shard_of
    dsn, schemas, key_file, views, wid, seconds = sys.argv[1:7]
    schemas = schemas.split(",")
    stores = [memory_es.open(dsn=dsn, schema=s, key_file=key_file, views=f"{views}/{s}")
              for s in schemas]
    tenants = [f"t{wid}-{k}" for k in range(64)]
    count, deadline, i = 0, time.monotonic() + float(seconds), 0
    while time.monotonic() < deadline:
        tenant = tenants[i % len(tenants)]
        stores[shard_of(tenant, len(stores))].assert_fact(tenant, f"user:u{i}", "n.v", i)
        count, i = count + 1, i + 1
    print(count)
    for s in stores:
        s.close()
""")

WORKER = textwrap.dedent("""
    import sys, time
    import memory_es
    dsn, schema, key_file, views = sys.argv[1:5]
    t = time.perf_counter()
    with memory_es.open(dsn=dsn, schema=schema, key_file=key_file, views=views,
                        read_only=True) as store:
        print(store.projection_position(), time.perf_counter() - t)
""")


def _run(script: str, *args: object) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", script, *map(str, args)], env=env,  # noqa: S603  (our own script)
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _drop(dsn: str, schemas: list[str]) -> None:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        for schema in schemas:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def writers(dsn: str, logs: int, processes: int, seconds: float, folder: Path,
            key_file: Path) -> dict[str, Any]:
    schemas = [f"scale_{uuid.uuid4().hex[:10]}" for _ in range(logs)]
    try:
        import memory_es  # create the schemas once, so the writers time writes only

        for schema in schemas:
            memory_es.open(dsn=dsn, schema=schema, key_file=key_file,
                           views=folder / f"setup-{schema}").close()
        procs = [_run(WRITER, dsn, ",".join(schemas), key_file, folder / f"w{w}", w, seconds)
                 for w in range(processes)]
        counts = []
        for p in procs:
            out, err = p.communicate(timeout=seconds * 10 + 120)
            if p.returncode != 0:
                raise RuntimeError(err[-2000:])
            counts.append(int(out.split()[-1]))
        total = sum(counts)
        result: dict[str, Any] = {"logs": logs, "writers": processes, "writes": total,
                                  "writes_per_s": total / seconds}
        for workers in (1, 2):
            procs = [_run(WORKER, dsn, schemas[k % logs], key_file,
                          folder / f"worker-{logs}-{processes}-{workers}-{k}")
                     for k in range(workers * logs)]
            took = []  # each worker's own catch-up time, its interpreter's start left out
            for p in procs:
                out, err = p.communicate(timeout=600)
                if p.returncode != 0:
                    raise RuntimeError(err[-2000:])
                took.append(float(out.split()[-1]))
            result[f"catch_up_s_{workers}_workers_per_log"] = max(took)
            result[f"catch_up_events_per_s_{workers}_workers_per_log"] = total / max(took)
        return result
    finally:
        _drop(dsn, schemas)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scale_bench")
    parser.add_argument("--dsn", default=os.environ.get(
        "MEMORY_ES_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--out", default=str(RESULTS / "scale_bench.json"))
    args = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        key_file = folder / "master.key"
        key_file.write_text(os.urandom(32).hex() + "\n")
        for logs in (1, 2):
            for processes in (1, 2, 4):
                results.append(writers(args.dsn, logs, processes, args.seconds, folder,
                                       key_file))
    base = results[0]["writes_per_s"]
    rows = [[r["logs"], r["writers"], r["writes"], r["writes_per_s"],
             r["writes_per_s"] / base, r["catch_up_events_per_s_1_workers_per_log"],
             r["catch_up_events_per_s_2_workers_per_log"]] for r in results]
    print(text_table(("logs", "writers", "writes", "writes/s", "vs 1 writer 1 log",
                      "catch-up ev/s (1 worker/log)", "catch-up ev/s (2 workers/log)"), rows))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"machine": machine(), "seconds": args.seconds,
                                          "results": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
