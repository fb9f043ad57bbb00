"""The held-out suite's cases, built by construction (gold answers follow from the template).

Written before the text rules were changed, in domains and wordings the rules were not
written for: medical records, finance, on-call rotations, pets, vehicles, subscriptions,
plus German and Chinese. Every case puts people with several facts in the store; the
facts a case does not ask to change are listed in ``survivors`` and checked after the
mutations (a missing survivor is a fact destroyed without being asked).

``python -m benchmarks.heldout_cases`` rewrites ``benchmarks/heldout_cases.json``.

Case fields: ``id``, ``family``, ``domain``, ``setup`` (texts to ``remember`` in order),
``mutations`` (``["revise", old, new]``, ``["release", q]``, ``["forget", q]``,
``["purge", q]`` or ``["purge", q, "confirm"]``), ``query``, ``must_contain``,
``must_not_contain`` (scored like ForgetEval-Adv v0.7: k = 5, casefold, every
forbidden string also probed as a query), ``survivors`` (setup texts that must still be
current afterwards), and optionally ``current_has`` / ``current_lacks`` (substrings
that some / no current fact's text must contain afterwards).
"""

# ruff: noqa: E501  (case tables: one case per line reads better than wrapped strings)
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "heldout_cases.json"

Case = dict[str, Any]

# Each person: (name, pronoun possessive, three background facts that must survive).
PEOPLE: list[tuple[str, str, list[str]]] = [
    ("Priya Raman", "her", ["Priya Raman keeps a sourdough starter called Bubbles.",
                            "Priya Raman plays the cello in a community orchestra.",
                            "Priya Raman is allergic to latex."]),
    ("Tomasz Wierzbicki", "his", ["Tomasz Wierzbicki grows chillies on his balcony.",
                                  "Tomasz Wierzbicki speaks Polish and Czech.",
                                  "Tomasz Wierzbicki sings in a barbershop quartet."]),
    ("Lena Okafor", "her", ["Lena Okafor rows on the river every Sunday.",
                            "Lena Okafor collects enamel pins.",
                            "Lena Okafor is lactose intolerant."]),
    ("Mateo Ferreira", "his", ["Mateo Ferreira restores old radios.",
                               "Mateo Ferreira is learning Icelandic.",
                               "Mateo Ferreira volunteers at a food bank."]),
    ("Hanna Lindqvist", "her", ["Hanna Lindqvist knits socks for charity.",
                                "Hanna Lindqvist has a fear of heights.",
                                "Hanna Lindqvist brews kombucha at home."]),
    ("Omar Haddad", "his", ["Omar Haddad builds model ships.",
                            "Omar Haddad prefers aisle seats.",
                            "Omar Haddad runs a chess club on Thursdays."]),
    ("Ines Moreau", "her", ["Ines Moreau paints watercolour landscapes.",
                            "Ines Moreau takes the tram to the office.",
                            "Ines Moreau keeps bees on the roof."]),
    ("Kwame Asante", "his", ["Kwame Asante referees youth football.",
                             "Kwame Asante bakes rye bread on Saturdays.",
                             "Kwame Asante plays the trumpet."]),
    ("Sofia Bianchi", "her", ["Sofia Bianchi climbs at the bouldering gym.",
                              "Sofia Bianchi reads Italian crime novels.",
                              "Sofia Bianchi grows tomatoes in an allotment."]),
    ("Dev Malhotra", "his", ["Dev Malhotra flies kites at the beach.",
                             "Dev Malhotra cooks a curry every Friday.",
                             "Dev Malhotra repairs bicycles for neighbours."]),
    ("Yuki Arai", "her", ["Yuki Arai practises calligraphy.",
                          "Yuki Arai swims before work.",
                          "Yuki Arai keeps a bonsai juniper."]),
    ("Rhys Pritchard", "his", ["Rhys Pritchard brews cider in the autumn.",
                               "Rhys Pritchard plays darts in a pub league.",
                               "Rhys Pritchard photographs lighthouses."]),
]


