"""A verb undone by the reversative prefix *un-* ends the state the verb began (SPEC §15:
a change ends what it names, and nothing else).

``unsubscribed from The Spectator`` ends ``subscribes to The Spectator``, not the other
subscription of the same person nor a relative's; a word that is a verb of its own
(``united``, ``understood``) or whose rest is no verb (``unruly``) is no reversal, and
after *be* the participle is an adjective, a state (``is unmarried``).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.text.qualifiers import cessation, undoes_a_verb
from tests.unit.text_support import texts_after

# (held, the same verb of another object, the reversal)
_PAIRS = [
    ("Noor Ali subscribes to The Spectator", "Noor Ali subscribes to Vogue",
     "Noor Ali unsubscribed from The Spectator."),
    ("Noor Ali follows Arsenal on TikTok", "Noor Ali follows Nasa on TikTok",
     "Noor Ali unfollowed Arsenal."),
    ("Noor Ali has Duolingo installed", "Noor Ali has Spotify installed",
     "Noor Ali uninstalled Duolingo."),
]


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_PAIRS))
def test_a_reversed_verb_ends_the_state_it_names(
        fresh_store: memory_es.MemoryStore, case: tuple[str, str, str]) -> None:
    held, other, undone = case
    kin = held.replace("Noor Ali", "Noor Ali's sister", 1)
    kept = [other, kin, "Noor Ali lives in Hull"]
    after = texts_after(fresh_store, [f"{t}." for t in (held, *kept)], "remember", undone)
    assert set(kept) <= after
    assert held not in after


@given(st.sampled_from(["unsubscribed", "uninstalled", "unfollowed", "unpublished"]))
def test_un_before_a_verbs_past_is_a_reversal(word: str) -> None:
    assert undoes_a_verb(word)
    assert cessation([word, "it"], f"{word} it")
    assert cessation(["has", word, "it"], f"has {word} it")


@given(st.sampled_from(["united", "understood", "unruly", "under", "unsure"]))
def test_a_word_of_its_own_is_no_reversal(word: str) -> None:
    assert not undoes_a_verb(word)


@given(st.sampled_from(["is", "was", "has been"]), st.sampled_from(["unmarried", "unpaid"]))
def test_an_undone_participle_after_be_is_a_state(be: str, word: str) -> None:
    """``is unmarried``, ``was unpaid``: an adjective, no change."""
    said = f"{be} {word}"
    assert not cessation(said.split(), said)
