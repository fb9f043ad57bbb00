"""What a change names by its kind, its means or its label (SPEC §15).

- ``now specialises in family law`` ends ``specialises in employment law``: the head of a
  preposition's object says its kind; modifiers say which one.
- ``commutes along the canal path`` is the route, beside how one commutes, and so is
  ``drives along the coast road`` beside what one drives.
- ``replaced his Trek hybrid with a Brompton`` ends ``cycles to work on a Trek hybrid``:
  what an act is done on or with is what an exchange gives up.
- ``has a FIDE rating of 1850`` and ``Anya's FIDE rating is 1910`` are one slot.
- ``takes her cat Simba to …`` takes Simba, as ``now takes Simba to …`` does.
- ``has a PADI Rescue certification`` has no animal: the object's head says what is had.
- ``SRA number 661042``: a word before a label qualifies it and is no part of the code;
  once purged, neither that word nor the label recalls the person's other facts. A
  barcode and a callsign are labels, a plate may end in letters (``GF 447 KD``), and a
  code right after a Chinese label is one (``微信号zhaomin_88``). A label word before the
  label qualifies it too (``student`` of ``student ID``).
- ``Bluebell, Nora Quinn's narrowboat, has been sold`` is said of Nora Quinn's narrowboat.
- ``traded the Passat for …`` gives up ``a silver Volkswagen Passat``: a name is called
  by its last words.
- ``moved Pixel from Harbour Vets to …`` ends what Pixel was taken to at Harbour Vets.
"""

from __future__ import annotations

import pytest

import memory_es
from memory_es.text import TextInterface
from memory_es.text.interpreter import interpret
from tests.unit.text_support import current_texts, fresh_tenant, texts_after


@pytest.mark.parametrize(("held", "change", "kept"), [
    ("specialises in employment law", "now specialises in family law",
     "works on the night shift"),
    ("volunteers at the local library", "now volunteers at the university library",
     "volunteers at the animal shelter on Sundays"),
])
def test_a_change_of_modifier_keeps_the_kind_of_the_head(
        fresh_store: memory_es.MemoryStore, held: str, change: str, kept: str) -> None:
    setup = [f"Sofia Russo {held}.", f"Sofia Russo {kept}.", f"Sofia Russo's husband {held} too."]
    after = texts_after(fresh_store, setup, "remember", f"Sofia Russo {change}.")
    assert f"Sofia Russo {held}" not in after
    assert {f"Sofia Russo {kept}", f"Sofia Russo's husband {held} too"} <= after


def test_a_change_of_head_of_no_topic_is_another_kind(fresh_store: memory_es.MemoryStore) -> None:
    """A head with no topic is its own kind: a new project is no new shift."""
    setup = ["Ben Carter works on the night shift.", "Ben Carter lives in Leeds."]
    after = texts_after(fresh_store, setup, "remember",
                        "Ben Carter now works on the payments project.")
    assert "Ben Carter works on the night shift" in after


def test_the_route_of_a_commute_stands_beside_how_one_commutes(
        fresh_store: memory_es.MemoryStore) -> None:
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in ("Ben Carter cycles to work on a Trek hybrid.",
                 "Ben Carter commutes along the canal path."):
        ti.remember(tenant, text)
    assert current_texts(fresh_store, tenant) == {
        "Ben Carter cycles to work on a Trek hybrid", "Ben Carter commutes along the canal path"}
    ti.remember(tenant, "Ben Carter now commutes by train.")
    assert current_texts(fresh_store, tenant) == {
        "Ben Carter commutes along the canal path", "Ben Carter now commutes by train"}


def test_the_road_one_drives_along_stands_beside_what_one_drives(
        fresh_store: memory_es.MemoryStore) -> None:
    setup = ["Ben Carter drives a Volvo.", "Ben Carter drives along the coast road to work."]
    after = texts_after(fresh_store, setup, "remember", "Ben Carter now drives a Tesla.")
    assert after == {"Ben Carter drives along the coast road to work",
                     "Ben Carter now drives a Tesla"}


