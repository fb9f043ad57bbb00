"""Canonical identifiers in text: normalisation, disguises, and exact (never prefix) matching."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import memory_es
from memory_es.domain.validation import is_canonical_entity
from memory_es.text import TextInterface
from memory_es.text.identifiers import (
    IDENTIFIER_LABELS,
    NUMBER_WORDS,
    Identifier,
    find_identifiers,
    matches,
    phones_match,
    query_identifiers,
)
from memory_es.text.normalize import (
    ascii_fold,
    deobfuscate,
    fold_confusables,
    name_keys,
    transliterate,
)


def canon(text: str) -> list[tuple[str, str]]:
    return [(i.kind, i.canonical) for i in find_identifiers(text)]


def one(text: str) -> Identifier:
    found = find_identifiers(text)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(("text", "expected"), [
    ("Write to Nora.Quist@Example.ORG today", ("email", "nora.quist@example.org")),
    ('Owner "nora.quist"@example.org', ("email", "nora.quist@example.org")),
    ("Site https://www.Example.org/Docs/ is live", ("url", "example.org/docs")),
    ("Mirror example.org/docs (no scheme)", ("url", "example.org/docs")),
    ("Host 10.001.020.003 answers", ("ip", "10.1.20.3")),
    ("Open 10.4.0.12:8080 in a browser", ("ip", "10.4.0.12")),
    ("Call +49 30 1234 5678 please", ("phone", "+493012345678")),
    ("Call (212) 555-0143 please", ("phone", "2125550143")),
    ("Key QZ81-77RT-0PLM in vault", ("code", "qz8177rt0plm")),
    ("Key QZ81.77RT.0PLM in vault", ("code", "qz8177rt0plm")),
    ("Due 03/14/2027 at noon", ("date", "2027-03-14")),
    ("Standup at 4:45 PM daily", ("time", "16:45")),
    ("Config at D:\\\\deploy\\\\app.cfg", ("path", "d:/deploy/app.cfg")),
    ("Ping @Ops_Lead when done", ("handle", "ops_lead")),
])
def test_identifiers_are_found_and_normalised(text: str, expected: tuple[str, str]) -> None:
    """Each identifier kind is found and reduced to the form compared for identity."""
    assert expected in canon(text)


def test_written_forms_of_one_card_number_share_a_canonical_form() -> None:
    """Grouped by dashes, by spaces or not at all, a card number is one identifier."""
    forms = ["9999-8888-7777-6666", "9999 8888 7777 6666", "9999888877776666"]
    assert {one(f"card {f} on file").canonical for f in forms} == {"9999888877776666"}


def test_uuid_with_and_without_dashes_is_one_identifier() -> None:
    """The compact form of a UUID has the same canonical form as the dashed one."""
    a = one("token 123e4567-e89b-12d3-a456-426614174000 issued")
    b = one("token 123e4567e89b12d3a456426614174000 issued")
    assert a.canonical == b.canonical


def test_an_address_with_any_scheme_is_a_url() -> None:
    """A scheme (RFC 3986) says the form is an address, whatever the host: a bucket
    (``s3://reef-data``), an intranet host (``http://wiki/``); the web's schemes are
    dropped (``https://x.io`` is ``x.io``), the others kept (no web page)."""
    assert canon("stored at s3://Reef-Data/sato.") == [("url", "s3://reef-data/sato")]
    assert canon("see gs://bucket-1/runs/a.csv") == [("url", "gs://bucket-1/runs/a.csv")]
    assert canon("at http://intranet/wiki") == [("url", "intranet/wiki")]
    assert canon("https:// alone") == []
    assert canon("a ratio of 3://4") == []


def test_obfuscated_addresses_are_restored() -> None:
    """``[at]``/``(dot)`` disguises and spaced letters are undone before extraction."""
    assert deobfuscate("mail zed [at] corp [dot] example") == "mail zed@corp.example"
    assert ("email", "zed@corp.example") in canon("reach zed (at) corp (dot) example now")
    assert ("email", "kim@corp.io") in canon("it is k i m @ corp.io")


def test_a_mailto_link_is_its_address() -> None:
    """``mailto:`` is the link's scheme, no word of the address: the query asks for the
    address alone, so after its purge it recalls nothing."""
    assert deobfuscate("write to MAILTO:kim.lee@example.com") == "write to kim.lee@example.com"
    assert deobfuscate("mailto: is a scheme") == "mailto: is a scheme"


def test_a_spoken_at_only_counts_when_it_forms_an_address() -> None:
    """``works at Acme`` is prose, not an e-mail address."""
    assert canon("Rosa works at Acme since spring") == []


def test_mixed_script_homoglyphs_fold_to_latin() -> None:
    """A Cyrillic small o (U+043E) inside a Latin address is a disguise: it folds to o."""
    disguised = "r\u043eot@corp.io"  # Cyrillic small o
    assert ("email", "root@corp.io") in canon(f"admin is {disguised}")
    assert fold_confusables("p\u0430ypal") == "paypal"


def test_words_wholly_in_another_script_are_not_folded() -> None:
    """A real Cyrillic word is a name to transliterate, not a disguise to fold."""
    word = "\u041e\u043b\u0435\u0433"  # Олег
    assert fold_confusables(word) == word
    assert transliterate(word) == "oleg"


def test_names_have_every_plausible_ascii_key() -> None:
    """Accents, ß and umlauts give the spellings people actually type."""
    assert "bruckner anton" in name_keys("Brückner, Anton")
    assert "brueckner anton" in name_keys("Brückner, Anton")
    assert "strasser" in name_keys("Straßer")
    assert ascii_fold("Ελένη") == "eleni"


@pytest.mark.parametrize(("query", "fact"), [
    ("ref KX-200", "ref KX-2001"),
    ("user pat@corp.io", "user pat.lee@corp.io"),
    ("domain corp.io", "domain corp.io.uk"),
    ("phone +1-555-0177", "phone +1-555-01770"),
    ("path /srv/app/conf", "path /srv/app/conf.old"),
    ("host 10.4.0.12:8080", "host 10.4.0.120"),
])
def test_prefix_neighbours_do_not_match(query: str, fact: str) -> None:
    """Width control: an identifier never matches one it is only a prefix of."""
    q, f = one(query), one(fact)
    assert not matches(q, f)
    assert not matches(f, q)


def test_a_phone_number_matches_with_and_without_country_code_and_trunk_zero() -> None:
    """National and international forms of one number match both ways; another country's
    code, or another number, does not."""
    national = one("phone 303-555-0142")
    full = one("phone +1 303 555 0142")
    assert matches(national, full)
    assert matches(full, national)
    uk = one("call +44 20 7946 0958")
    for form in ["020 7946 0958", "0044 20 7946 0958", "+44 (0)20 7946 0958"]:
        assert matches(one(f"call {form}"), uk), form
    assert not matches(one("call +49 20 7946 0958"), uk)
    assert not matches(one("call 020 7946 0959"), uk)
    base, tagged = one("mail rae@corp.io"), one("mail rae+news@corp.io")
    assert matches(base, tagged)
    assert not matches(tagged, base)
    rel, absolute = one("file reports/q3/sheet.csv"), one("file E:/reports/q3/sheet.csv")
    assert matches(rel, absolute)


def test_identifier_entities_are_canonical_and_hide_secrets() -> None:
    """Entity ids of identifiers are valid ids; secrets and cards carry a digest."""
    secret = one("wifi: lantern88!dusk")
    assert secret.kind == "secret"
    assert "lantern" not in secret.entity
    card = one("card 9999-8888-7777-6666")
    assert "9999" not in card.entity
    for text in ["mail a.b@c.io", "call +1 303 555 0142", "see https://x.io/a/b",
                 "path C:\\\\x\\\\y.txt", "ip 10.0.0.1"]:
        assert is_canonical_entity(one(text).entity), text


@given(st.from_regex(r"[A-Z]{2,4}-[0-9]{2,5}", fullmatch=True),
       st.sampled_from(["-", ".", ""]))
def test_code_canonical_form_ignores_case_and_separators(code: str, sep: str) -> None:
    """However a code's groups are separated or cased, it keeps one canonical form (except
    where the letters are themselves a label or number word: "no.000" is "number 000")."""
    letters, digits = code.split("-")
    assume(letters.lower() not in IDENTIFIER_LABELS and letters.lower() not in NUMBER_WORDS)
    variant = f"{letters.lower()}{sep}{digits}"
    assert one(f"ref {code} open").canonical == one(f"ref {variant} open").canonical


@given(st.from_regex(r"[a-z]{2,6}-[0-9]{3,6}", fullmatch=True), st.integers(0, 9))
def test_appending_a_character_makes_a_different_identifier(code: str, extra: int) -> None:
    """``X`` and ``X`` + one more digit never match, in either direction."""
    a, b = one(f"id {code} set"), one(f"id {code}{extra} set")
    assert not matches(a, b)
    assert not matches(b, a)


@pytest.mark.parametrize(("international", "national"), [
    ("+49 40 32187654", "040 32187654"),
    ("+39 02 87654321", "02 87654321"),
    ("+33 7 98765432", "07 98765432"),
])
def test_a_phone_with_one_long_subscriber_group_is_one_number(
        international: str, national: str) -> None:
    """A subscriber part written as one group of six to eight digits is still a phone
    number, with or without country code and trunk zero."""
    a, b = one(international), one(national)
    assert a.kind == b.kind == "phone"
    assert matches(a, b) and matches(b, a)
    assert not matches(one(national[:-1] + "0"), a)


@pytest.mark.parametrize(("short", "longer"), [
    ("cache-west-07", "cache-west-07-standby"),
    ("rel_2025_03", "rel_2025_03_rc"),
])
def test_a_code_never_matches_the_same_code_with_a_word_appended(
        short: str, longer: str) -> None:
    """A word more makes another host, key or record: ``cache-west-07`` is not
    ``cache-west-07-standby``, in either direction."""
    a, b = one(f"host {short}"), one(f"host {longer}")
    assert not matches(a, b) and not matches(b, a)


def test_a_hash_label_reads_the_token_after_it() -> None:
    """``<label> hash <token>`` labels the token like ``<label> number <token>``."""
    assert canon("Build hash 9fe01c7 broke the nightly.") == [("code", "9fe01c7")]


def test_a_code_matches_itself_with_only_its_kind_word_appended() -> None:
    """A word appended that only says what the token is (an identifier label such as
    ``secret`` or ``key``) leaves it the same token; a digit or another word does not."""
    asked = one("token vx-pq81zz")
    assert matches(asked, one("token vx-pq81zz-secret"))
    assert matches(asked, one("token vx-pq81zz-key"))
    assert not matches(asked, one("token vx-pq81zz-old"))
    assert not matches(asked, one("token vx-pq81zz-2"))


@given(st.sampled_from(("GB", "DE", "FR", "NL")), st.integers(10, 99),
       st.lists(st.text("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789", min_size=4, max_size=4),
                min_size=3, max_size=6),
       st.sampled_from(("IBAN is ", "IBAN: ", "Pay to ", "")))
def test_an_iban_is_one_identifier_grouped_or_compact(country: str, check: int,
                                                      groups: list[str], lead: str) -> None:
    """An IBAN (country, check digits, the account in groups of four) is one identifier
    whether written grouped or compact, and the word before it is never part of it
    (``IBAN is GB29 …`` once read as the code ``is GB29``: every IBAN fact shared it)."""
    grouped = f"{country}{check} " + " ".join(groups)
    compact = grouped.replace(" ", "")
    assert canon(f"{lead}{grouped}.") == [("code", compact.lower())]
    assert canon(compact) == [("code", compact.lower())]
    other = compact[:-1] + ("0" if compact[-1] != "0" else "1")
    assert canon(other) != canon(compact)


@given(st.sampled_from(("vet.desk", "fleet", "r.singh")),
       st.sampled_from(("paws", "depot", "fleetco")), st.sampled_from(("example", "io")),
       st.sampled_from(("reached at", "reachable at", "written to at")), st.booleans())
def test_a_spoken_address_after_a_spoken_at_is_restored(local: str, host: str, tld: str,
                                                         lead: str, capitals: bool) -> None:
    """``reached at VET.DESK AT PAWS DOT EXAMPLE``: the first ``at`` is prose; reading it
    as the separator must not hide the address that follows."""
    written = f"{local} at {host} dot {tld}"
    text = f"The desk can be {lead} {written.upper() if capitals else written} today."
    assert ("email", f"{local}@{host}.{tld}") in canon(text)


def test_a_national_number_with_a_six_digit_first_group_is_a_phone() -> None:
    """``098200 12345``: an Indian mobile with its trunk zero, a first group of six digits;
    it is ``+91 98200 12345`` written nationally."""
    [found] = query_identifiers("098200 12345")
    assert found.kind == "phone"
    assert phones_match(found.canonical, "+919820012345")


def test_an_address_with_a_port_is_the_hosts_identifier(fresh_store: memory_es.MemoryStore) -> None:
    """``10.4.0.12:8080`` names host 10.4.0.12: a purge by it erases that host's fact, never
    10.4.0.120's, and recalling it afterwards finds nothing (the port is part of the
    identifier, not a word for the ranking to meet unrelated facts by)."""
    ti = TextInterface(fresh_store)
    for text in ("Farah's server is 10.4.0.12.", "Omar's server is 10.4.0.120.",
                 "Farah drives a VW ID4."):
        ti.remember("ip", text)
    ti.purge_matching("ip", "10.4.0.12:8080")
    assert {f.text for f in fresh_store.current("ip")} == {"Omar's server is 10.4.0.120",
                                                            "Farah drives a VW ID4"}
    assert ti.recall_texts("ip", "10.4.0.12:8080") == []


def test_a_name_label_makes_a_joined_name_an_identifier() -> None:
    """After a label of a name an account or a machine is known by (``username``,
    ``hostname``), a name of joined parts is an identifier though it holds no digit; a
    plain word after it, or a joined word after any other label, is not."""
    assert canon("Her GitHub username is tquinn-dev.") == [("code", "tquinndev")]
    assert canon("hostname: db-primary") == [("code", "dbprimary")]
    assert canon("his login is slow") == []
    assert canon("the order follow-up") == []


def test_a_purge_by_a_bare_joined_name_reaches_the_fact_that_labels_it(
        fresh_store: memory_es.MemoryStore) -> None:
    """``tquinn-dev`` alone names what a username label calls by that name, never the
    brother's ``quinn-dev`` it contains, nor a fact that only uses a joined word."""
    ti = TextInterface(fresh_store)
    for text in ("Tara Quinn's GitHub username is tquinn-dev.",
                 "Tara Quinn's brother's GitHub username is quinn-dev.",
                 "Tara Quinn has check-ups every March."):
        ti.remember("u", text)
    ti.purge_matching("u", "tquinn-dev")
    ti.purge_matching("u", "check-ups")
    assert {f.text for f in fresh_store.current("u")} == {
        "Tara Quinn's brother's GitHub username is quinn-dev",
        "Tara Quinn has check-ups every March"}


@given(st.lists(st.integers(0, 255), min_size=6, max_size=6),
       st.sampled_from([":", "-", "."]), st.booleans())
def test_a_mac_address_is_one_address_however_it_is_separated(
        octets: list[int], sep: str, upper: bool) -> None:
    """``00:1A:2B:3C:4D:5E``, ``00-1a-2b-3c-4d-5e`` and ``001a.2b3c.4d5e`` (IEEE 802 and
    Cisco's writing) are one canonical address, so a purge in one form meets the other."""
    hexes = [f"{o:02x}" for o in octets]
    canonical = ":".join(hexes)
    written = ("".join(hexes[0:2]) + "." + "".join(hexes[2:4]) + "." + "".join(hexes[4:6])
               if sep == "." else sep.join(hexes))
    written = written.upper() if upper else written
    assert canon(f"The printer's MAC address is {written}.") == [("mac", canonical)]
    assert [i.canonical for i in query_identifiers(written)] == [canonical]


@pytest.mark.parametrize(("asked", "held", "same"), [
    ("123-45-6789", "12-3456789", False), ("123-45-6789", "123 45 6789", True),
    ("123456789", "12-3456789", True), ("2024-1001", "20241001", True),
    ("4471-2209", "447-12209", False)])
def test_digits_grouped_otherwise_are_another_number(
        fresh_store: memory_es.MemoryStore, asked: str, held: str, same: bool) -> None:
    """``123-45-6789`` (an SSN) and ``12-3456789`` (an employer's tax id) hold the same
    digits in other groups: two numbers. The same groups with another separator, or either
    written compact, are one. A purge of the one leaves the other."""
    [q] = query_identifiers(asked)
    [f] = find_identifiers(f"The number is {held}.")
    assert matches(q, f) is same
    tenant, ti = "t", TextInterface(fresh_store)
    kept = "Rex Hall lives in Ohio"
    for text in (f"Rex Hall's tax number is {held}", kept):
        ti.remember(tenant, text + ".")
    ti.purge_matching(tenant, asked)
    texts = {f.text for f in fresh_store.current(tenant)}
    assert texts == ({kept} if same else {kept, f"Rex Hall's tax number is {held}"})


@pytest.mark.parametrize(("owner", "code"), [
    ("at Leeds City College", "LCC2317845"), ("with the Biggar Curling Club", "BCC4471"),
    ("for the inhaler trial", "AST00472"), ("on the league's site", "LR2291AO")])
def test_a_label_names_its_code_across_whose_number_it_is(
        fresh_store: memory_es.MemoryStore, owner: str, code: str) -> None:
    """``student number at Leeds City College is LCC2317845``: the words that say whose
    or where the number is stand between the label and its copula, so the code is
    labelled and a purge erases it without asking (a code no label names needs
    ``confirm``); a code of the same shape in another person's fact is left."""
    ti = TextInterface(fresh_store)
    kept = f"Omar Haddad's bike lock code is {code[:-1]}9"
    for text in (f"Wanjiru Kamau-Fletcher's student number {owner} is {code}.", f"{kept}."):
        ti.remember("u", text)
    result = ti.purge_matching("u", code)
    assert result.receipts and {f.text for f in fresh_store.current("u")} == {kept}
    assert canon(f"The member number {owner} was renewed in 2021.") == []


@pytest.mark.parametrize(("label", "code"), [
    ("blood donor number, which he shows at every session,", "4402 719 835"),
    ("Unique Taxpayer Reference, which he quotes on his tax return,", "83104 27695"),
    ("amateur radio call sign, which he gives at the start of every contact,", "G4VJL"),
    ("call sign", "M0TDF"), ("call-sign", "2E0ABC"), ("post code", "LS6 2AB")])
def test_a_label_names_its_code_across_an_aside_or_written_open(
        fresh_store: memory_es.MemoryStore, label: str, code: str) -> None:
    """An aside set off by commas may stand between a label and its copula, and a
    compound label may be written open or hyphenated (``call sign``, ``post code``): the
    code is still labelled, so a purge by it erases the fact without asking, and another
    person's fact stays."""
    ti = TextInterface(fresh_store)
    kept = "Omar Haddad plays the trumpet in a brass band"
    copula = " is" if label.endswith(",") else ""
    for text in (f"Kofi Mensah-Bonsu's {label}{copula} {code}.", f"{kept}."):
        ti.remember("u", text)
    assert ti.purge_matching("u", code).receipts
    assert {f.text for f in fresh_store.current("u")} == {kept}


@pytest.mark.parametrize(("fact", "code"), [
    ("Aoife Reyes's Archery Ireland membership number is {c}", "AI-0447 3196"),
    ("Ifeoma Hale's driving licence number is {c}", "OKONK 806154 IH9PL"),
    ("Rhodri Gwilym's County Parish Holding number is {c}", "61/223/0047"),
    ("Anneliese Merwe's registration number on the National Register of Public Service "
     "Interpreters is {c}", "14328"),
    ("Das Kennzeichen von Jonas Richters Kleinwagen lautet {c}", "KS-FW 482")])
def test_a_code_asked_for_whole_reaches_the_fact_that_labels_it(
        fresh_store: memory_es.MemoryStore, fact: str, code: str) -> None:
    """A code asked for alone is the whole code, whatever its groups look like (``AI-0447
    3196`` is no ``AI-0447``, ``OKONK 806154 IH9PL`` no ``806154``; ``61/223/0047`` is the
    number its label gives); the label may be far from it or German (``lautet``). The
    purge erases that fact without asking, and a fact holding a group of a code of
    letters and digits stays (a number's last digits may be the same number written
    short: that one is previewed, not erased)."""
    ti = TextInterface(fresh_store)
    lettered = " " in code and not code.replace(" ", "").isdigit()
    group = code.rsplit(maxsplit=1)[-1] if lettered else "9911"
    kept = f"Omar Haddad's bike lock code is {group}"
    for text in (fact.format(c=code) + ".", f"{kept}."):
        ti.remember("u", text)
    assert ti.purge_matching("u", code).receipts
    assert {f.text for f in fresh_store.current("u")} == {kept}


@pytest.mark.parametrize("plate", ["HSK-RG 411", "HOL-JH 84H", "B-MW 1234"])
def test_a_bare_german_plate_reaches_the_fact_that_labels_it(
        fresh_store: memory_es.MemoryStore, plate: str) -> None:
    """A German registration (district, hyphen, letters, then digits) asked for alone is
    one code written in groups, as ``BA 4471 2209`` is: a purge by it erases the fact whose
    label says it is a plate, and only that fact."""
    ti = TextInterface(fresh_store)
    kept = "Reinhild Großkopf fährt einen grünen VW Golf"
    for text in (f"Reinhild Großkopfs Autokennzeichen ist {plate}.", f"{kept}."):
        ti.remember("u", text)
    assert ti.purge_matching("u", plate).receipts
    assert {f.text for f in fresh_store.current("u")} == {kept}
