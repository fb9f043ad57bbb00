"""An identifier a named thing carries is erased with its fact, not with the thing
(SPEC §15): a purge of ``10.0.4.17`` shreds ``Server db-07 has the IP address
10.0.4.17`` and leaves the server's other facts, even when the server is named by a
code of its own. The entity goes whole only when it *is* the identifier asked for.

The reference model is the list of texts each case writes: the carrying text goes,
every other stays.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from tests.unit.text_support import said, texts_after

# (the thing named by a code, the identifier it carries, as written in a fact)
_CARRIERS = [("Server db-07", "10.0.4.17", "has the IP address {}"),
             ("Printer PR-4", "pr4@print.example.com", "has the e-mail address {}"),
             ("Router gw-2", "https://gw2.example.net/admin", "has the admin page {}"),
             ("Kiosk K-12", "+44 20 7946 0321", "has the support line {}")]
_OTHER = ["runs PostgreSQL 15", "is in rack 12", "was installed in March"]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_CARRIERS), st.lists(st.sampled_from(_OTHER), min_size=1,
                                            max_size=3, unique=True))
def test_a_purged_identifier_leaves_its_carriers_other_facts(
        fresh_store: memory_es.MemoryStore, carrier: tuple[str, str, str],
        others: list[str]) -> None:
    thing, identifier, phrase = carrier
    held = f"{thing} {phrase.format(identifier)}."
    setup = [held, *(f"{thing} {o}." for o in others), "Mia Roth lives in Oslo."]
    after = texts_after(fresh_store, setup, "purge_matching", identifier)
    assert after == said(setup, but=[held])
