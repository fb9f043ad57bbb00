"""Adaptive governance (SPEC §12.1-12.4): sweep, judge, utility, feedback, preferences.

Each operation reads the governance read model (:mod:`projections.governance`), applies
the pure rules of :mod:`memory_es.domain.governance` and, when something changes, submits
one command to the runtime's write path: a sweep round is one commit however many facts
it moves. Reads happen under the store lock after a catch-up, so a decision never rests
on a view that lags this process's own writes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import pyarrow as pa

from memory_es.clock import to_micros
from memory_es.domain import commands as c
from memory_es.domain import governance as rules
from memory_es.domain.events import PreferenceDriftDetected
from memory_es.domain.governance import DEFAULT, GovernanceConfig, SweepFact
from memory_es.domain.validation import check_attribute, check_tenant
from memory_es.errors import InvalidInput, NotFound
from memory_es.ids import stream_of
from memory_es.models import Posterior, Receipt, TierMove, Utility
from memory_es.runtime import Runtime
from projections import governance as views
from projections import queries

T = TypeVar("T")

SWEEP_COLUMNS = ("fact_id", "tier", "state", "importance", "volatility", "recorded_at",
                 "attribute", "verified_at", "uses", "use_days", "last_used")
"""The :func:`projections.governance.sweep_rows` columns, in :class:`SweepFact` order (the
attribute stands in for its declared TTL)."""


class GovernanceService:
    """The §12 operations of one open store.

    Args:
        rt: the store's runtime.
        config: the rules' numbers (default: the seeds').
        preference_verification: while False, ``feedback``, ``preference`` and
            ``preference_drift`` are strict no-ops returning None (SPEC §12.4).
    """

    def __init__(self, rt: Runtime, config: GovernanceConfig | None = None,
                 preference_verification: bool = False) -> None:
        if config is not None and not isinstance(config, GovernanceConfig):
            raise InvalidInput("governance must be a memory_es.GovernanceConfig")
        self.rt = rt
        self.config = config or DEFAULT
        self.preference_verification = bool(preference_verification)
        self._swept: dict[str, int] = {}
        rt.recall.configure(self.config)
        # served and judged facts: new q-values for recall, no row re-read
        rt.views.catchup.followers.append(self._follow_ledgers)

    def _follow_ledgers(self, fact_ids: list[str], position: int, since: int) -> None:
        """Catch-up follower: hand the batch's ledger-only changes to the recall index."""
        self.rt.recall.refresh_ledgers(self.rt.views.projector.ledger_touched)

    # 12.1 ---------------------------------------------------------------------------------

    def sweep(self, tenant: str) -> list[TierMove]:
        """One round at the store clock's time; every move and lapse in one commit."""
        check_tenant(tenant)
        rt = self.rt
        rt.check_open()
        with rt.lock:
            rt.catch_up()
            now = rt.now()
            cols = views.sweep_rows(rt.views.con, tenant, now).to_pydict()
            ttl = {a: rt.side.attribute(tenant, a).ttl_seconds
                   for a in set(cols.get("attribute", ()))}
            facts = [SweepFact(f, t, st, imp, vol, rec, ver, ttl[a], u, d, last)
                     for f, t, st, imp, vol, rec, a, ver, u, d, last in zip(
                         *(cols.get(name, []) for name in SWEEP_COLUMNS), strict=True)]
            plan = rules.plan_sweep(facts, now, self.config)
            if plan.moves or plan.stale:
                rt.writes.execute(c.ApplySweep(tenant=tenant, moves=plan.moves,
                                               stale=plan.stale))
            self._swept[tenant] = now
        return [TierMove(fact_id=m.fact_id, from_tier=m.from_tier, to_tier=m.to_tier,
                         reason=m.reason) for m in plan.moves]

    def sweep_if_due(self, tenant: str) -> list[TierMove]:
        """Sweep when ``sweep_interval_seconds`` is set and that long (store clock) has
        passed since this process last swept the tenant (long-running processes call it
        on every request); otherwise nothing."""
        interval = self.config.sweep_interval_seconds
        if interval is None:
            return []
        last = self._swept.get(tenant)
        if last is not None and self.rt.now() - last < interval * 1_000_000:
            return []
        return self.sweep(tenant)

    # 12.2 ---------------------------------------------------------------------------------

    def judge(self, tenant: str, recall_id: str, helpful: Any = (),
              misleading: Any = ()) -> Receipt:
        """Re-judge facts one recall served (the new word replaces the old one)."""
        for name, ids in (("helpful", helpful), ("misleading", misleading)):
            if isinstance(ids, str):
                raise InvalidInput(f"{name} must be a sequence of fact ids")
        command = c.JudgeRecall(tenant=tenant, recall_id=recall_id,
                                helpful=tuple(helpful or ()),
                                misleading=tuple(misleading or ()))
        if not command.helpful and not command.misleading:
            raise InvalidInput("name at least one fact as helpful or misleading")
        rt = self.rt
        rt.check_open()
        with rt.lock:
            rt.catch_up()
            owner, served = views.recall_facts(rt.views.con, command.recall_id)
            if owner != tenant:
                raise NotFound(f"recall {command.recall_id} not found in tenant {tenant}")
            unserved = [f for f in (*command.helpful, *command.misleading) if f not in served]
            if unserved:
                raise InvalidInput(f"fact {unserved[0]} was not served by recall "
                                   f"{command.recall_id}")
            return rt.writes.execute(command)

    def utility(self, tenant: str, fact_id: str, known_at: datetime | None = None) -> Utility:
        """The fact's ledger (as of ``known_at``, default now)."""
        book = self._read(tenant, fact_id, known_at, lambda con, k: views.ledgers(
            con, [fact_id], tenant=tenant, known_at=k))
        return rules.utility_of(book.get(fact_id, views.Ledger()).judgements, self.config)

    def _read(self, tenant: str, fact_id: str, known_at: datetime | None,
              read: Callable[[Any, int | None], T]) -> T:
        """``read(views connection, known_at µs)`` for a fact of this tenant (NotFound for
        another tenant's), with the views caught up."""
        check_tenant(tenant)
        stream_of(fact_id)
        k = None if known_at is None else to_micros(known_at, "known_at")
        rt = self.rt
        rt.check_open()
        with rt.lock:
            rt.catch_up()
            if not queries.fact_exists(rt.views.con, tenant, fact_id):
                raise NotFound(f"fact {fact_id} not found in tenant {tenant}")
            return read(rt.views.con, k)

    # 12.4 ---------------------------------------------------------------------------------

    def feedback(self, tenant: str, fact_id: str, outcome: str) -> Receipt | None:
        """Record an outcome for a preference fact; None (nothing appended) while the flag
        is off."""
        if not self.preference_verification:
            return None
        self.rt.check_open()
        return self.rt.writes.execute(c.RecordFeedback(tenant=tenant, fact_id=fact_id,
                                                       outcome=outcome))

    def preference(self, tenant: str, fact_id: str,
                   known_at: datetime | None = None) -> Posterior | None:
        """The fact's Beta posterior (as of ``known_at``); None while the flag is off."""
        if not self.preference_verification:
            return None
        seen = self._read(tenant, fact_id, known_at,
                          lambda con, k: views.outcomes(con, tenant, fact_id, k))
        return rules.posterior((o for _, o in seen), self.config)

    def preference_drift(self, tenant: str, entity: str,
                         attribute: str) -> PreferenceDriftDetected | None:
        """Compare the slot's current fact's last-7-days posterior with its last-90-days
        one; past the threshold, append a ``PreferenceDriftDetected`` audit event and return
        it. Never changes a fact. None while the flag is off, when the slot has no current
        fact or no outcome in the short window, or when the posteriors agree."""
        if not self.preference_verification:
            return None
        check_tenant(tenant)
        check_attribute(attribute)
        rt = self.rt
        rt.check_open()
        with rt.lock:
            rt.catch_up()
            now = rt.now()
            ent = rt.side.canonical(tenant, entity)
            if ent is None:
                return None
            current = queries.current(rt.views.con, now, tenant, ent, attribute,
                                      as_records=True)
            if not current:
                return None
            fact = max(current, key=lambda r: (r["recorded_at"], r["fact_id"]))
            fact_id = str(fact["fact_id"])
            drift = rules.preference_drift(views.outcomes(rt.views.con, tenant, fact_id),
                                           now, self.config)
            if drift is None or not drift.drifted:
                return None
            cfg = self.config
            command = c.RecordDrift(
                tenant=tenant, fact_id=fact_id, short_mean=drift.short_mean,
                long_mean=drift.long_mean, short_outcomes=drift.short_outcomes,
                long_outcomes=drift.long_outcomes, short_days=cfg.drift_short_days,
                long_days=cfg.drift_long_days,
                reason=f"posterior mean {drift.short_mean:.2f} over {cfg.drift_short_days} d "
                       f"vs {drift.long_mean:.2f} over {cfg.drift_long_days} d")
            rt.writes.execute(command)
        return PreferenceDriftDetected(
            tenant=tenant, fact_id=fact_id, short_mean=drift.short_mean,
            long_mean=drift.long_mean, short_outcomes=drift.short_outcomes,
            long_outcomes=drift.long_outcomes, short_days=cfg.drift_short_days,
            long_days=cfg.drift_long_days, reason=command.reason)