@pytest.mark.parametrize("exchange", ["replaced his Trek hybrid with a Brompton",
                                      "traded his Trek hybrid for a Brompton"])
def test_an_exchange_ends_what_an_act_was_done_on(fresh_store: memory_es.MemoryStore,
                                                  exchange: str) -> None:
    setup = ["Ben Carter cycles to work on a Trek hybrid.",
             "Ben Carter's partner cycles to work on a Trek hybrid too.",
             "Ben Carter works on the night shift."]
    after = texts_after(fresh_store, setup, "remember", f"Ben Carter {exchange}.")
    assert "Ben Carter cycles to work on a Trek hybrid" not in after
    assert {"Ben Carter's partner cycles to work on a Trek hybrid too",
            "Ben Carter works on the night shift"} <= after


@pytest.mark.parametrize(("had", "now"), [
    ("has a FIDE rating of 1850", "Anya Petrova's FIDE rating is now 1910"),
    ("has a credit score of 720", "Anya Petrova's credit score is now 745"),
])
def test_an_amount_had_and_an_amount_said_of_the_thing_are_one_slot(
        fresh_store: memory_es.MemoryStore, had: str, now: str) -> None:
    setup = [f"Anya Petrova {had}.", "Anya Petrova has a cup of tea every morning.",
             f"Anya Petrova's son {had} too."]
    after = texts_after(fresh_store, setup, "remember", now + ".")
    assert f"Anya Petrova {had}" not in after
    assert {"Anya Petrova has a cup of tea every morning", f"Anya Petrova's son {had} too",
            now} <= after


@pytest.mark.parametrize(("fact", "query", "related"), [
    ("Sofia Russo's SRA number is 661042.", "SRA number 661042",
     "Sofia Russo lives in Islington."),
    ("Anya Petrova's FIDE ID is 24117803.", "FIDE ID 24117803",
     "Anya Petrova has a FIDE rating of 1850."),
    ("Rory Doyle's fishing licence number is EA-7741902.", "fishing licence number EA-7741902",
     "Rory Doyle fishes for trout on the River Wye."),
    ("My parkrun barcode is A4471902.", "parkrun barcode A4471902",
     "I run 5k every Saturday at parkrun."),
    ("Marco Bianchi's licence plate is GF 447 KD.", "licence plate GF 447 KD",
     "Marco Bianchi leases a Peugeot 208."),
    ("Erik Lund's callsign is SM5XYZ.", "callsign SM5XYZ",
     "Erik Lund is a licensed radio amateur."),
    ("Chiamaka Okonjo's student ID is 10458813.", "student ID 10458813",
     "Chiamaka Okonjo's flatmate is a PhD student in Manchester."),
    ("Ines Moreau's account number is 7300-4418-92.", "account number 7300-4418-92",
     "Ines Moreau opened a savings account last year."),
    ("Aurelio Santangelo's Discord handle is aurelio_solders.", "aurelio_solders",
     "Aurelio Santangelo can handle a soldering iron."),
    ("闫若琳的手机号是139 5712 6048\u3002", "139 5712 6048", "闫若琳住在绍兴\u3002"),
    ("赵敏的微信号是zhaomin_88。", "微信号zhaomin_88", "赵敏住在南京。"),
])
def test_a_labelled_code_is_purged_whole_and_its_label_is_no_content(
        fresh_store: memory_es.MemoryStore, fact: str, query: str, related: str) -> None:
    """The purge erases the fact that carries the code, and afterwards the query
    recalls nothing: its words say which kind of identifier, not which fact. A plate
    whose last group is letters (``GF 447 KD``), a callsign, and a code right after a
    Chinese label (微信号, WeChat ID) are codes their labels name. A label word before the
    label qualifies it as any word does (``student`` of ``student ID``). A handle is a
    name's label as a username is (``Discord handle is aurelio_solders``), and a Chinese
    mobile number is a phone number written 3-4-4 (``139 5712 6048``), right after the
    Chinese label too."""
    tenant, ti = fresh_tenant(), TextInterface(fresh_store)
    for text in (fact, related):
        ti.remember(tenant, text)
    assert ti.purge_matching(tenant, query).receipts
    assert current_texts(fresh_store, tenant) == {related.rstrip(".\u3002")}
    assert ti.recall_texts(tenant, query) == []


