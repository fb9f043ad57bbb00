"""Eligibility masks kept between recalls and brought up to date label by label.

A recall's candidate set (the tenant's facts current at ``now`` within a classification
ceiling, :meth:`projections.recall.RecallIndex.candidate_slots`) is a boolean mask over
every label. Building it reads every slot of the mirror and every label's tenant and
class: ≈ 1.5 ms at 100k facts, ≈ 8 ms at 1M. It was kept between recalls, but any
write changed the mirror and the next recall built it again from nothing, although a
write changes a handful of labels.

Now the index notes each label whose slots or metadata change (:class:`ChangedLabels`,
a bounded log), and a kept mask is *updated*: the labels noted since it was made are
judged again at the new ``now`` and the rest are copied. Copying, not writing in place:
a mask handed out is read-only and may still be read (BM25 keeps statistics per mask
object). The mask is rebuilt from nothing only when the log no longer reaches back to
it, when slots were renumbered (the mirror's :attr:`VersionMirror.epoch`), when ``now``
leaves the interval over which no held version starts or ends, or when more labels
changed than :data:`UPDATE_MOST` of the mask's size (a copy and a Python loop per
label then cost more than the full build).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from projections.recall.mirror import VersionMirror

LOG_LIMIT = 65_536
"""Changed labels the log keeps (≈ 2 MB of Python ints at most): a mask older than what
it keeps is rebuilt from nothing."""
UPDATE_MOST = 1 / 16
"""Fraction of the mask's labels above which a kept mask is rebuilt rather than updated."""


class ChangedLabels:
    """The labels whose slots or metadata changed, in order of change, the newest
    :data:`LOG_LIMIT` at most. :attr:`end` counts every label ever noted, so a mask made
    when it stood at ``seen`` asks :meth:`since` for what changed after it."""

    def __init__(self, limit: int = LOG_LIMIT) -> None:
        self.limit = limit
        self._labels: list[int] = []
        self.base = 0
        """How many noted labels were let go from the front."""

    @property
    def end(self) -> int:
        return self.base + len(self._labels)

    def note(self, labels: Iterable[int]) -> None:
        self._labels.extend(labels)
        over = len(self._labels) - self.limit
        if over > 0:  # let the older half go at once: amortised O(1) per label
            drop = over + self.limit // 2
            del self._labels[:drop]
            self.base += drop

    def since(self, seen: int) -> set[int] | None:
        """The labels noted after ``seen`` (None: the log no longer reaches back there)."""
        if seen < self.base:
            return None
        return set(self._labels[seen - self.base:])


@dataclass(frozen=True)
class Eligible:
    """One kept eligibility mask: valid while the mirror's :attr:`VersionMirror.epoch` is
    ``epoch`` and for ``now`` in ``[since, until)``, as of the change log's ``seen``.
    ``admitted``: the mask before the patterns' members were dropped (the same array
    when they are kept); ``code``: the tenant's code when it was built (None: unknown)."""

    epoch: int
    seen: int
    since: int
    until: int
    code: int | None
    admitted: np.ndarray
    mask: np.ndarray
    slot_of: np.ndarray


def updated(kept: Eligible, changed: set[int], *, versions: VersionMirror,
            tenant: np.ndarray, rank: np.ndarray, max_rank: int,
            now_us: int) -> tuple[np.ndarray, np.ndarray, int]:
    """``kept``'s admitted mask and slots with the ``changed`` labels judged again at
    ``now_us`` (as :meth:`projections.recall.RecallIndex._eligible` judges every label:
    a slot current at ``now_us``, the tenant's code, a class within ``max_rank``), grown
    to the labels' present size; and the first moment after ``now_us`` at which a held
    version of a changed label starts or ends, or ``kept.until`` if sooner. The result
    holds over ``[now_us, until)``."""
    size = tenant.size
    grown = size - kept.admitted.size  # labels added since (each array written once)
    admitted = np.concatenate([kept.admitted, np.zeros(grown, dtype=bool)])
    slot_of = np.concatenate([kept.slot_of, np.full(grown, -1, np.int64)])
    until = kept.until
    start, end, slots_of = versions.start, versions.end, versions.slots_of
    for lab in changed:
        if lab >= size:
            continue
        slot = None
        for s in slots_of.get(lab, ()):
            begins, ends = int(start[s]), int(end[s])
            if begins <= now_us < ends:
                slot = s
            if now_us < begins < until:
                until = begins
            if now_us < ends < until:
                until = ends
        slot_of[lab] = -1 if slot is None else slot
        admitted[lab] = (slot is not None and int(tenant[lab]) == kept.code
                         and int(rank[lab]) <= max_rank)
    return admitted, slot_of, until