def _background(i: int) -> tuple[str, str, list[str]]:
    return PEOPLE[i % len(PEOPLE)]


def _first(name: str) -> str:
    return name.split(maxsplit=1)[0]


def _case(cases: list[Case], family: str, domain: str, **fields: Any) -> None:
    n = sum(1 for c in cases if c["family"] == family)
    cases.append({"id": f"{family}__{n:02d}", "family": family, "domain": domain,
                  "must_contain": [], "must_not_contain": [], "survivors": [], **fields})


# --- families ---------------------------------------------------------------------------------

# (label, record number, lookalike code fact for another person)
RECORDS = [
    ("medical", "MRN", "MRN 4471-2209", "{o}'s HbA1c result was 6.1 percent."),
    ("medical", "patient record", "patient record PR-88213", "{o} takes vitamin B12 every morning."),
    ("finance", "account number", "account number 7300-4418-92", "{o} keeps an A4 binder of receipts."),
    ("finance", "invoice", "invoice INV-55012", "{o} bought a 4K monitor for the home office."),
    ("vehicles", "licence plate", "licence plate KX19 ABD", "{o}'s car has a CO2 rating of 119 g/km."),
    ("subscriptions", "member number", "member number 00418833", "{o} listens to MP3 audiobooks."),
    ("finance", "policy number", "policy number POL-2024-7781", "{o} has an A1 rating on the squash ladder."),
    ("medical", "claim", "claim CLM-30917", "{o} uses SPF50 sunscreen."),
    ("pets", "microchip number", "microchip number 985112004417823", "{o}'s cat eats K9 brand biscuits."),
    ("vehicles", "VIN", "VIN WVWZZZ1JZXW000001", "{o} drives a Mazda CX5."),
    ("subscriptions", "customer id", "customer id CUS-90442", "{o} streams 1080p video on the train."),
    ("on-call", "ticket", "ticket OPS-7721", "{o} keeps the status page on a 24x7 screen."),
]


def record_purges(cases: list[Case]) -> None:
    """Purge one person's labelled record number; a lookalike code elsewhere survives."""
    for i, (domain, label, record, lookalike) in enumerate(RECORDS):
        name, _pos, bg = _background(i)
        other, _opos, obg = _background(i + 5)
        rec_fact = f"The {record} belongs to {name}."
        code_fact = lookalike.format(o=other)
        number = record.split()[-1]
        _case(cases, "record_purge", domain,
              setup=[*bg[:2], rec_fact, code_fact, obg[0]],
              mutations=[["purge", record]],
              query=f"{_first(name)} {label}",
              must_contain=[bg[0].split()[-1].rstrip(".")],
              must_not_contain=[number],
              survivors=[*bg[:2], code_fact, obg[0]])


def name_mention_purges(cases: list[Case]) -> None:
    """Purging a person never shreds another person's fact that only mentions the name."""
    mentions = [
        ("on-call", "{o} hands the payments pager to {n} on Fridays."),
        ("medical", "{o}'s emergency contact is {n}."),
        ("pets", "{o} leaves the dog with {n} during holidays."),
        ("finance", "{o} shares a joint savings account with {n}."),
        ("vehicles", "{o} borrows the van from {n} on weekends."),
        ("subscriptions", "{o} splits the streaming bill with {n}."),
        ("on-call", "{o} is the backup for {n} on the database rota."),
        ("medical", "{o} drives {n} to physiotherapy."),
        ("pets", "{o} walks the greyhound owned by {n}."),
        ("finance", "{o} is the accountant of {n}."),
    ]
    for i, (domain, template) in enumerate(mentions):
        name, _pos, bg = _background(i + 1)
        other, _opos, obg = _background(i + 7)
        mention = template.format(o=other, n=name)
        _case(cases, "name_mention_purge", domain,
              setup=[*bg, mention, obg[1]],
              mutations=[["purge", f"everything about {name}"]],
              query=f"{_first(other)}",
              must_contain=[obg[1].split()[-1].rstrip(".")],
              must_not_contain=[bg[0].split()[-1].rstrip("."), bg[1].split()[-1].rstrip(".")],
              survivors=[mention, obg[1]])