def test_a_named_object_after_its_kind_is_the_name(fresh_store: memory_es.MemoryStore) -> None:
    """``takes her cat Simba to …`` takes Simba: told anew with the name alone, to another
    place, it replaces that act; the act with another animal, and a relative's, stay."""
    setup = ["Nadia Haddad takes her cat Simba to the Riverside Vet Clinic.",
             "Nadia Haddad takes her dog Rex to the Riverside Vet Clinic.",
             "Nadia Haddad's mother takes her dog to the Riverside Vet Clinic too."]
    after = texts_after(fresh_store, setup, "remember",
                        "Nadia Haddad now takes Simba to the Parkside Vet Clinic.")
    assert "Nadia Haddad takes her cat Simba to the Riverside Vet Clinic" not in after
    assert {"Nadia Haddad takes her dog Rex to the Riverside Vet Clinic",
            "Nadia Haddad's mother takes her dog to the Riverside Vet Clinic too"} <= after


def test_an_animal_word_that_qualifies_another_head_is_no_pet(
        fresh_store: memory_es.MemoryStore) -> None:
    """``has a PADI Rescue certification`` is a certification (a rescue is also an
    animal): told anew with another qualifier it replaces the one held, and the
    person's rescue dog stays."""
    setup = ["Lina Haddad has a PADI Advanced certification.",
             "Lina Haddad has a rescue dog called Sam."]
    after = texts_after(fresh_store, setup, "remember",
                        "Lina Haddad now has a PADI Rescue certification.")
    assert "Lina Haddad has a PADI Advanced certification" not in after
    assert "Lina Haddad has a rescue dog called Sam" in after


def test_an_animal_told_with_a_time_after_it_is_still_a_pet(
        fresh_store: memory_es.MemoryStore) -> None:
    """A time word after the animal is no head of the object: ``I have one cat now``
    tells the pets anew."""
    after = texts_after(fresh_store, ["I have two cats.", "I have a cat flap."], "remember",
                        "I have one cat now.")
    assert "I have two cats" not in after
    assert "I have a cat flap" in after



@pytest.mark.parametrize("owner", ["Aoife O'Riordan", "Nora Quinn", "Pieter van der Merwe"])
def test_a_named_thing_in_apposition_is_its_owners_whatever_the_name(
        fresh_store: memory_es.MemoryStore, owner: str) -> None:
    """``Pepperoni, Aoife O'Riordan's red Fiat Panda, has 190,000 kilometres on the
    clock`` is Aoife O'Riordan's fact about her car, whatever namespace her name reads in
    (``O'Riordan`` is a name, not a known person), so forgetting her Fiat Panda finds it
    and leaves her other facts."""
    car = f"Pepperoni, {owner}'s red Fiat Panda, has 190,000 kilometres on the clock"
    kept = {f"{owner} skates for the Leeside Rollers", f"{owner}'s flatmate drives a Fiat 500"}
    after = texts_after(fresh_store, [f"{t}." for t in (car, *kept)], "forget",
                        f"{owner}'s Fiat Panda")
    assert car not in after and kept <= after


