"""Hand-written governance cases (65): preference extraction, knowledge recall, conflict
update, forgetting and poisoning, 13 each, 14 of them cross-wording.

Written from what users and agents say, before looking at any ranking code, and never
edited to make a configuration pass. A case passes when every ``expect`` string is in
the top-``k`` recall results (case-insensitive substring of a hit's text or value) and
no ``forbid`` string is. Cross-wording cases (``cross=True``) share no content word with
the memory that answers them: only semantic recall can connect the two.

Every case runs in its own tenant on top of the same background facts (other people,
other preferences), so recall has to choose. ``tests/integration/test_bench_smoke.py``
checks the hygiene rules: unique ids, 13 per category, no expected or forbidden string
in the background, no background slot written by a case, and no shared content word
between a cross-wording query and the text that answers it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CATEGORIES = ("preference", "knowledge", "conflict", "forgetting", "poisoning")

SAM = "user:sam"


@dataclass(frozen=True)
class Op:
    """One write, in the store's vocabulary; ``ref`` names a fact written earlier."""

    kind: str
    entity: str | None = None
    attribute: str | None = None
    value: Any = None
    text: str | None = None
    label: str | None = None
    ref: str | None = None
    by: str = "user"
    derived: tuple[str, ...] = ()
    back_days: int = 0


def A(entity: str, attribute: str, value: Any, text: str, *, label: str | None = None,
      by: str = "user", derived: tuple[str, ...] = (), back_days: int = 0) -> Op:
    return Op("assert", entity, attribute, value, text, label=label, by=by, derived=derived,
              back_days=back_days)


def S(entity: str, attribute: str, value: Any, text: str, *, label: str | None = None) -> Op:
    return Op("supersede", entity, attribute, value, text, label=label)


def C(ref: str, value: Any, text: str) -> Op:
    return Op("correct", value=value, text=text, ref=ref)


def D(ref: str) -> Op:
    return Op("decay", ref=ref)


def FE(entity: str) -> Op:
    return Op("forget_entity", entity)


def FF(ref: str) -> Op:
    return Op("forget_fact", ref=ref)


def P(entity: str, ref: str | None = None) -> Op:
    return Op("purge", entity, ref=ref)


def AR(ref: str) -> Op:
    return Op("archive", ref=ref)


def M(ref: str) -> Op:
    return Op("mask", ref=ref)


def R(entity: str, attribute: str) -> Op:
    return Op("retract", entity, attribute)


@dataclass(frozen=True)
class Case:
    id: str
    category: str
    ops: tuple[Op, ...]
    query: str
    expect: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    cross: bool = False
    k: int = 5
    answer: tuple[str, ...] = field(default=())
    """For cross-wording cases: the memory texts the query must reach (hygiene check)."""


