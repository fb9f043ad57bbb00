"""The mechanisms behind each ForgetEval-Adv attack category, two or more tests each.

Hand-written against the mechanism (none is a copy of a benchmark case): each test
states the rule that defeats one attack, on a small embedded store.
"""

from __future__ import annotations

import pytest

import memory_es
from memory_es.text import TextInterface, interpret

T = "acme"


@pytest.fixture
def text(fresh_store: memory_es.MemoryStore) -> TextInterface:
    """The text interface over an empty store."""
    return TextInterface(fresh_store)


def store_of(ti: TextInterface) -> memory_es.MemoryStore:
    """The real store behind the interface (the audit reads are not part of TextStore)."""
    assert isinstance(ti.store, memory_es.MemoryStore)
    return ti.store


def current_texts(ti: TextInterface) -> list[str]:
    return sorted(f.text for f in ti.store.current(T))


def remember(ti: TextInterface, *texts: str) -> None:
    for t in texts:
        ti.remember(T, t)


# --- substring_trap ------------------------------------------------------------------------


def test_substring_trap_purge_by_description_spares_a_fact_sharing_a_word(
        text: TextInterface) -> None:
    """Purging "the staging token" erases the token, not prose that shares its word."""
    remember(text, "The staging token is orbit77#kelp.",
             "The orbit of the moon was the talk topic.")
    text.purge_matching(T, "staging token")
    assert current_texts(text) == ["The orbit of the moon was the talk topic"]
    assert text.recall_texts(T, "orbit77", 5) == []


def test_substring_trap_a_lower_case_common_word_is_not_the_person(
        text: TextInterface) -> None:
    """Forgetting Rose leaves "a rose bush": names are matched as names, not substrings."""
    remember(text, "Rose manages the payroll team.", "A rose bush grows by the entrance.")
    text.release(T, "everything about Rose")
    assert current_texts(text) == ["A rose bush grows by the entrance"]


# --- prefix_collision ----------------------------------------------------------------------


def test_prefix_collision_purge_keeps_the_longer_identifier(text: TextInterface) -> None:
    """Purging INV-300 keeps INV-3001, and INV-300 no longer retrieves anything."""
    remember(text, "Invoice INV-300 was paid in cash.", "Invoice INV-3001 is overdue.")
    result = text.purge_matching(T, "INV-300")
    assert [t.by for t in result.targets] == ["identifier"]
    assert current_texts(text) == ["Invoice INV-3001 is overdue"]
    assert text.recall_texts(T, "INV-300", 5) == []


def test_prefix_collision_email_local_part_is_exact(text: TextInterface) -> None:
    """``li@corp.io`` is not ``li.wei@corp.io`` (nor ``li@corp.io.cn``)."""
    remember(text, "Customer li@corp.io chose the basic tier.",
             "Customer li.wei@corp.io chose the team tier.",
             "Customer li@corp.io.cn chose the free tier.")
    text.purge_matching(T, "li@corp.io")
    assert current_texts(text) == ["Customer li.wei@corp.io chose the team tier",
                                   "Customer li@corp.io.cn chose the free tier"]


# --- paraphrase_supersession -----------------------------------------------------------------


def test_paraphrase_supersession_reaches_the_fact_through_its_topic(
        text: TextInterface) -> None:
    """"user vehicle" finds "drives a hatchback" through the transport domain."""
    remember(text, "The user drives a hatchback.", "The user knits scarves.")
    result = text.revise(T, "user vehicle", "The user now cycles to work every day.")
    assert [t.text for t in result.targets] == ["The user drives a hatchback"]
    assert current_texts(text) == ["The user knits scarves",
                                   "The user now cycles to work every day"]


def test_paraphrase_supersession_of_residence_keeps_one_city(text: TextInterface) -> None:
    """A reworded move supersedes the home slot: one current city, a drift chain of two."""
    remember(text, "The user has lived in Perth since 2019.")
    text.revise(T, "user place of residence", "The user relocated to Hobart.")
    (now,) = text.store.current(T)
    assert now.text == "The user relocated to Hobart"
    first = store_of(text).chain(T, now.fact_id)[0]
    assert first.text.startswith("The user has lived")


