"""Key custody: the log's deletions replayed against the key store, and master-key rotation.

Crypto-shredding is only as final as the key store is. A key store restored from an old
backup holds again the keys that purges destroyed since, so on every open the purge
events the log holds (kept in clear: ids only) are replayed against it, and any key
they name that is back is destroyed again and recorded (``audit_verify`` lists it as
``reshredded``). Rotation re-wraps every live key under a new master key, so the old
key file, or a backup of it, opens nothing any more.
"""

from __future__ import annotations

from pathlib import Path

from memory_es.crypto.master import create_key_file
from memory_es.domain.events import DeletionReceiptIssued, EntityPurged, FactChainPurged
from memory_es.errors import InvalidInput
from memory_es.runtime import Runtime

DELETION_TOPICS = (EntityPurged.TOPIC, FactChainPurged.TOPIC, DeletionReceiptIssued.TOPIC)
BATCH = 5_000


def reconcile_deletions(rt: Runtime) -> list[str]:
    """Replay the purges logged after the key store's reconciled position; returns what
    had been revived and is destroyed again. Cost: the events since the last open (a
    restored key store carries its own, older position, so exactly the purges made after
    its backup are replayed)."""
    keys = rt.keys
    recorder = rt.log.recorder
    head = int(recorder.max_notification_id() or 0)
    position = keys.reconciled()
    revived: list[str] = []
    audit_stream: str | None = None
    while position < head:
        notes = recorder.select_notifications(start=position + 1, limit=BATCH, stop=head,
                                              topics=DELETION_TOPICS)
        if not notes:
            break
        for n in notes:
            stream_id = str(n.originator_id)
            if n.topic == DeletionReceiptIssued.TOPIC:
                audit_stream = stream_id
                continue
            body = rt.side.mapper.open(n).body or {}
            revived += keys.reshred(list(body.get("key_ids", ())), stream_id,
                                    whole=n.topic == EntityPurged.TOPIC)
        position = notes[-1].id
    if audit_stream is not None and keys.lookup("audit", "*") != audit_stream:
        keys.rebind("audit", audit_stream, "*")  # receipts stay findable after a restore
    keys.set_reconciled(head)
    if revived:
        rt.side.forget_cached()
    return revived


def rotate_master_key(rt: Runtime, new_key_file: str | Path) -> int:
    """Write a fresh master key to ``new_key_file`` (which must not exist), re-wrap every
    live key under it and remove every copy wrapped under the old one; returns how many
    wrapped rows changed. When the old key was the default ``<folder>/master.key`` that
    file is deleted: the store must be opened with ``key_file=new_key_file`` from now on."""
    path = Path(new_key_file)
    if rt.default_key_file is not None and path.resolve() == rt.default_key_file.resolve():
        raise InvalidInput("the new master key needs a new file, not the current one")
    rt.check_open()
    with rt.lock:
        new = create_key_file(path)
        try:
            count = rt.keys.rotate(new)
        except BaseException:
            if rt.keys.master is not new:  # nothing was re-wrapped: the new file is useless
                path.unlink(missing_ok=True)
            raise
        if rt.default_key_file is not None:
            rt.default_key_file.unlink(missing_ok=True)
            rt.default_key_file = None
        return count
