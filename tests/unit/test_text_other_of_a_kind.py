"""A query that names another thing than a fact holds leaves the fact (SPEC §15: no
operation changes what it was not asked to).

- The query's thing meets a fact only by its topic while the fact names a thing of that
  topic of its own: two things (``plays the violin`` is not ``plays the flute``). A word
  that names the topic as a whole (``instrument``) still takes in the one fact of it.
- A query stated as a clause whose verb's object shares neither a word nor a topic with
  the object of the same verb in a fact states another fact (``plays the piano`` is not
  ``plays chess online``), or a thing of the same topic that the query does not name as a
  whole (``teaches pilates`` is not ``teaches yoga``); so does a clause of a named subject
  with another verb than the fact's (``cycles to work`` is not ``drives to work``). A
  passive fact's verb acts on its subject (``The payments service is owned by Team
  Falcon``: ``who owns the payments service`` asks for it).
- A compound whose head names a physical thing (``coffee grinder``) is that thing: a fact
  that meets only the words before the head (``drinks espresso``) is about something
  else; so is a rare noun of the agentive ``-er`` (``espresso descaler``, a device), and a
  compound that names a thing or a person (``espresso maker``). An abstract head
  (``espresso habit``) leaves it open.
- A role or information noun after a content word is the head of a compound (``water
  supplier`` is a supplier of water): a fact of another kind of it (``energy supplier``)
  is no match.

The reference model is the list of facts each case writes: the asked one ends, every
other stays.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text import TextInterface
from tests.unit.text_support import current_texts, fresh_tenant, said, texts_after

_NINA = ["Nina Vogel lives in Bremen.", "Nina Vogel works at Airbus.",
         "Nina Vogel plays the flute.", "Nina Vogel has a cat called Mochi.",
         "Nina Vogel plays chess online."]
_CHLOE = ["Chloe Adams's energy supplier is Octopus.", "Chloe Adams's landlord is Peter Shaw.",
          "Chloe Adams's phone number is 07700 900123.", "Chloe Adams lives in Leeds."]
_MAYA = ["Maya Rao teaches yoga on Mondays.", "Maya Rao lives in Pune.",
         "Maya Rao plays the cello."]
_OMAR = ["Omar Haddad drinks espresso after lunch.", "Omar Haddad rides a road bike to work.",
         "Omar Haddad grows tomatoes in his garden.", "Omar Haddad lives in Lyon."]

# (setup, an operation that names another thing of the same kind or topic)
_OTHERS = [
    (_NINA, "forget", "Nina Vogel plays the violin"),
    (_NINA, "forget", "Could you forget that Nina Vogel plays the cello?"),
    (_NINA, "release", "Nina Vogel's guitar"),
    (_NINA, "forget", "Nina Vogel plays the piano"),
    (_NINA, "forget", "Could you forget that Nina Vogel plays darts?"),
    (_CHLOE, "release", "Chloe Adams's water supplier"),
    (_CHLOE, "forget", "Chloe Adams's account number"),
    (_OMAR, "release", "Omar Haddad's garden hose"),
    (_OMAR, "forget", "Omar Haddad's bike helmets"),
    (_OMAR, "release", "Omar Haddad's espresso grinder"),
    (_OMAR, "release", "Omar Haddad's espresso descaler"),
    (_OMAR, "forget", "Omar Haddad's garden composter"),
    (_OMAR, "release", "Omar Haddad's espresso maker"),
    (_OMAR, "forget", "Omar Haddad's tomato plant"),
    (_OMAR, "release", "Omar Haddad's tomato crate"),
    (_OMAR, "release", "Omar Haddad's espresso machine"),
    (_OMAR, "forget", "Omar Haddad drives to work"),
    (_MAYA, "forget", "Maya Rao teaches pilates"),
    (_MAYA, "forget", "Maya Rao teaches tennis"),
    (_OMAR, "forget", "Could you forget that Omar Haddad sells tomatoes?"),
]


@settings(max_examples=64, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_OTHERS))
def test_another_thing_of_the_kind_ends_nothing(fresh_store: memory_es.MemoryStore,
                                                case: tuple[list[str], str, str]) -> None:
    setup, op, query = case
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in setup:
        ti.remember(tenant, text)
    getattr(ti, op)(tenant, query)
    assert current_texts(fresh_store, tenant) == {t.rstrip(".") for t in setup}


# (setup, an operation that names the thing, the fact it ends)
_SAME = [
    (_NINA, "forget", "Nina Vogel plays the flute", _NINA[2]),
    (_NINA, "forget", "Nina Vogel's instrument", _NINA[2]),
    (_NINA, "forget", "Nina Vogel plays chess", _NINA[4]),
    (_CHLOE, "release", "Chloe Adams's energy supplier", _CHLOE[0]),
    (_CHLOE, "forget", "Chloe Adams's phone number", _CHLOE[2]),
    (_OMAR, "release", "Omar Haddad's espresso habit", _OMAR[0]),
    (_OMAR, "forget", "Omar Haddad's road bike", _OMAR[1]),
    (_OMAR, "forget", "Omar Haddad rides a road bike", _OMAR[1]),
    (_MAYA, "forget", "Maya Rao teaches yoga", _MAYA[0]),
    (_MAYA, "forget", "Maya Rao plays an instrument", _MAYA[2]),
]


@settings(max_examples=24, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_SAME))
def test_the_thing_itself_or_its_topic_ends_its_fact(
        fresh_store: memory_es.MemoryStore, case: tuple[list[str], str, str, str]) -> None:
    """A guard: the rule leaves the thing named as written, or by its topic's name."""
    setup, op, query, ended = case
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in setup:
        ti.remember(tenant, text)
    getattr(ti, op)(tenant, query)
    assert current_texts(fresh_store, tenant) == {
        t.rstrip(".") for t in setup if t != ended}


_PLATFORM = ["The payments service runs on Kubernetes.",
             "The payments service is owned by Team Falcon.",
             "The search service runs on Kubernetes.", "The search service is written in Go."]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([("who owns the payments service", _PLATFORM[1]),
                        ("Could you forget who owns the payments service?", _PLATFORM[1]),
                        ("who owns the search service", None),
                        ("who runs the payments service", None)]))
def test_a_passive_facts_verb_acts_on_its_subject(fresh_store: memory_es.MemoryStore,
                                                  case: tuple[str, str | None]) -> None:
    query, ended = case
    assert texts_after(fresh_store, _PLATFORM, "forget", query) == said(_PLATFORM, but=[ended])
