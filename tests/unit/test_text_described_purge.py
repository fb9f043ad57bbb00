"""A purge asked for by description (SPEC §15): a named entity and a thing of its own
(``Marta Nowak's passport``) crypto-shreds the one fact of that entity that holds the
thing, with its drift chain, and nothing else: never the entity's other facts, never
another entity's fact of the same kind. A description that fits several of the entity's
facts waits for ``confirm=True``; a thing the entity does not hold erases nothing."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.models import DeletionReceipt
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant

_SLOW = settings(max_examples=10, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])
PEOPLE = ["Marta Nowak", "Piotr Nowak", "Aisha Bello"]
# (the thing a purge names, how a fact states it)
THINGS = [("passport", "{p}'s passport number is {n}."),
          ("salary", "{p}'s salary is {n} EUR."),
          ("blood type", "{p}'s blood type is {n}."),
          ("insurance policy", "{p}'s insurance policy is number {n}.")]


@_SLOW
@given(st.lists(st.tuples(st.sampled_from(PEOPLE), st.sampled_from(range(len(THINGS)))),
                min_size=1, max_size=6, unique=True),
       st.data())
def test_only_the_named_persons_thing_is_erased(
        fresh_store: memory_es.MemoryStore, held: list[tuple[str, int]],
        data: st.DataObject) -> None:
    """The reference model is the set of (person, thing) pairs written: the purge removes
    exactly the pair asked for, whatever other people hold the same kind of thing."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    text = {(p, t): THINGS[t][1].format(p=p, n=f"A{i}7{t}") for i, (p, t) in enumerate(held)}
    for line in text.values():
        ti.remember(tenant, line)
    person, thing = data.draw(st.sampled_from(held))
    result = ti.purge_matching(tenant, f"{person}'s {THINGS[thing][0]}")
    expected = {line.rstrip(".") for pair, line in text.items() if pair != (person, thing)}
    assert current_texts(fresh_store, tenant) == expected
    assert len(result.touched) == 1 and result.receipts


def test_a_thing_the_person_lacks_erases_nothing(fresh_store: memory_es.MemoryStore) -> None:
    """Only the person matches: nothing is erased, and the candidates and the reason are
    returned (no whole-person fallback, no other person's fact)."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    kept = ["Mateo Ferreira restores old radios", "Ana Ferreira's tax number is 123456789"]
    for line in kept:
        ti.remember(tenant, line + ".")
    result = ti.purge_matching(tenant, "Mateo Ferreira's tax number")
    assert result.touched == [] and result.receipts == []
    assert result.pending and result.note.startswith("no match")
    assert current_texts(fresh_store, tenant) == set(kept)


def test_a_description_fitting_several_facts_waits_for_confirmation(
        fresh_store: memory_es.MemoryStore) -> None:
    """Two facts of the person hold the thing: nothing is erased without ``confirm=True``,
    the previews list both; with it both go and the person's other fact stays."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for line in ("Dev Malhotra's passport number is P1234567.",
                 "Dev Malhotra's passport expires in 2031.", "Dev Malhotra flies kites."):
        ti.remember(tenant, line)
    pending = ti.purge_matching(tenant, "Dev Malhotra's passport")
    assert pending.touched == [] and len(pending.previews) == 2 and pending.pending
    assert len(current_texts(fresh_store, tenant)) == 3
    done = ti.purge_matching(tenant, "Dev Malhotra's passport", confirm=True)
    assert len(done.touched) == 2
    assert current_texts(fresh_store, tenant) == {"Dev Malhotra flies kites"}


def test_a_purged_thing_leaves_no_plaintext_in_recall(fresh_store: memory_es.MemoryStore) -> None:
    """The shredded number recalls nothing afterwards, and the receipt's report is complete."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    ti.remember(tenant, "Lukas Becker's passport number is C01X00T47.")
    ti.remember(tenant, "Lukas Becker works at Siemens.")
    result = ti.purge_matching(tenant, "Lukas Becker's passport")
    receipt = result.receipts[0]
    assert isinstance(receipt, DeletionReceipt)
    assert receipt.report is not None and receipt.report.complete
    assert ti.recall_texts(tenant, "C01X00T47", 5) == []
    assert current_texts(fresh_store, tenant) == {"Lukas Becker works at Siemens"}


def test_a_relatives_fact_stored_on_the_person_is_not_their_thing(
        fresh_store: memory_es.MemoryStore) -> None:
    """``Omar's wife has a credit score of 780`` is the wife's: a purge or a release of
    Omar's credit score takes his own fact only."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    wife = "Omar Haddad's wife has a credit score of 780"
    wage = "Omar Haddad's wife has a salary of 39,000 EUR"
    for line in ("Omar Haddad's credit score is 720", wife,
                 "Omar Haddad's salary is 41,000 EUR", wage):
        ti.remember(tenant, line + ".")
    ti.purge_matching(tenant, "Omar Haddad's credit score")
    ti.release(tenant, "Omar Haddad's salary")
    assert current_texts(fresh_store, tenant) == {wife, wage}
