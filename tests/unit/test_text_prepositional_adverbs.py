"""A prepositional adverb (``round``, ``around``, ``along``, ``past``) used as a preposition
in a query, before a determiner or a name, is a function word there (SPEC §15): no word
the fact must hold, and the end of the noun phrase before it, as ``in`` or ``at`` is."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import memory_es
from memory_es.text.matching import analyse_query
from tests.unit.text_support import assert_first_ended_only, store_examples, texts_after

_SLOW = store_examples(6)

SETUP = ["Hamish Kerr leads guided tours of Durham Cathedral on Monday and Wednesday afternoons.",
         "Hamish Kerr's sister, Morag Kerr, also leads guided tours of Durham Cathedral on "
         "Monday and Wednesday afternoons.",
         "Hamish Kerr volunteers in the library of Durham Cathedral on Wednesday mornings.",
         "Hamish Kerr leads ghost walks around Durham city centre on Friday evenings."]


@_SLOW
@given(st.sampled_from(["round", "around"]),
       st.sampled_from(["the weekday afternoon tours Hamish takes {p} the cathedral",
                        "Hamish's afternoon tours {p} the cathedral",
                        "the afternoon tours he gives {p} the cathedral"]),
       st.sampled_from(["forget", "release"]))
def test_a_prepositional_adverb_before_its_object_is_no_word_in_common(
        fresh_store: memory_es.MemoryStore, preposition: str, query: str, op: str) -> None:
    after = texts_after(fresh_store, SETUP, op, query.format(p=preposition))
    assert_first_ended_only(SETUP, after)


def test_only_a_governing_use_is_set_aside() -> None:
    assert "round" not in analyse_query("tours round the cathedral").terms
    assert "along" not in analyse_query("walks along the Thames").terms
    assert "past" not in analyse_query("runs past Hyde Park").terms
    assert "around" in analyse_query("the hang around").terms