def specific_no_match(cases: list[Case]) -> None:
    """A person plus a thing the person does not have: nothing of the person changes."""
    things = [
        ("release", "subscriptions", "gym membership"),
        ("release", "medical", "dentist appointment"),
        ("revise", "vehicles", "parking permit"),
        ("release", "pets", "hamster"),
        ("revise", "finance", "mortgage broker"),
        ("release", "on-call", "pager rotation"),
        ("revise", "medical", "blood pressure medication"),
        ("release", "finance", "credit card limit"),
        ("revise", "subscriptions", "newspaper subscription"),
        ("release", "vehicles", "motorbike insurance"),
        ("revise", "pets", "cat's vaccination"),
        ("release", "on-call", "weekend shift"),
    ]
    for i, (op, domain, thing) in enumerate(things):
        name, _pos, bg = _background(i + 2)
        first = _first(name)
        if op == "release":
            mutation = ["release", f"{first}'s {thing}"]
            survivors = list(bg)
        else:
            mutation = ["revise", f"{first}'s {thing}", f"{name}'s {thing} was renewed in May."]
            survivors = list(bg)
        _case(cases, "specific_no_match", domain, setup=list(bg), mutations=[mutation],
              query=name, must_contain=[bg[0].split()[-1].rstrip("."),
                                        bg[2].split()[-1].rstrip(".")],
              survivors=survivors)


def specific_match(cases: list[Case]) -> None:
    """A person plus a thing the person has: that fact changes, the others survive."""
    items = [
        ("subscriptions", "{n} pays for a Spotify Family plan.", "release",
         "{f}'s Spotify plan", "Spotify"),
        ("medical", "{n} has a physiotherapy session every Tuesday.", "release",
         "{f}'s physiotherapy session", "physiotherapy"),
        ("on-call", "{n} is on call for the billing service this week.", "release",
         "{f}'s on-call duty for billing", "billing service"),
        ("pets", "{n} owns a tabby cat named Marmalade.", "release", "{f}'s cat", "Marmalade"),
        ("vehicles", "{n} leases a grey Skoda Octavia.", "release", "{f}'s Skoda lease",
         "Octavia"),
        ("finance", "{n} sends 200 euros to a pension fund every month.", "release",
         "{f}'s pension fund transfer", "pension fund"),
        ("subscriptions", "{n} subscribes to The Economist in print.", "release",
         "{f}'s Economist subscription", "Economist"),
        ("medical", "{n} takes 10 mg of lisinopril every morning.", "release",
         "{f}'s lisinopril", "lisinopril"),
        ("on-call", "{n} covers the search cluster pager on weekends.", "release",
         "{f}'s search pager", "search cluster"),
        ("pets", "{n} has a parrot called Captain.", "release", "{f}'s parrot", "Captain"),
    ]
    for i, (domain, fact, op, query, gone) in enumerate(items):
        name, _pos, bg = _background(i + 3)
        first = _first(name)
        f = fact.format(n=name)
        _case(cases, "specific_match", domain, setup=[bg[0], f, bg[1], bg[2]],
              mutations=[[op, query.format(f=first)]],
              query=query.format(f=first), must_contain=[],
              must_not_contain=[gone], survivors=list(bg))