# --- negation_trap ------------------------------------------------------------------------------


def test_negation_trap_the_negation_and_its_elaboration_leave_together(
        text: TextInterface) -> None:
    """"has no pets and never wanted one" is one claim; adopting a dog replaces all of it."""
    remember(text, "The user has no pets and never wanted one.", "The user rents a loft.")
    text.revise(T, "user pet ownership", "The user adopted a beagle.")
    assert current_texts(text) == ["The user adopted a beagle", "The user rents a loft"]


def test_negation_trap_release_respects_polarity(text: TextInterface) -> None:
    """Releasing "does not drink cola" leaves "drinks sparkling water"."""
    remember(text, "The user does not drink cola.", "The user drinks sparkling water.")
    text.release(T, "user does not drink cola")
    assert current_texts(text) == ["The user drinks sparkling water"]


# --- temporal_qualifier --------------------------------------------------------------------------


def test_temporal_qualifier_is_kept_and_the_chain_links(text: TextInterface) -> None:
    """The dated replacement keeps its date in the text and extends the drift chain."""
    remember(text, "The user joined Orbis in 2019.")
    text.revise(T, "user employer 2019", "The user moved to Vantage in March 2023.")
    (now,) = text.store.current(T)
    assert "March 2023" in now.text
    assert len(store_of(text).chain(T, now.fact_id)) == 2


def test_temporal_qualifier_leading_phrase_does_not_become_the_subject() -> None:
    """"Since 2020 the user …" is about the user, with the period recorded."""
    (c,) = interpret("Since 2020 the user has coached hockey.").clauses
    assert c.entity == "user:self"
    assert any("2020" in t for t in c.temporal)


# --- shared_attribute ----------------------------------------------------------------------------


def test_shared_attribute_amnesia_keeps_the_neighbour(text: TextInterface) -> None:
    """Two people live in Tartu; forgetting one leaves the other answerable."""
    remember(text, "Mari lives in Tartu and studies law.", "Juhan lives in Tartu and sings.")
    text.release(T, "everything about Mari")
    assert current_texts(text) == ["Juhan lives in Tartu", "Juhan sings"]
    assert "Juhan lives in Tartu" in text.recall_texts(T, "Who lives in Tartu?", 5)


def test_shared_attribute_value_is_not_an_identity(text: TextInterface) -> None:
    """The same coupon used by two customers: releasing one customer keeps the other."""
    remember(text, "Customer a1@shop.io redeemed coupon SPRING9.",
             "Customer b2@shop.io redeemed coupon SPRING9.")
    text.release(T, "everything about a1@shop.io")
    assert current_texts(text) == ["Customer b2@shop.io redeemed coupon SPRING9"]


# --- compound_fact -------------------------------------------------------------------------------


def test_compound_fact_supersede_one_clause_keeps_the_other(text: TextInterface) -> None:
    """Updating the job in "plays cello and teaches physics" keeps the cello."""
    remember(text, "The user plays cello and teaches physics at a college.")
    text.revise(T, "user teaching job college", "The user now teaches at a high school.")
    assert current_texts(text) == ["The user now teaches at a high school",
                                   "The user plays cello"]


def test_compound_fact_release_one_clause_keeps_the_other(text: TextInterface) -> None:
    """Releasing one half of a compound sentence leaves the other half current."""
    remember(text, "Bram collects stamps and runs a food blog.")
    text.release(T, "Bram stamp collection")
    assert current_texts(text) == ["Bram runs a food blog"]


# --- identifier_obfuscation ----------------------------------------------------------------------


def test_identifier_obfuscation_spelled_out_address_is_purged(text: TextInterface) -> None:
    """``ops [at] corp [dot] io`` is purged by ``OPS@CORP.IO``; other addresses stay."""
    remember(text, "Escalations go to ops [at] corp [dot] io.",
             "Billing questions go to bills@corp.io.")
    text.purge_matching(T, "OPS@CORP.IO")
    assert current_texts(text) == ["Billing questions go to bills@corp.io"]