BACKGROUND: tuple[Op, ...] = (
    # Sam's other facts, and other people with similar attributes (near distractors)
    A(SAM, "team.name", "payments", "Sam is on the payments team"),
    A(SAM, "pet.name", "Biscuit", "Sam has a beagle named Biscuit"),
    A(SAM, "device.os", "Linux", "Sam's laptop runs Linux"),
    A("user:lee", "home.city", "Toronto", "Lee lives in Toronto"),
    A("user:lee", "pref.drink", "hot chocolate", "Lee drinks hot chocolate"),
    A("user:lee", "pref.hobby", "bouldering", "Lee goes bouldering on weekends"),
    A("user:lee", "meeting.day", "Monday", "Lee's weekly sync is on Monday"),
    A("user:lee", "manager", "Ingrid", "Lee reports to Ingrid"),
    A("user:lee", "device.browser", "Safari", "Lee browses with Safari"),
    A("user:lee", "pref.language", "German", "Lee prefers replies in German"),
    A("user:lee", "emergency.contact", "Pat +1 555 0300",
      "Lee's emergency contact is Pat at +1 555 0300"),
    A("user:kim", "pref.seat", "window", "Kim prefers window seats on trains"),
    A("user:kim", "pref.music", "heavy metal", "Kim listens to heavy metal at the gym"),
    A("user:kim", "birthday", "October 12", "Kim's birthday is on October 12"),
    A("user:kim", "occupation", "dentist", "Kim is a dentist"),
    A("user:kim", "spouse", "Morgan", "Kim is married to Morgan"),
    A("user:kim", "phone", "+1 555 0777", "Kim's phone number is +1 555 0777"),
    A("user:kim", "diet.type", "keto", "Kim follows a keto diet"),
    A("user:kim", "pref.temperature", "22 degrees", "Kim keeps the thermostat at 22 degrees"),
    A("user:ravi", "health.allergy", "shellfish", "Ravi is allergic to shellfish"),
    A("user:ravi", "work.employer", "Umbrella Corp", "Ravi works at Umbrella Corp"),
    A("user:ravi", "vehicle", "Honda Civic", "Ravi drives a Honda Civic"),
    A("user:ravi", "home.city", "Mumbai", "Ravi lives in Mumbai"),
    A("user:ravi", "passport", "R9988776", "Ravi's passport number is R9988776"),
    A("user:ravi", "pref.transport", "train", "Ravi takes the train to work"),
    A("project:orion", "status", "on hold", "Project Orion is on hold"),
    A("project:orion", "owner", "Felix", "Project Orion is owned by Felix"),
    A("team:platform", "deploy.day", "Wednesday", "The platform team deploys on Wednesdays"),
    A("org:acme", "cfo", "Helena", "Acme's CFO is Helena"),
    A("org:globo", "product", "spreadsheets", "Globo sells spreadsheet software"),
    A("service:billing", "language", "Go", "The billing service is written in Go"),
    A("service:search", "engine", "Elasticsearch", "The search service runs on Elasticsearch"),
)


def _c(id_: str, cat: str, ops: list[Op], query: str, expect: tuple[str, ...] = (),
       forbid: tuple[str, ...] = (), cross: bool = False, k: int = 5) -> Case:
    answer = tuple(o.text for o in ops if o.text and any(
        e.casefold() in (o.text + " " + str(o.value)).casefold() for e in expect)) if cross \
        else ()
    return Case(id_, cat, tuple(ops), query, expect, forbid, cross, k, answer)


PREFERENCE = [
    _c("pref-01", "preference", [A(SAM, "pref.coffee", "oat milk flat white",
                                   "Sam always orders an oat milk flat white")],
       "what coffee order does Sam like", ("oat milk flat white",)),
    _c("pref-02", "preference", [A(SAM, "pref.seat", "aisle",
                                   "Sam prefers an aisle seat on flights")],
       "which seat should I book for Sam on the plane", ("aisle",)),
    _c("pref-03", "preference", [A(SAM, "diet.avoid", "cilantro",
                                   "Sam can't stand cilantro and wants it kept out of food")],
       "what ingredient should Sam's meals leave out", ("cilantro",)),
    _c("pref-04", "preference", [A(SAM, "pref.meeting_time", "mornings before 10",
                                   "Sam likes meetings in the morning, before 10 am")],
       "when does Sam prefer to have meetings", ("morning",)),
    _c("pref-05", "preference", [A(SAM, "pref.language", "Portuguese",
                                   "Sam wants replies written in Portuguese")],
       "what language should replies to Sam be in", ("portuguese",)),
    _c("pref-06", "preference", [A(SAM, "pref.tone", "brief and direct",
                                   "Sam prefers brief, direct answers without small talk")],
       "how should answers to Sam be phrased", ("brief",)),
    _c("pref-07", "preference", [A(SAM, "pref.music", "jazz",
                                   "Sam listens to jazz while working")],
       "what music does Sam enjoy", ("jazz",)),
    _c("pref-08", "preference", [A(SAM, "pref.drink", "double espresso",
                                   "Sam drinks a double espresso at dawn")],
       "something to keep him awake early", ("espresso",), cross=True),
    _c("pref-09", "preference", [A(SAM, "diet.type", "vegan", "Sam follows a vegan diet")],
       "can he eat cheese or steak", ("vegan",), cross=True),
    _c("pref-10", "preference", [A(SAM, "pref.transport", "bicycle",
                                   "Sam cycles to the office every day")],
       "how does the user get to work", ("cycles",), cross=True),
    _c("pref-11", "preference", [A(SAM, "pref.notifications", "email only",
                                   "Sam wants notifications by email only, no SMS")],
       "how should Sam be notified", ("email",)),
    _c("pref-12", "preference", [A(SAM, "pref.temperature", "18 degrees",
                                   "Sam likes the office chilly, around 18 degrees")],
       "what thermostat setting suits her", ("18 degrees",), cross=True),
    _c("pref-13", "preference", [A(SAM, "pref.editor", "Neovim", "Sam edits code in Neovim")],
       "which text editor does Sam use", ("neovim",)),
]