def compound_clauses(cases: list[Case]) -> None:
    """Clauses with their own subject are separate facts: revising one keeps the other."""
    items = [
        ("vehicles", "{n}'s car is a Volvo, and {p} bike is a Brompton.",
         "{f}'s car", "{n}'s car is a Tesla now.", "Volvo", "Brompton", "Tesla"),
        ("pets", "{n}'s dog is a beagle and {p} cat is a Siamese.",
         "{f}'s dog", "{n}'s dog is a whippet now.", "beagle", "Siamese", "whippet"),
        ("subscriptions", "{n}'s phone plan is with Vodafone, and {p} broadband is with BT.",
         "{f}'s phone plan", "{n}'s phone plan is with Three now.", "Vodafone", "BT", "Three"),
        ("finance", "{n}'s bank is Monzo and {p} broker is Degiro.",
         "{f}'s bank", "{n}'s bank is Starling now.", "Monzo", "Degiro", "Starling"),
        ("medical", "{n}'s GP is Dr Patel, and {p} dentist is Dr Novak.",
         "{f}'s GP", "{n}'s GP is Dr Osei now.", "Patel", "Novak", "Osei"),
        ("on-call", "{n}'s primary rota is payments, and {p} secondary rota is search.",
         "{f}'s primary rota", "{n}'s primary rota is identity now.", "payments", "search",
         "identity"),
        ("vehicles", "{n}'s van is a Ford Transit, and {p} scooter is a Vespa.",
         "{f}'s van", "{n}'s van is a Renault Trafic now.", "Transit", "Vespa", "Trafic"),
        ("pets", "{n}'s horse is called Juniper and {p} rabbit is called Clover.",
         "{f}'s horse", "{n}'s horse is called Saffron now.", "Juniper", "Clover", "Saffron"),
        ("subscriptions", "{n}'s gym is PureGym, and {p} streaming service is Netflix.",
         "{f}'s gym", "{n}'s gym is the Better leisure centre now.", "PureGym", "Netflix",
         "Better leisure"),
        ("finance", "{n}'s salary is paid into Barclays, and {p} savings are with Nationwide.",
         "{f}'s salary account", "{n}'s salary is paid into HSBC now.", "Barclays",
         "Nationwide", "HSBC"),
    ]
    for i, (domain, compound, old, new, gone, kept, added) in enumerate(items):
        name, pos, bg = _background(i + 4)
        first = _first(name)
        _case(cases, "compound_clauses", domain,
              setup=[compound.format(n=name, p=pos), bg[0]],
              mutations=[["revise", old.format(f=first), new.format(n=name)]],
              query=f"{first} {old.format(f=first).split(chr(39) + 's ', 1)[1]}",
              must_contain=[added], must_not_contain=[gone],
              survivors=[bg[0]], current_has=[kept])


# (native form, Latin query form, sibling Latin name, how the alias is introduced)
ALIASES = [
    ("Дмитрий Соколов", "Dmitry Sokolov", "Dmitry Sobolev", "translit"),
    ("Юлия Кузнецова", "Yulia Kuznetsova", "Yulia Kuzmina", "parenthesis"),
    ("Γιώργος Παπαδόπουλος", "Giorgos Papadopoulos", "Giorgos Papadakis", "translit"),
    ("Ελένη Νικολάου", "Eleni Nikolaou", "Eleni Nikolaidou", "also written"),
    ("王芳", "Wang Fang", "Wang Fei", "translit"),
    ("李娜", "Li Na", "Li Ning", "known as"),
    ("张伟", "Zhāng Wěi", "Zhang Wen", "translit"),
    ("佐藤花子", "Sato Hanako", "Sato Haruka", "translit"),
    ("たなか ゆうき", "Tanaka Yuki", "Tanaka Yumi", "apposition"),
    ("प्रिया शर्मा", "Priya Sharma", "Priya Shah", "translit"),
    ("अर्जुन", "Arjun", "Arvind", "parenthesis"),
    ("Сергей Иванов", "Sergei Ivanov", "Sergei Ivashov", "known as"),
]
ALIAS_DOMAINS = ["medical", "finance", "subscriptions", "pets", "vehicles", "on-call"]
ALIAS_FACTS = [
    ("medical", "is registered at the Northgate clinic", "Northgate"),
    ("finance", "has an overdraft of 500 pounds", "overdraft"),
    ("subscriptions", "renewed the cloud storage plan", "cloud storage"),
    ("pets", "fosters two greyhounds", "greyhounds"),
    ("vehicles", "parks a blue hatchback behind the depot", "hatchback"),
    ("on-call", "carries the network pager on Mondays", "network pager"),
]