_ENDS_THE_FIRST = [
    pytest.param(["Nora Quinn owns a narrowboat called Bluebell.", "Nora Quinn lives in Bath.",
                  "Nora Quinn's brother owns a narrowboat too."],
                 "Bluebell, Nora Quinn's narrowboat, has been sold.", id="named-possession"),
    pytest.param(["Jonas Berg drives a silver Volkswagen Passat.", "Jonas Berg lives in York.",
                  "Jonas Berg's wife drives a Volkswagen Golf.",
                  "Jonas Berg follows the New York Knicks."],
                 "Jonas Berg traded the Passat for a Tesla Model 3.", id="end-of-a-name"),
    pytest.param(["Marijke Brandt drives a green Land Rover Defender 110.",
                  "Marijke Brandt's husband drives a Land Rover too.",
                  "Marijke Brandt sells chutney at Leominster market."],
                 "Marijke Brandt traded the Defender for a Dacia Duster.",
                 id="end-of-a-name-before-its-model-number"),
    pytest.param(["Eilidh Ross manages the secondhand bookshop on St Cuthbert Street.",
                  "Eilidh Ross's sister works at the bookshop on St Cuthbert Street too.",
                  "Eilidh Ross sells prints at the St Cuthbert Street market."],
                 "Eilidh Ross handed the running of the St Cuthbert Street bookshop over to her "
                 "assistant.", id="act-of-a-name-handed-over"),
    pytest.param(["Anneliese Berg leads the 3rd Hexham Scout Troop.",
                  "Anneliese Berg's brother-in-law helps to lead the 3rd Hexham Scout Troop.",
                  "Anneliese Berg plays the Northumbrian smallpipes."],
                 "Anneliese Berg has handed the leadership of the 3rd Hexham Scout Troop over "
                 "to a younger volunteer.", id="agent-noun-act-of-a-name-handed-over"),
    pytest.param(["Fenella Reid teaches piano to adult beginners from her studio flat in "
                  "Morningside.", "Fenella Reid's sister teaches piano in Morningside too.",
                  "Fenella Reid plays bridge at a club in Morningside."],
                 "Since the spring, Fenella Reid has taught her adult piano beginners in a "
                 "church hall rather than from her Morningside flat.", id="rather-than-a-place"),
    pytest.param(["Omar Haddad takes warfarin every morning.",
                  "Omar Haddad is allergic to penicillin.",
                  "Omar Haddad's father takes warfarin too."],
                 "Omar Haddad now takes apixaban rather than warfarin.", id="rather-than-a-thing"),
    pytest.param(["Lorcan Byrne teaches a home-security class at Belfast Metropolitan College.",
                  "Lorcan Byrne, a master locksmith, runs KeyRight Locks from a lock-up on the "
                  "Antrim Road in Belfast.",
                  "Lorcan Byrne's nephew teaches at Belfast Metropolitan College too."],
                 "Lorcan Byrne no longer teaches at Belfast Metropolitan College.",
                 id="a-place-that-opens-a-name-is-another-thing"),
    pytest.param(["Aoife Byrne takes her cat Pixel to Harbour Vets.",
                  "Aoife Byrne's sister takes her cat to Harbour Vets too.",
                  "Aoife Byrne brushes Pixel every evening.", "Aoife Byrne lives in Galway."],
                 "Aoife Byrne moved Pixel from Harbour Vets to Hillside Animal Clinic.",
                 id="moved-from-a-place"),
    pytest.param(["Thandi Moko records her episodes on a Samson Q2U microphone.",
                  "Thandi Moko's co-host records on a Samson Q2U microphone too.",
                  "Thandi Moko takes bachata classes."],
                 "Thandi Moko replaced the Samson Q2U with an Electro-Voice RE20.",
                 id="kind-of-what-it-was-done-on"),
    pytest.param(["Ana Silva does Pilates at Core Studio on Mondays.",
                  "Ana Silva's sister does Pilates at Core Studio too.",
                  "Ana Silva runs with the Hyde Park Harriers."],
                 "Ana Silva has stopped going to Pilates at Core Studio.", id="going-to-a-name"),
    pytest.param(["Ana Silva also rings for Thursday practice at Holy Trinity, Blythburgh.",
                  "Ana Silva's sister does Pilates at Core Studio too.",
                  "Ana Silva runs with the Hyde Park Harriers."],
                 "Ana Silva has stopped going to Thursday practice at Holy Trinity, Blythburgh.",
                 id="going-to-a-name-no-verb-in-common"),
    pytest.param(["Tomas Kral brews a pale ale called Juniper Gold.",
                  "Tomas Kral brews a stout called Night Heron.",
                  "Tomas Kral's brother brews a pale ale called Juniper Gold too."],
                 "Juniper Gold is no longer brewed by Tomas Kral.", id="passive-with-agent"),
]