def test_identifier_obfuscation_homoglyph_address_is_one_identity(text: TextInterface) -> None:
    """A Cyrillic look-alike letter does not hide an address from erasure."""
    remember(text, "Customer r\u043eot@corp.io opened a dispute.",
             "Customer rita@corp.io opened a dispute.")
    text.purge_matching(T, "root@corp.io")
    assert current_texts(text) == ["Customer rita@corp.io opened a dispute"]


def test_identifier_obfuscation_alternate_form_is_erased_with_its_record(
        text: TextInterface) -> None:
    """"Same line, national form: …" joins the record; purging one form erases both."""
    remember(text, "Clinic line: +1 303 555 0142.", "Same line, national form: 303-555-0142.",
             "Pharmacy line: 303-555-0199.")
    text.purge_matching(T, "303-555-0142")
    assert current_texts(text) == ["Pharmacy line: 303-555-0199"]


# --- cross_lingual_identifier --------------------------------------------------------------------


def test_cross_lingual_transliteration_names_the_same_entity(text: TextInterface) -> None:
    """Cyrillic and Latin spellings of a name resolve to one entity without an alias."""
    remember(text, "Client \u041e\u043b\u0435\u0433 \u041e\u0440\u043b\u043e\u0432 renewed.",
             "Client Oleg Orlov asked for an invoice.", "Client Ivo Petri renewed.")
    text.purge_matching(T, "client Oleg Orlov")
    assert current_texts(text) == ["Client Ivo Petri renewed"]


def test_cross_lingual_same_as_phrase_registers_the_latin_name(text: TextInterface) -> None:
    """"Same client as Wang Fang …" attaches to the Han-named client; purging the Latin
    name erases both forms and spares another client."""
    remember(text, "Client \u738b\u82b3 signed the lease.", "Same client as Wang Fang paid.",
             "Client \u674e\u519b signed a lease too.")
    assert text.store.current(T, entity="client:wang-fang")  # the pinyin names the entity
    text.purge_matching(T, "Wang Fang")
    assert current_texts(text) == ["Client \u674e\u519b signed a lease too"]


# --- recursive_supersession ----------------------------------------------------------------------


def test_recursive_supersession_a_b_a_leaves_one_current_value(text: TextInterface) -> None:
    """A → B → A: only the last is current; the chain holds all three."""
    remember(text, "The team uses Trello for planning.")
    text.revise(T, "team planning tool Trello", "The team switched to Asana in 2023.")
    text.revise(T, "team planning tool Asana", "The team went back to Trello in 2025.")
    (now,) = text.store.current(T)
    assert now.text == "The team went back to Trello in 2025"
    assert len(store_of(text).chain(T, now.fact_id)) == 3


def test_recursive_supersession_back_reference_becomes_the_reason(
        text: TextInterface) -> None:
    """"… after <the retired value> failed" describes history: it moves to the reason."""
    remember(text, "The lab uses Jenkins for builds.")
    text.revise(T, "lab build tool", "The lab switched to Drone after Jenkins kept crashing.")
    (now,) = text.store.current(T)
    assert "Jenkins" not in now.text
    history = store_of(text).history(T, now.fact_id)
    assert any("Jenkins kept crashing" in (h.reason or "") for h in history)


# --- paraphrase supersession: a topic named as a whole ----------------------------------------


def test_a_revise_naming_a_topic_by_a_general_noun_replaces_the_one_fact_in_it(
        text: TextInterface) -> None:
    """``Noor Haddad's occupation`` names the work topic without any word of the old fact;
    her one work fact is replaced, her other facts stay."""
    remember(text, "Noor Haddad works as a welder in a shipyard.",
             "Noor Haddad grows orchids.")
    result = text.revise(T, "Noor Haddad's occupation", "Noor Haddad is now a nurse.")
    assert result.note == "targeted by topic"
    assert current_texts(text) == ["Noor Haddad grows orchids", "Noor Haddad is now a nurse"]


