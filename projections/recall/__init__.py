"""Recall (SPEC §9): the keyword + vector projection of the version table, and its ranking.

**What is indexed.** One entry per fact that has an open (``recorded_until IS NULL``)
version passing :data:`projections.schema.ELIGIBLE` (retrievable state, not revoked
now — both derived from ``RETRIEVABLE_STATES``/``INELIGIBLE_NOW``) and not masked: its
vector in FAISS, its terms in the BM25 index, and an in-memory mirror of its open
versions: what eligibility needs (tenant, classification, valid intervals), the ranking
inputs (confidence, state, provenance, volatility, record time) and the rows themselves,
so a hit becomes a ``Fact`` without another DuckDB query. A fact that leaves that set
(forgotten, archived, deprecated, retracted, conflicted, masked, purged...) loses its
vector (``remove_ids``, count checked) and postings at once. A superseded or decayed
fact keeps its entry while its open version lies in the past, and the currency filter
evaluated at query time keeps it out of every result.

**How it follows the log.** :meth:`RecallIndex.sync` is called after each batch the
version projection applies, with the fact ids the batch touched and the batch's log
position: it reads those facts' open versions back from ``fact_versions`` (DuckDB is
the source of truth) and adds, updates or removes entries; an unchanged text is never
re-embedded. ``sync(None, position)`` diffs the whole table (open, rebuild, recovery).
The changed segment files are written every ``checkpoint_seconds``, on
:meth:`RecallIndex.flush` and on :meth:`RecallIndex.close`
(:mod:`~projections.recall.persist`: segments by label range and a manifest, so a purge
rewrites only the segments that held the purged facts); a saved index whose position
differs from DuckDB's tracking position is reconciled by a full diff, which re-embeds
only changed texts. A crash
therefore loses no work and doubles none: syncing is idempotent.

**Eligibility comes first in every channel**: the candidate set is the tenant's facts
that are current (or, for as-of recall, in the belief at ``(valid_at, known_at)``, read
from DuckDB's as-of query) within the classification ceiling; FAISS ranks only those (an
id selector built from them) and BM25 scores only those, with statistics over them
alone. With ``verify=True`` every hit is also re-read from DuckDB with the current-view
filter and any disagreement counted (the tests run that way, and assert none).

Modules, in the order data flows through them:

- :mod:`~projections.recall.documents`: the text a fact is indexed under;
- :mod:`~projections.recall.vectors`, :mod:`~projections.recall.keywords`: the channels;
- :mod:`~projections.recall.mirror`: the open versions and their rows, in memory;
- :mod:`~projections.recall.persist`: the segment files and their manifest;
- :mod:`~projections.recall.index`: :class:`RecallIndex` and :func:`recall`;
- :mod:`~projections.recall.ranking`: the parts, the blend and the order.
"""

from projections.recall.documents import document
from projections.recall.index import RecallIndex, current_rows, recall
from projections.recall.ranking import (
    ASSERTED_IMPORTANCE,
    CHANNELS,
    MIN_SEMANTIC,
    RECENCY_HALF_LIFE_US,
    STATE_UTILITY,
    VOLATILITY_IMPORTANCE,
    WEIGHTS,
    class_ceiling,
    explore,
    importance,
    pool_size,
    recency,
    utility,
)

__all__ = [
    "ASSERTED_IMPORTANCE",
    "CHANNELS",
    "MIN_SEMANTIC",
    "RECENCY_HALF_LIFE_US",
    "STATE_UTILITY",
    "VOLATILITY_IMPORTANCE",
    "WEIGHTS",
    "RecallIndex",
    "class_ceiling",
    "current_rows",
    "document",
    "explore",
    "importance",
    "pool_size",
    "recall",
    "recency",
    "utility",
]