@pytest.mark.parametrize(("setup", "change"), _ENDS_THE_FIRST)
def test_a_change_ends_the_first_fact_and_no_other(
        fresh_store: memory_es.MemoryStore, setup: list[str], change: str) -> None:
    """Each change ends the first setup fact, and every other one, a relative's alike
    fact included, stays:

    - a name in apposition to someone's thing is that thing of theirs (``Bluebell, Nora
      Quinn's narrowboat, has been sold``);
    - a thing given up is called by the last words of its name (``the Passat`` of ``a
      silver Volkswagen Passat``);
    - what was moved from a place ends what took it there (``moved Pixel from Harbour
      Vets to …``);
    - what an act was done with or on is given up by its name and kind (``replaced the
      Samson Q2U`` ends ``records … on a Samson Q2U microphone``), and someone of hers who
      does it ``too`` is no thing of hers, whatever the noun (``co-host``);
    - going to a named place no more ends what was done there, whatever the verb;
    - an ending in the passive with its agent ends the agent's act of that verb
      (``is no longer brewed by Tomas Kral``)."""
    after = texts_after(fresh_store, setup, "remember", change)
    assert setup[0].rstrip(".") not in after
    assert {t.rstrip(".") for t in setup[1:]} <= after


def test_a_person_in_apposition_stays_the_subject() -> None:
    """``Mia, Tom's sister, lives in Oslo`` is Mia's: an apposition that names a person
    is no thing of the possessor's."""
    from memory_es.text.interpreter import RuleInterpreter
    [clause] = RuleInterpreter()("Mia, Tom's sister, lives in Oslo.").clauses
    assert clause.entity == "person:mia"


def test_a_move_between_places_never_reads_a_place_by_the_end_of_a_name(
        fresh_store: memory_es.MemoryStore) -> None:
    """``moved from York to Leeds`` ends ``lives in York`` and leaves ``visits New
    York``."""
    setup = ["Jonas Berg lives in York.", "Jonas Berg visits New York every spring."]
    after = texts_after(fresh_store, setup, "remember", "Jonas Berg moved from York to Leeds.")
    assert after >= {"Jonas Berg visits New York every spring"}
    assert "Jonas Berg lives in York" not in after


def test_a_word_inside_another_name_is_no_word_in_common(
        fresh_store: memory_es.MemoryStore) -> None:
    """``used to be a signalman on the North Yorkshire Moors Railway`` leaves ``is treasurer
    of the Pickering Model Railway Circle``: ``Railway`` is in both names, which name two
    things. An ending of the very name still ends its fact, and a name that holds the
    other's words is the same thing (``left the Leeds Rowing Club`` ends ``is a member of
    the Leeds Rowing Club``, never ``supports Leeds United``)."""
    setup = ["Cuthbert Ellis is treasurer of the Pickering Model Railway Circle.",
             "Cuthbert Ellis volunteers at the North Yorkshire Moors Railway."]
    after = texts_after(
        fresh_store, setup, "remember",
        "Cuthbert Ellis used to be a signalman on the North Yorkshire Moors Railway.")
    assert {t.rstrip(".") for t in setup} <= after
    after = texts_after(fresh_store, setup, "remember",
                        "Cuthbert Ellis no longer volunteers at the North Yorkshire Moors Railway.")
    assert "Cuthbert Ellis is treasurer of the Pickering Model Railway Circle" in after
    assert "Cuthbert Ellis volunteers at the North Yorkshire Moors Railway" not in after
    setup = ["Omar Reid is a member of the Leeds Rowing Club.", "Omar Reid supports Leeds United."]
    after = texts_after(fresh_store, setup, "remember", "Omar Reid left the Leeds Rowing Club.")
    assert "Omar Reid is a member of the Leeds Rowing Club" not in after
    assert "Omar Reid supports Leeds United" in after