def replay_columns(con: Any, table: pa.Table, known_at: int,
                   config: GovernanceConfig = DEFAULT) -> pa.Table:
    """``replay``'s rows with governance as it stood at ``known_at``: ``tier`` then, and
    the ledger (``served``, ``useful``, ``harmful``, ``neutral``, ``utility``, ``q_value``)
    and preference posterior (``alpha``, ``beta``) of each fact."""
    ids = table.column("fact_id").to_pylist() if table.num_rows else []
    before = views.tiers_at(con, ids, known_at) if ids else {}
    if before:
        tiers = [before.get(f, t) for f, t in zip(ids, table.column("tier").to_pylist(),
                                                  strict=True)]
        table = table.set_column(table.schema.get_field_index("tier"), "tier",
                                 pa.array(tiers, pa.string()))
    books = views.ledgers(con, ids, known_at=known_at) if ids else {}
    ledger = [rules.utility_of(books.get(f, views.Ledger()).judgements, config) for f in ids]
    seen = views.outcomes_of(con, ids, known_at) if ids else {}
    posts = {f: rules.posterior(seen.get(f, ()), config) for f in set(ids)}
    columns: dict[str, tuple[pa.DataType, list[Any]]] = {
        "served": (pa.int64(), [u.served for u in ledger]),
        "useful": (pa.int64(), [u.useful for u in ledger]),
        "harmful": (pa.int64(), [u.harmful for u in ledger]),
        "neutral": (pa.int64(), [u.neutral for u in ledger]),
        "utility": (pa.float64(), [u.utility for u in ledger]),
        "q_value": (pa.float64(), [u.q_value for u in ledger]),
        "alpha": (pa.float64(), [posts[f].alpha for f in ids]),
        "beta": (pa.float64(), [posts[f].beta for f in ids]),
    }
    for name, (kind, values) in columns.items():
        table = table.append_column(name, pa.array(values, kind))
    return table