def alias_forgets(cases: list[Case]) -> None:
    """A name written in another script, with or without an explicit alias: forgetting the
    Latin form forgets both; a sibling with a similar Latin name survives."""
    for i, (native, latin, sibling, form) in enumerate(ALIASES):
        domain, fact_a, word_a = ALIAS_FACTS[i % len(ALIAS_FACTS)]
        _d2, fact_b, word_b = ALIAS_FACTS[(i + 1) % len(ALIAS_FACTS)]
        _d3, fact_s, word_s = ALIAS_FACTS[(i + 2) % len(ALIAS_FACTS)]
        if form == "parenthesis":
            first = f"{native} ({latin}) {fact_a}."
        elif form == "also written":
            first = f"{native}, also written {latin}, {fact_a}."
        elif form == "known as":
            first = f"{native}, known as {latin}, {fact_a}."
        elif form == "apposition":
            first = f"{native}, or {latin}, {fact_a}."
        else:
            first = f"{native} {fact_a}."
        second = f"{latin} {fact_b}."
        sib = f"{sibling} {fact_s}."
        _case(cases, "alias_forget", domain,
              setup=[first, sib, second],
              mutations=[["forget", f"forget everything about {latin}"]],
              query=latin, must_contain=[word_s], must_not_contain=[word_a, word_b],
              survivors=[sib])


PHONES = [
    ("on-call", "+44 20 7946 0958", "020 7946 0958", "+44 20 7946 0959"),
    ("medical", "+44 (0)161 496 0734", "0161 496 0734", "0161 496 0743"),
    ("finance", "+49 30 90182736", "030 90182736", "+49 30 90182737"),
    ("subscriptions", "+1 (415) 555-0142", "415.555.0142", "415-555-0124"),
    ("pets", "0044 113 496 0219", "0113 496 0219", "0113 496 0291"),
    ("vehicles", "+33 1 42 68 53 00", "01 42 68 53 00", "01 42 68 53 01"),
    ("on-call", "020 3123 4567", "+44 20 3123 4567", "+44 20 3123 4568"),
    ("medical", "+61 2 9374 4000", "(02) 9374 4000", "(02) 9374 4001"),
    ("finance", "+1 212 555 0187", "1-212-555-0187", "212-555-0178"),
    ("subscriptions", "+46 8 123 456 78", "08-123 456 78", "08-123 456 79"),
]
PHONE_LABELS = {"on-call": "on-call phone", "medical": "clinic phone",
                "finance": "bank callback number", "subscriptions": "billing hotline",
                "pets": "vet's phone", "vehicles": "garage phone"}


def phone_purges(cases: list[Case]) -> None:
    """A phone number written with or without country code and trunk zero is one number;
    a number one digit away survives."""
    for i, (domain, written, asked, neighbour) in enumerate(PHONES):
        name, _pos, bg = _background(i + 6)
        other, _opos, obg = _background(i + 9)
        label = PHONE_LABELS[domain]
        fact = f"{name}'s {label} is {written}."
        near = f"{other}'s {label} is {neighbour}."
        _case(cases, "phone_purge", domain, setup=[fact, near, bg[0], obg[0]],
              mutations=[["purge", asked]], query=f"{label} number",
              must_contain=[neighbour.split()[-1]], must_not_contain=[written],
              survivors=[near, bg[0], obg[0]])