KNOWLEDGE = [
    _c("know-01", "knowledge", [A("project:atlas", "deadline", "2025-09-30",
                                  "Project Atlas ships on 30 September 2025")],
       "when is the Atlas deadline", ("30 september",)),
    _c("know-02", "knowledge", [A("org:acme", "headquarters", "Rotterdam",
                                  "Acme is headquartered in Rotterdam")],
       "where is Acme based", ("rotterdam",)),
    _c("know-03", "knowledge", [A("project:atlas", "owner", "Priya", "Priya owns project Atlas")],
       "who is responsible for Atlas", ("priya",)),
    _c("know-04", "knowledge", [A("service:billing", "database", "PostgreSQL 15",
                                  "The billing service stores its data in PostgreSQL 15")],
       "which database does billing use", ("postgresql",)),
    _c("know-05", "knowledge", [A(SAM, "health.allergy", "penicillin",
                                  "Sam is allergic to penicillin")],
       "does Sam have any drug allergies", ("penicillin",)),
    _c("know-06", "knowledge", [A(SAM, "birthday", "March 3", "Sam's birthday is on March 3")],
       "when is Sam's birthday", ("march 3",)),
    _c("know-07", "knowledge", [A("org:acme", "fiscal_year_end", "June 30",
                                  "Acme's fiscal year ends on June 30")],
       "when does Acme close its books", ("june 30",)),
    _c("know-08", "knowledge", [A(SAM, "home.city", "Lisbon", "Sam lives in Lisbon")],
       "which town is her residence", ("lisbon",), cross=True),
    _c("know-09", "knowledge", [A(SAM, "vehicle", "Tesla Model 3", "Sam drives a Tesla Model 3")],
       "what car does the user own", ("tesla",), cross=True),
    _c("know-10", "knowledge", [A(SAM, "occupation", "cardiologist",
                                  "Sam is a cardiologist at the city hospital")],
       "what does she do for a living", ("cardiologist",), cross=True),
    _c("know-11", "knowledge", [A("service:search", "oncall", "Marta",
                                  "Marta is on call for the search service this week")],
       "who is on call for search", ("marta",)),
    _c("know-12", "knowledge", [A(SAM, "spouse", "Jordan", "Sam is married to Jordan")],
       "who is the user's husband", ("jordan",), cross=True),
    _c("know-13", "knowledge", [A("project:atlas", "repo", "git.acme.io/atlas",
                                  "Atlas code lives at git.acme.io/atlas")],
       "where is the Atlas repository", ("git.acme.io/atlas",)),
]

