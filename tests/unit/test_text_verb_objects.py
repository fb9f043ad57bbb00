"""What an entity itself does, told anew with ``now`` (SPEC §15: a change ends only what
it replaces).

- ``The gateway now runs Envoy`` ends ``The gateway runs HAProxy``: the one fact of the
  same verb whose object no slot reads, another name of the same kind.
- An object that is a common noun names a topic (a sport, an instrument, a subject:
  ``now plays squash``), one of several a person may have: nothing ends. Nor does anything
  when the entity holds two facts of the verb (which one is meant is not said), when
  ``also`` adds, or when the held fact is a relative's, kept under the entity's id.
- A slot a change names (``is now rebuilt daily``: ``build``) that the entity holds with
  another value ends it; a periodic adverb (``hourly``, ``quarterly``) is no part of a slot.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant, texts_after

# (held facts, the change told, the held facts it ends)
_CHANGES = [
    (["The gateway runs HAProxy"], "The gateway now runs Envoy.", ["The gateway runs HAProxy"]),
    (["The invoicing job uses Celery"], "The invoicing job now uses Temporal.",
     ["The invoicing job uses Celery"]),
    (["Kofi Mensah sees Dr Lund for his knee"], "Kofi Mensah now sees Dr Berg for his knee.",
     ["Kofi Mensah sees Dr Lund for his knee"]),
    (["Hana Sato backs Hibernian"], "Hana Sato now backs Celtic.", ["Hana Sato backs Hibernian"]),
    (["Hana Sato plays the oboe"], "Hana Sato now plays squash.", []),
    (["Hana Sato teaches chemistry"], "Hana Sato now teaches physics.", []),
    (["The gateway runs HAProxy", "The gateway runs Consul"], "The gateway now runs Envoy.", []),
    (["The invoicing job uses Celery"], "The invoicing job now also uses Temporal.", []),
    (["Kofi Mensah's son sees Dr Lund"], "Kofi Mensah now sees Dr Berg.", []),
]


@settings(max_examples=16, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_CHANGES))
def test_a_verbs_new_object_told_with_now_replaces_its_one_old_object(
        fresh_store: memory_es.MemoryStore, case: tuple[list[str], str, list[str]]) -> None:
    held, change, ended = case
    kept = [f"{change.split(' now ')[0]} was set up in 2019"]
    after = texts_after(fresh_store, [f"{t}." for t in (*held, *kept)], "remember", change)
    assert {*kept, change.rstrip(".")} <= after
    assert {h for h in held if h not in after} == set(ended)


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("is rebuilt", "weekly", "daily"),
                        ("is retrained", "monthly", "weekly"),
                        ("is audited", "yearly", "quarterly")]))
def test_a_slot_told_anew_with_now_takes_its_new_value(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str, str]) -> None:
    """``The ledger is now rebuilt daily``: the slot the change names (``build``) holds
    another value (``rebuilt weekly``), so that value ends; ``also`` keeps the new one."""
    verb, old, new = case
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    held, kept = f"The ledger {verb} {old}", "The ledger is kept in Leeds"
    for text in (held, kept):
        ti.remember(tenant, text + ".")
    said = f"The ledger {verb.replace('is ', 'is now ')} {new}"
    ti.remember(tenant, said + ".")
    after = current_texts(fresh_store, tenant)
    assert {kept, said} <= after
    assert held not in after
    ti.remember(tenant, f"The ledger {verb.replace('is ', 'is also ')} {old}.")
    assert said in current_texts(fresh_store, tenant)