EMAILS = [
    ("finance", "mia dot lund at nordhavn dot io", "mia.lund@nordhavn.io",
     "mia.lunde@nordhavn.io"),
    ("medical", "j.okoro [at] stmarys [dot] org", "j.okoro@stmarys.org", "j.okoro@stmary.org"),
    ("subscriptions", "billing (at) fernbrook (dot) com", "billing@fernbrook.com",
     "billings@fernbrook.com"),
    ("on-call", "oncall dot payments at corp dot example", "oncall.payments@corp.example",
     "oncall.payment@corp.example"),
    ("pets", "vet dot desk at pawsome dot vet", "vet.desk@pawsome.vet",
     "vet.desk@pawsome.pet"),
    ("vehicles", "r.singh AT fleetco DOT co DOT uk", "r.singh@fleetco.co.uk",
     "r.singh@fleetco.com"),
    ("finance", "ANNA.KOWALSKA@BANKPOL.PL", "anna.kowalska@bankpol.pl",
     "anna.kowalski@bankpol.pl"),
    ("medical", "t o m @ clinic.example", "tom@clinic.example", "tim@clinic.example"),
]


def email_purges(cases: list[Case]) -> None:
    """An obfuscated or differently cased address is the same address; a near one survives."""
    for i, (domain, written, asked, neighbour) in enumerate(EMAILS):
        name, _pos, bg = _background(i + 8)
        other, _opos, obg = _background(i + 2)
        fact = f"Contact e-mail for {name}: {written}"
        near = f"Contact e-mail for {other}: {neighbour}"
        _case(cases, "email_purge", domain, setup=[fact, near, bg[1], obg[1]],
              mutations=[["purge", asked]], query="contact e-mail",
              must_contain=[neighbour], must_not_contain=[asked, written],
              survivors=[near, bg[1], obg[1]])


SUPERSESSIONS = [
    ("vehicles", "{n} drives a 2015 Skoda Fabia.", "{f}'s car",
     "{n} now drives a Kia EV6.", "Fabia", "EV6"),
    ("pets", "{n}'s dog is called Biscuit.", "{f}'s dog's name",
     "{n}'s dog is called Pretzel now.", "Biscuit", "Pretzel"),
    ("subscriptions", "{n} is on the Premium plan of the music service.",
     "{f}'s music plan", "{n} switched to the Student plan of the music service.",
     "Premium", "Student"),
    ("on-call", "{n} is the incident commander for the storage team.",
     "{f}'s incident commander role",
     "{n} is now the incident commander for the networking team.", "storage", "networking"),
    ("medical", "{n} is prescribed 50 mg of sertraline.", "{f}'s sertraline dose",
     "{n}'s sertraline dose is now 100 mg.", "50 mg", "100 mg"),
    ("finance", "{n} banks with Rabobank.", "{f}'s bank", "{n} moved to ING for banking.",
     "Rabobank", "ING"),
    ("vehicles", "{n} commutes by motorbike.", "{f}'s commute",
     "{n} now commutes by electric bike.", "motorbike", "electric bike"),
    ("pets", "{n} feeds the cat dry food.", "{f}'s cat food",
     "{n} switched the cat to wet food.", "dry food", "wet food"),
    ("subscriptions", "{n}'s newspaper subscription is the Guardian.",
     "{f}'s newspaper subscription", "{n}'s newspaper subscription is the FT now.",
     "Guardian", "FT"),
    ("on-call", "{n} is on the Tuesday night rota.", "{f}'s rota night",
     "{n} moved to the Thursday night rota.", "Tuesday", "Thursday"),
    ("medical", "{n}'s physiotherapist is Marta.", "{f}'s physiotherapist",
     "{n}'s physiotherapist is Joel now.", "Marta", "Joel"),
    ("finance", "{n}'s mortgage rate is 4.1 percent.", "{f}'s mortgage rate",
     "{n}'s mortgage rate is now 3.6 percent.", "4.1 percent", "3.6 percent"),
]