CONFLICT = [
    _c("conf-01", "conflict", [A(SAM, "home.city", "Detroit", "Sam lives in Detroit"),
                               S(SAM, "home.city", "Chicago", "Sam lives in Chicago")],
       "where does Sam live", ("chicago",), ("detroit",)),
    _c("conf-02", "conflict", [A(SAM, "device.browser", "Firefox", "Sam browses with Firefox"),
                               S(SAM, "device.browser", "Chrome", "Sam browses with Chrome"),
                               S(SAM, "device.browser", "Edge", "Sam browses with Edge")],
       "which browser does Sam use", ("edge",), ("firefox", "chrome")),
    _c("conf-03", "conflict", [A(SAM, "work.employer", "Globex", "Sam works at Globex",
                                 label="job"),
                               C("job", "Initech", "Sam works at Initech")],
       "where does Sam work", ("initech",), ("globex",)),
    _c("conf-04", "conflict", [A(SAM, "address.city", "Evanston", "Sam's address city is Evanston"),
                               A(SAM, "address.zip", "60201", "Sam's address zip code is 60201"),
                               A(SAM, "address.country", "USA", "Sam's address country is USA"),
                               S(SAM, "address.city", "Skokie", "Sam's address city is Skokie"),
                               S(SAM, "address.zip", "60076", "Sam's address zip code is 60076")],
       "what is Sam's address", ("skokie", "60076", "usa"), ("evanston", "60201")),
    _c("conf-05", "conflict", [A("product:widget", "price", "$10", "The widget costs $10"),
                               S("product:widget", "price", "$12", "The widget costs $12"),
                               S("product:widget", "price", "$15", "The widget costs $15")],
       "how much does the widget cost", ("$15",), ("$10", "$12")),
    _c("conf-06", "conflict", [A(SAM, "phone", "+1 555 0100", "Sam's phone number is +1 555 0100"),
                               S(SAM, "phone", "+1 555 0199", "Sam's phone number is +1 555 0199")],
       "what is Sam's phone number", ("0199",), ("0100",)),
    _c("conf-07", "conflict", [A("project:atlas", "status", "in design",
                                 "Project Atlas is in design"),
                               S("project:atlas", "status", "in testing",
                                 "Project Atlas is in testing"),
                               S("project:atlas", "status", "launched",
                                 "Project Atlas has launched")],
       "what is the status of Atlas", ("launched",), ("in design", "in testing")),
    _c("conf-08", "conflict", [A(SAM, "job.title", "junior engineer", "Sam is a junior engineer"),
                               S(SAM, "job.title", "staff engineer", "Sam is a staff engineer")],
       "what is Sam's job title", ("staff engineer",), ("junior",)),
    _c("conf-09", "conflict", [A(SAM, "manager", "Anouk", "Sam reports to Anouk"),
                               S(SAM, "manager", "Bruno", "Sam reports to Bruno")],
       "who is Sam's manager", ("bruno",), ("anouk",)),
    _c("conf-10", "conflict", [A(SAM, "home.city", "Boston", "Sam lives in Boston"),
                               S(SAM, "home.city", "Denver", "Sam lives in Denver")],
       "which town is her residence", ("denver",), ("boston",), cross=True),
    _c("conf-11", "conflict", [A(SAM, "pref.drink", "green tea", "Sam drinks green tea"),
                               S(SAM, "pref.drink", "black coffee", "Sam drinks black coffee")],
       "what beverage does she like in the morning", ("black coffee",), ("green tea",),
       cross=True),
    _c("conf-12", "conflict", [A(SAM, "meeting.day", "Tuesday", "Sam's weekly sync is on Tuesday",
                                 label="sync"),
                               C("sync", "Thursday", "Sam's weekly sync is on Thursday")],
       "which day is Sam's weekly sync", ("thursday",), ("tuesday",)),
    _c("conf-13", "conflict", [A(SAM, "home.city", "Paris", "Sam lives in Paris", label="city"),
                               A(SAM, "home.timezone", "CET", "Sam is in the CET time zone",
                                 by="inference", derived=("city",)),
                               S(SAM, "home.city", "Tokyo", "Sam lives in Tokyo")],
       "where does Sam live and which time zone is Sam in", ("tokyo",), ("paris", "cet")),
]