@pytest.mark.parametrize(("often", "every"), [("daily", "every day"), ("weekly", "every week"),
                                              ("nightly", "every night")])
def test_an_adjective_of_how_often_names_the_fact_of_that_time(
        fresh_store: memory_es.MemoryStore, often: str, every: str) -> None:
    """``my daily cetirizine`` is the cetirizine taken ``every day``: an adjective of how
    often made of a time noun (``-ly``) meets that noun. Another thing of the same time,
    and the same thing at another, stay."""
    meant = f"I take a cetirizine tablet {every} because I'm allergic to cats"
    kept = {f"I take a vitamin D tablet {every}",
            "I take cetirizine before a long walk in the hay fever season"}
    after = texts_after(fresh_store, [f"{t}." for t in (meant, *kept)], "release",
                        f"my {often} cetirizine")
    assert meant not in after and kept <= after


@pytest.mark.parametrize(("asked", "held"), [("conservation", "a paper conservator"),
                                             ("translation", "a court translator"),
                                             ("inspector", "a food safety inspection officer")])
def test_an_action_noun_and_its_agent_noun_name_one_job(
        fresh_store: memory_es.MemoryStore, asked: str, held: str) -> None:
    """``Inês da Costa's conservation job`` is the one she does as ``a paper conservator``,
    not her other job: a noun in ``-ion`` and one in ``-or`` made of one Latin participle
    (``conservat``) name the same work."""
    job = f"Inês da Costa works three days a week as {held} for Bristol Archives"
    kept = "Inês da Costa works weekends as a barista at the Arnolfini café"
    after = texts_after(fresh_store, [f"{job}.", f"{kept}."], "revise",
                        f"Inês da Costa's {asked} job",
                        f"Inês da Costa now works full-time as {held} for Bristol Museums.")
    assert job not in after and kept in after


def test_an_object_between_a_phrasal_verb_and_its_particle_is_one_noun_phrase() -> None:
    """``handed the St Cuthbert Street bookshop over``: a verb of ending and its particle
    around a long object still end it; a preposition between them starts another phrase,
    so ``handed the forms to her boss over lunch`` ends nothing."""
    assert interpret("Eilidh Ross handed the St Cuthbert Street bookshop over to her "
                     "assistant.").clauses[0].op == "cease"
    assert interpret("Eilidh Ross handed the forms to her boss over lunch.").clauses[0].op \
        != "cease"


def test_where_an_ended_thing_was_names_no_other_fact(
        fresh_store: memory_es.MemoryStore) -> None:
    """``no longer needs dialysis at home``: what ended is the dialysis; a fact that shares
    only where it was (``works from home``) is another thing and stays. A thing named by a
    topic's own noun is still told by where it was (``quit his job at Acme``)."""
    work = "Rajinder Bhogal works from home as a payroll officer for a bus company"
    after = texts_after(fresh_store, [f"{work}.", "Rajinder Bhogal plays the tabla."],
                        "remember", "Rajinder Bhogal no longer needs dialysis at home.")
    assert work in after
    job = texts_after(fresh_store, ["Tom Berg works at Acme.", "Tom Berg lives in Leeds."],
                      "remember", "Tom Berg quit his job at Acme.")
    assert "Tom Berg works at Acme" not in job and "Tom Berg lives in Leeds" in job
