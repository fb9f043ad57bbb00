"""A caller that dies right after its forget committed (issue 6, write receipts).

``forget_then_die`` runs a child process that opens the store, forgets one fact with an
idempotency key and is killed with SIGKILL either right after the call returned (the
receipt reached the caller, who dies before acting on it) or inside the commit, right
after the log accepted the events (the caller never saw the receipt). Tests then reopen
the store and check that the forget is durable and that a retry with the same key
changes nothing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from memory_es import MemoryStore
from memory_es.models import Receipt

ROOT = Path(__file__).resolve().parents[1]
WHEN = ("after-return", "inside-commit")

CHILD = textwrap.dedent("""
    import json, os, signal, sys
    import memory_es

    kwargs, fact_id, key, when = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    store = memory_es.open(**kwargs)

    def die():
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGKILL)

    if when == "inside-commit":
        append = store.runtime.side.append

        def append_then_die(uow):
            append(uow)  # the log has the events: the receipt never reaches the caller
            die()

        store.runtime.side.append = append_then_die
    receipt = store.forget_fact(fact_id, idempotency_key=key)
    print(receipt.model_dump_json())
    die()
""")


def forget_then_die(open_kwargs: dict[str, Any], fact_id: str, key: str,
                    when: str) -> Receipt | None:
    """Run the child; returns the receipt it printed before dying (None inside commit)."""
    assert when in WHEN
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(open_kwargs), fact_id, key, when],
        env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == -signal.SIGKILL, (done.returncode, done.stdout, done.stderr)
    lines = done.stdout.split()
    if when == "inside-commit":
        assert lines == [], done.stdout
        return None
    return Receipt.model_validate_json(lines[-1])


def check_forget_survived(store: MemoryStore, tenant: str, fact_id: str, key: str,
                          first: Receipt | None, survivor: str) -> Receipt:
    """On the reopened store: the forget is durable, a retry with the same key appends
    nothing and returns the original receipt, which the key alone retrieves."""
    assert [f.fact_id for f in store.current(tenant)] == [survivor]
    states = {r["fact_id"]: r["present_state"]
              for r in store.replay(known_at=store.now()).to_pylist()}
    assert states == {fact_id: "forgotten", survivor: "active"}
    history = store.history(tenant, fact_id)
    assert history[-1].state == "forgotten"
    position = store.log_position()
    retried = store.forget_fact(fact_id, idempotency_key=key)
    assert store.log_position() == position  # nothing appended
    assert retried.idempotent_replay
    assert (retried.op, retried.fact_ids) == ("forget_fact", [fact_id])
    assert retried.event_id == history[-1].event_id
    assert retried.position == history[-1].position
    if first is not None:  # the caller's copy, printed before it died
        assert retried.model_copy(update={"idempotent_replay": False}) == first
    assert store.runtime.side.replayed_receipt(tenant, key) == retried  # the key alone finds it
    assert [f.fact_id for f in store.current(tenant)] == [survivor]
    return retried