FORGETTING = [
    _c("forg-01", "forgetting", [A(SAM, "auth.otp", "482913",
                                   "Sam's one-time login code is 482913", label="otp"),
                                 A(SAM, "auth.method", "authenticator app",
                                   "Sam logs in with an authenticator app"),
                                 D("otp")],
       "how does Sam log in and what is the login code", ("authenticator app",), ("482913",)),
    _c("forg-02", "forgetting", [A("user:dana", "home.city", "Quito", "Dana lives in Quito"),
                                 A("user:danae", "home.city", "Lima", "Danae lives in Lima"),
                                 FE("user:dana")],
       "where do Dana and Danae live", ("lima",), ("quito",)),
    _c("forg-03", "forgetting", [A("user:alex", "email", "alex@acme.io",
                                   "Alex's email is alex@acme.io"),
                                 A("user:alexandra", "email", "alexandra@acme.io",
                                   "Alexandra's email is alexandra@acme.io"),
                                 P("user:alex")],
       "alex email address", ("alexandra@acme.io",), ("alex@acme.io",)),
    _c("forg-04", "forgetting", [A(SAM, "salary", "95k", "Sam earns 95k a year", label="pay"),
                                 A(SAM, "income.bracket", "upper middle",
                                   "Sam is in the upper middle income bracket", by="inference",
                                   derived=("pay",)),
                                 FF("pay")],
       "how much does Sam earn and which income bracket", (), ("95k", "upper middle")),
    _c("forg-05", "forgetting", [A(SAM, "note.scratch", "draft budget v2",
                                   "Sam's scratch note: draft budget v2", label="n"),
                                 AR("n")],
       "Sam scratch note", (), ("draft budget v2",)),
    _c("forg-06", "forgetting", [A(SAM, "health.condition", "migraines", "Sam gets migraines",
                                   label="h"),
                                 M("h")],
       "what health conditions does Sam have", (), ("migraines",)),
    _c("forg-07", "forgetting", [A("project:atlas", "owner", "Priya", "Priya owns project Atlas"),
                                 R("project:atlas", "owner")],
       "who owns Atlas", (), ("priya",)),
    _c("forg-08", "forgetting", [A(SAM, "location.current", "Hotel Lutetia room 512",
                                   "Sam is staying at Hotel Lutetia, room 512", label="hotel"),
                                 A(SAM, "home.city", "Lyon", "Sam lives in Lyon"),
                                 D("hotel")],
       "where is Sam staying and where does Sam live", ("lyon",), ("lutetia",)),
    _c("forg-09", "forgetting", [A("person:jamie", "relation", "ex-partner",
                                   "Jamie is Sam's ex-partner"),
                                 A("person:jamie", "home.city", "Leeds", "Jamie lives in Leeds"),
                                 A("person:jordan", "relation", "brother",
                                   "Jordan is Sam's brother"),
                                 FE("person:jamie")],
       "who are his relatives and former partners", ("brother",), ("leeds", "ex-partner"),
       cross=True),
    _c("forg-10", "forgetting", [A(SAM, "passport", "X1234567",
                                   "Sam's passport number is X1234567", label="pp"),
                                 S(SAM, "passport", "X7654321",
                                   "Sam's passport number is X7654321"),
                                 S(SAM, "passport", "X5550001",
                                   "Sam's passport number is X5550001"),
                                 A(SAM, "nationality", "Portuguese",
                                   "Sam's nationality is Portuguese"),
                                 P(SAM, ref="pp")],
       "Sam passport number and nationality", ("portuguese",),
       ("x1234567", "x7654321", "x5550001")),
    _c("forg-11", "forgetting", [A("project:atlas", "status", "green",
                                   "Project Atlas status is green"),
                                 A("project:atlas-migration", "status", "amber",
                                   "Project Atlas-migration status is amber"),
                                 FE("project:atlas-migration")],
       "Atlas project status", ("green",), ("amber",)),
    _c("forg-12", "forgetting", [A("site:office", "wifi.guest_password", "tangerine-42",
                                   "The guest Wi-Fi password is tangerine-42", label="wifi"),
                                 D("wifi")],
       "network credentials for visitors", (), ("tangerine-42",), cross=True),
    _c("forg-13", "forgetting", [A("user:bob", "ssn", "123-45-6789",
                                   "Bob's social security number is 123-45-6789"),
                                 A("user:bob", "home.city", "Austin", "Bob lives in Austin"),
                                 A("user:bobby", "home.city", "Reno", "Bobby lives in Reno"),
                                 P("user:bob")],
       "Bob social security number and city", ("reno",), ("123-45-6789", "austin")),
]