def supersessions(cases: list[Case]) -> None:
    """A revision in a new domain replaces the old value; a sibling with the same kind of
    fact and the person's other facts survive."""
    for i, (domain, old, query, new, _gone, added) in enumerate(SUPERSESSIONS):
        name, _pos, bg = _background(i)
        sib, _spos, _sbg = _background(i + 6)
        first = _first(name)
        sibling_fact = old.format(n=sib)
        _case(cases, "supersession", domain, setup=[old.format(n=name), bg[0], sibling_fact],
              mutations=[["revise", query.format(f=first), new.format(n=name)]],
              query=query.format(f=first).replace("'s", ""),
              must_contain=[added],
              survivors=[bg[0], sibling_fact], current_lacks=[old.format(n=name)])


LANGUAGES = [
    ("de", ["Anna wohnt in Köln.", "Anna spielt Geige."], ["remember", "Anna wohnt jetzt in Leipzig."],
     "Anna wohnt", ["Leipzig"], ["Köln"], ["Anna spielt Geige."]),
    ("de", ["Jonas hat ein Abo für das Fitnessstudio.", "Jonas fährt einen Golf.",
            "Lea hat ein Abo für das Fitnessstudio."],
     ["remember", "Jonas hat das Fitnessstudio gekündigt."], "Jonas Fitnessstudio",
     [], ["Jonas hat ein Abo"], ["Jonas fährt einen Golf.", "Lea hat ein Abo für das Fitnessstudio."]),
    ("de", ["Mehmet wohnt in Bremen.", "Mehmet hat einen Hund.", "Mira wohnt in Bremen."],
     ["forget", "Vergiss alles über Mehmet."], "Bremen", ["Mira"], ["Mehmet"],
     ["Mira wohnt in Bremen."]),
    ("zh", ["王芳住在上海。", "王芳养了一只猫。"], ["remember", "王芳现在住在杭州。"], "王芳住在哪里",
     ["杭州"], ["上海"], ["王芳养了一只猫。"]),
    ("zh", ["李娜订阅了健身房会员。", "李娜喜欢游泳。", "陈杰订阅了健身房会员。"],
     ["remember", "李娜取消了健身房会员。"], "李娜 健身房", [], ["李娜订阅"],
     ["李娜喜欢游泳。", "陈杰订阅了健身房会员。"]),
    ("zh", ["刘洋住在北京。", "刘洋有一辆自行车。", "赵敏住在北京。"],
     ["forget", "忘记关于刘洋的一切"], "北京", ["赵敏"], ["刘洋"], ["赵敏住在北京。"]),
    ("de", ["Frau Keller wohnt in Graz.", "Frau Keller hat eine Katze."],
     ["remember", "Frau Keller wohnt jetzt in Linz."], "Keller wohnt", ["Linz"], ["Graz"],
     ["Frau Keller hat eine Katze."]),
    ("zh", ["黄磊住在广州。", "黄磊会说粤语。"], ["remember", "黄磊现在住在深圳。"], "黄磊住在哪里",
     ["深圳"], ["广州"], ["黄磊会说粤语。"]),
]


def languages(cases: list[Case]) -> None:
    """German and Chinese for "X lives in Y now", "forget everything about X" and
    "X cancelled Y"."""
    for lang, setup, op, query, must, must_not, survivors in LANGUAGES:
        _case(cases, f"language_{lang}", "language", setup=setup, mutations=[op], query=query,
              must_contain=must, must_not_contain=must_not, survivors=survivors,
              current_lacks=must_not)


def build() -> list[Case]:
    cases: list[Case] = []
    for family in (record_purges, name_mention_purges, specific_no_match, specific_match,
                   compound_clauses, alias_forgets, phone_purges, email_purges,
                   supersessions, languages):
        family(cases)
    return cases


def main() -> int:
    cases = build()
    DATA.write_text(json.dumps(cases, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(cases)} cases written to {DATA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