def test_a_member_of_a_topic_is_a_thing_not_the_topic(text: TextInterface) -> None:
    """``dentist`` is a word of the work topic but does not name it: a revise about
    Noor's dentist leaves her work fact alone."""
    remember(text, "Noor Haddad works as a welder in a shipyard.")
    text.revise(T, "Noor Haddad's dentist", "Noor Haddad's dentist moved to Leeds.")
    assert "Noor Haddad works as a welder in a shipyard" in current_texts(text)


def test_a_topic_with_two_facts_of_the_entity_is_decided_by_the_new_texts_slot(
        text: TextInterface) -> None:
    """Two work facts of the person and a query that names only the topic: the query does
    not say which, but ``became a nurse`` changes the role that ``works as a welder``
    holds (as ``remember`` of it alone would); the other work fact stays."""
    remember(text, "Noor Haddad works as a welder in a shipyard.",
             "Noor Haddad tutors at a college on Saturdays as a freelance instructor.")
    result = text.revise(T, "Noor Haddad's occupation", "Noor Haddad became a nurse.")
    assert result.note.startswith("no match")
    assert set(current_texts(text)) == {
        "Noor Haddad became a nurse",
        "Noor Haddad tutors at a college on Saturdays as a freelance instructor"}


def test_a_topic_with_two_facts_and_a_new_text_of_neither_slot_retires_neither(
        text: TextInterface) -> None:
    """The same two work facts and a new text whose slot neither holds: nothing of theirs
    is retired, the new text is remembered beside them."""
    remember(text, "Noor Haddad works as a welder in a shipyard.",
             "Noor Haddad tutors at a college on Saturdays as a freelance instructor.")
    result = text.revise(T, "Noor Haddad's occupation", "Noor Haddad opened a bakery.")
    assert result.note.startswith("no match")
    assert {"Noor Haddad works as a welder in a shipyard",
            "Noor Haddad tutors at a college on Saturdays as a freelance instructor"} <= set(
        current_texts(text))


def test_a_new_text_that_names_the_old_state_back_targets_it(text: TextInterface) -> None:
    """The vocabulary does not know an ``axolotl``, but the new text names the old fact's
    animal back by name: that fact is replaced."""
    remember(text, "User owns an axolotl called Bramble.", "User speaks Welsh.")
    result = text.revise(T, "user pets", "User adopted a ferret after Bramble died.")
    assert result.note == "targeted by back-reference"
    assert not any("axolotl" in t for t in current_texts(text))
    assert "User speaks Welsh" in current_texts(text)


# --- a person named by the first word of their name ------------------------------------------


def test_a_unique_given_name_names_the_person(text: TextInterface) -> None:
    """``Ilse's Spotify account`` names Ilse Berger (the only Ilse): that fact goes, her
    other fact and another person's Spotify account stay."""
    remember(text, "Ilse Berger has a Spotify account.", "Ilse Berger paints ceramics.",
             "Kofi Mensah has a Spotify account.")
    text.release(T, "Ilse's Spotify account")
    assert current_texts(text) == ["Ilse Berger paints ceramics",
                                   "Kofi Mensah has a Spotify account"]


def test_a_given_name_two_people_share_names_no_one(text: TextInterface) -> None:
    """Two candidates called Ilse: the first name alone names neither, and a purge never
    takes a first name for the canonical one."""
    remember(text, "Ilse Berger paints ceramics.", "Ilse Novak paints murals.")
    assert text.release(T, "everything about Ilse").touched == []
    remember(text, "Kofi Mensah keeps a diary.")
    assert text.purge_matching(T, "everything about Kofi").touched == []
    assert len(current_texts(text)) == 3


def test_an_information_noun_with_a_modifier_is_one_thing(text: TextInterface) -> None:
    """``Kofi's pension account`` is one account, not Kofi's whole record; ``information
    about Kofi`` is the whole record."""
    remember(text, "Kofi Mensah has a pension account with Aviva.", "Kofi Mensah keeps a diary.")
    text.release(T, "Kofi Mensah's pension account")
    assert current_texts(text) == ["Kofi Mensah keeps a diary"]
    text.release(T, "information about Kofi Mensah")
    assert current_texts(text) == []