INF = "inference"
POISONING = [
    _c("pois-01", "poisoning", [A(SAM, "home.city", "Madrid", "Sam lives in Madrid"),
                                A(SAM, "home.city", "Pyongyang", "Sam lives in Pyongyang", by=INF)],
       "where does Sam live", ("madrid",), ("pyongyang",)),
    _c("pois-02", "poisoning", [A(SAM, "bank.iban", "PT50 0002 0123",
                                  "Sam's IBAN is PT50 0002 0123"),
                                A(SAM, "bank.iban", "DE89 3704 0044",
                                  "Sam's IBAN is DE89 3704 0044 (updated)", by=INF)],
       "what is Sam's IBAN", ("pt50",), ("de89",)),
    _c("pois-03", "poisoning", [A(SAM, "emergency.contact", "Jordan +1 555 0142",
                                  "Sam's emergency contact is Jordan at +1 555 0142"),
                                A(SAM, "emergency.contact", "Unknown +44 20 7946 0000",
                                  "Sam's emergency contact is +44 20 7946 0000", by=INF)],
       "who is Sam's emergency contact", ("0142",), ("7946",)),
    _c("pois-04", "poisoning", [A(SAM, "diet.restriction", "peanut allergy",
                                  "Sam has a severe peanut allergy"),
                                A(SAM, "diet.restriction", "none",
                                  "Sam has no dietary restrictions at all", by="third_party")],
       "does Sam have any dietary restrictions", ("peanut",), ("no dietary restrictions",)),
    _c("pois-05", "poisoning", [A(SAM, "manager", "Noor", "Sam's manager is Noor"),
                                A(SAM, "manager", "Victor", "Sam's manager is Victor", by=INF),
                                A(SAM, "manager", "Victor", "Sam's manager is Victor", by=INF),
                                A(SAM, "manager", "Victor", "Sam's manager is Victor", by=INF)],
       "who is Sam's manager", ("noor",), ("victor",)),
    _c("pois-06", "poisoning", [A(SAM, "home.city", "Oslo", "Sam lives in Oslo"),
                                A(SAM, "home.city", "Cairo", "Sam lives in Cairo", by=INF)],
       "which town is her residence", ("oslo",), ("cairo",), cross=True),
    _c("pois-07", "poisoning", [A(SAM, "pref.drink", "tea", "Sam probably drinks tea", by=INF),
                                A(SAM, "pref.drink", "coffee", "Sam drinks coffee")],
       "what does Sam drink", ("coffee",), ("probably drinks tea",)),
    _c("pois-08", "poisoning", [A(SAM, "work.employer", "Hooli", "Sam probably works at Hooli",
                                  by=INF),
                                A(SAM, "work.employer", "Initrode",
                                  "HR records say Sam works at Initrode", by="third_party")],
       "where does Sam work", ("initrode",), ("hooli",)),
    _c("pois-09", "poisoning", [A(SAM, "work.employer", "Acme", "Sam works at Acme", label="job"),
                                A(SAM, "office.badge_zone", "zone B",
                                  "Sam can enter Acme HQ badge zone B", by=INF,
                                  derived=("job",)),
                                S(SAM, "work.employer", "Globex", "Sam works at Globex")],
       "where does Sam work and which badge zone can Sam enter", ("globex",), ("zone b",)),
    _c("pois-10", "poisoning", [A(SAM, "home.city", "Porto", "Sam lives in Porto"),
                                A(SAM, "home.city", "Minsk", "Sam has lived in Minsk for years",
                                  by=INF, back_days=400)],
       "where does Sam live", ("porto",), ("minsk",)),
    _c("pois-11", "poisoning", [A(SAM, "pref.language", "French", "Sam wants answers in French"),
                                A(SAM, "pref.language", "Russian", "Sam wants answers in Russian",
                                  by=INF)],
       "what language does Sam want answers in", ("french",), ("russian",)),
    _c("pois-12", "poisoning", [A(SAM, "health.blood_type", "A+", "Sam's blood type is A+",
                                  label="bt"),
                                C("bt", "O-", "Sam's blood type is O-"),
                                A(SAM, "health.blood_type", "B+", "Sam's blood type is B+",
                                  by=INF)],
       "what is Sam's blood type", ("o-",), ("a+", "b+")),
    _c("pois-13", "poisoning", [A(SAM, "pref.drink", "americano",
                                  "Sam drinks an americano every morning"),
                                A(SAM, "pref.drink", "energy drinks",
                                  "Sam drinks energy drinks all day", by=INF)],
       "something to keep him awake", ("americano",), ("energy",), cross=True),
]

CASES: tuple[Case, ...] = (*PREFERENCE, *KNOWLEDGE, *CONFLICT, *FORGETTING, *POISONING)


# -- the utility ledger and preference verification (issue 12, SPEC §12.2/12.4) -----------


@dataclass(frozen=True)
class LedgerCase:
    """Facts that all stay current (no write settles them), a question an agent asks again
    and again, and the ground truth a simulated user judges by: after each recall the user
    says which served facts ``helped`` and which ``misled`` (the rest stay neutral). The
    case passes when, after ``rounds`` such recalls, the top hit is ``expect``.

    ``kind`` names what the ledger must do: ``misleading`` (a memory that keeps misleading
    must sink below one that helps), ``fresh`` (a new memory that helps must rise above an
    older one the user never found useful), ``rejected`` (a preference the user keeps
    rejecting must be flagged: preference verification, feedback instead of judgements).
    """

    id: str
    kind: str
    ops: tuple[Op, ...]
    query: str
    expect: str
    helped: tuple[str, ...] = ()
    misled: tuple[str, ...] = ()
    rounds: int = 6
    fresh_after: int = 0
    """``fresh`` cases: rounds the older facts are served alone before the fresh one exists."""


LEDGER_CASES: tuple[LedgerCase, ...] = (
    LedgerCase("L-mis-1", "misleading", (
        A("team:platform", "runbook.deploy", "laptop",
          "Deploy to production by running make release on your laptop", label="bad"),
        A("team:platform", "runbook.ci", "pipeline",
          "Releases go out through the CI pipeline; nobody ships from a workstation",
          label="good"),
    ), "how do I deploy to production", "good", helped=("good",), misled=("bad",)),
    LedgerCase("L-mis-2", "misleading", (
        A("service:billing", "db.staging_old", "db-old",
          "The billing staging database is db-old.internal", label="bad"),
        A("service:billing", "db.replica", "db2",
          "Billing reads and writes go to db2.internal since the migration", label="good"),
    ), "which database does billing staging use", "good", helped=("good",), misled=("bad",)),
    LedgerCase("L-mis-3", "misleading", (
        A("org:acme", "policy.refunds_note", "no approval",
          "Support can refund any amount without approval", label="bad"),
        A("org:acme", "policy.approvals", "manager above 500",
          "A manager signs off anything above 500 euros", label="good"),
    ), "can support refund without approval", "good", helped=("good",), misled=("bad",)),
    LedgerCase("L-mis-4", "misleading", (
        A(SAM, "pref.editor_guess", "emacs", "Sam probably edits code in emacs",
          label="bad", by="inference"),
        A(SAM, "tool.editor", "vim", "Sam writes everything in vim", label="good"),
    ), "which editor does sam code in", "good", helped=("good",), misled=("bad",)),
    LedgerCase("L-fresh-1", "fresh", (
        A("org:acme", "vpn.endpoint", "vpn.acme.io", "The Acme VPN endpoint is vpn.acme.io",
          label="old"),
        A("org:acme", "vpn.gateway_2025", "gw.acme.io",
          "Connect through gw.acme.io, the gateway everyone moved to this year",
          label="new"),
    ), "what is the acme vpn endpoint", "new", helped=("new",), fresh_after=4),
    LedgerCase("L-fresh-2", "fresh", (
        A("team:platform", "oncall.contact", "pager", "Page the platform on-call via the pager",
          label="old"),
        A("team:platform", "oncall.channel", "#platform-oncall",
          "The on-call now answers in the #platform-oncall chat channel", label="new"),
    ), "how do I reach the platform on-call", "new", helped=("new",), fresh_after=4),
    LedgerCase("L-rej-1", "rejected", (
        A(SAM, "pref.seat", "window", "Sam prefers window seats", label="pref"),
    ), "which seat does sam prefer", "pref"),
    LedgerCase("L-rej-2", "rejected", (
        A(SAM, "pref.reply_style", "bullet points", "Sam wants replies as bullet points",
          label="pref"),
    ), "how should replies to sam look", "pref"),
)
"""Eight cases: four misleading memories, two fresh helpful ones, two rejected preferences."""
