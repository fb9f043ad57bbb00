"""Closed word lists the rule interpreter reads: general English, no benchmark strings.

Everything here is linguistic knowledge of the kind a grammar book or a thesaurus
holds: function words, auxiliaries, a few hundred common verbs with their irregular
forms, negation and cessation markers, temporal words, honorifics, and a coarse
topic thesaurus (which everyday words belong to the same life domain: *car*,
*drive*, *commute* are transport; *married*, *spouse*, *divorce* are relationship).
No entity name, phrase or answer of any test suite appears in this module.
"""

from __future__ import annotations

from projections.tokens import stem


def words(text: str) -> frozenset[str]:
    """A closed word list written as whitespace-separated text."""
    return frozenset(text.split())


STOPWORDS: frozenset[str] = words("""
a an the is are was were be been being am do does did doing of in on at to for with by
from and or but nor what which who whom whose where when how why that this these those it
its i me my mine you your yours he him his she her hers they them their theirs we us our
ours has have had having about as into than then there here so such can could would should
will shall may might must just also any some tell know please let lets get got s t very
really too up out over under again show give list me each every on file any
""")
"""Function words: never content, never names."""

NEGATORS: frozenset[str] = words("not no never none nobody nothing neither nor cannot without")
NEGATED_CONTRACTIONS = ("n't", "n’t")
NEGATING_VERBS: frozenset[str] = words("""
refuse refuses refused refusing decline declines declined avoid avoids avoided lack lacks
lacked
""")
"""Verbs whose complement is stated as not holding (``refuses to use X``)."""

AUXILIARIES: frozenset[str] = words("""
is are was were be been being am do does did has have had having will would shall should
can could may might must isn't aren't wasn't weren't doesn't don't didn't hasn't haven't
hadn't won't wouldn't can't couldn't shouldn't mustn't
""")

ADVERBS: frozenset[str] = words("""
now currently still also recently actually really just only no longer already often
usually sometimes always never strictly exclusively mostly frequently mainly primarily
temporarily permanently firmly finally eventually officially regularly occasionally
originally previously formerly again back newly then soon later today daily
weekly monthly annually happily fully partly largely generally typically openly quickly
""")
"""Adverbs that may stand between a subject and its verb."""

# Common verbs: lemma -> irregular forms. Regular forms (-s, -es, -ed, -ing) are derived.
_VERBS = """
accept access add adopt advise agree allow apply appear approve arrive ask assign attend
avoid base become begin believe belong book borrow break bring build buy call cancel care
carry cause celebrate change charge check choose cite clean close coach collect come
commute complete compose consider consume contain continue control cook cost create cycle
date deal decide decline decommission deliver depart depend describe design develop die
discover display divorce do draw dream drink drive drop earn eat edit email employ end
enjoy enroll enter expire explain face fail fall feel file fill find finish fire fix
fly focus follow forget found get give go graduate grow hand handle happen hate have head
hear help hire hold host hurt identify include install intend interview introduce invest
invite issue join keep know land last launch lead learn lease leave lend let like list
listen live log look lose love maintain make manage mark marry mean meet migrate mind miss
move need note notice obtain offer open order organize organise outgrow own paint pass pay
perform pick plan plant play practice practise prefer prepare prescribe present prevent
process promote provide publish purchase pursue put quit raise reach read receive recover
redesign refer refuse register reinstall reject relocate remain remarry remember remove
rename renew rent reorder repair repaint replace replant report request require reschedule
reside resign resolve rest restock retire return revert review ride rotate run save say
schedule see seem sell send serve set settle share ship shop show sign sing sit sleep
smoke solve speak specialise specialize spend split sponsor stand start stay step stop
study submit subscribe suffer suggest supply support surf switch take talk teach tell
tend test think tolerate train transfer transition travel try turn underwent undergo
understand update upgrade upload use vacation value visit volunteer vote wait walk want
watch wear win wish work worry write participate shift liquidate abandon resign divest
withdraw adapt admit affect aim analyse analyze announce answer appoint arrange attach
attempt author bake bike camp campaign certify claim climb coauthor collaborate combine
command comment commit compete complain conduct confirm connect consult contribute convert
coordinate correct cover crash debug decrease defend delay delete demand deploy derive
design destroy detect determine differ direct disable discuss dislike dispute dominate
donate double download earn educate elect eliminate email enable encourage engage enhance
ensure establish evaluate examine exchange exercise exist expand expect experience explore
export express extend fear feature fetch fight fix fund gain gather greet guide hike
hope host hunt ignore illustrate imagine implement import improve increase indicate inform
inherit insist inspect inspire insure integrate intend interpret invent investigate join
jog kick kill kiss knit label lack laugh limit link load lock manufacture measure mention
merge mentor monitor narrate negotiate nominate observe occupy occur operate oppose outline
oversee paddle park participate partner permit persuade photograph pilot plug point
possess post pour praise pray predict print produce program prohibit promise propose
protect prove pull punish purchase push qualify question race rank rate react realize
recall recognize recommend record recruit reduce reflect relax release rely renovate
repeat represent research reserve respect respond restore retain reveal rise rotate sail
scan score search secure seek select separate shape shoot sit ski skip smile snowboard
sponsor spread stack stream stretch struggle succeed surf surround survive suspend
swim tag target taste tax test thank threaten tolerate tour trace track trade translate
trust tutor type unlock urge vary verify view vote warn wash weigh welcome wonder worship
wrap yield zoom
"""

_IRREGULAR: dict[str, tuple[str, ...]] = {
    "be": ("is", "are", "was", "were", "been", "being", "am"),
    "have": ("has", "had", "having"),
    "do": ("does", "did", "done", "doing"),
    "go": ("goes", "went", "gone", "going"),
    "become": ("became",), "begin": ("began", "begun"), "break": ("broke", "broken"),
    "bring": ("brought",), "build": ("built",), "buy": ("bought",), "choose": ("chose", "chosen"),
    "come": ("came",), "deal": ("dealt",), "draw": ("drew", "drawn"),
    "dream": ("dreamt",), "drink": ("drank", "drunk"), "drive": ("drove", "driven"),
    "eat": ("ate", "eaten"), "fall": ("fell", "fallen"), "feel": ("felt",), "find": ("found",),
    "fly": ("flew", "flown", "flies"), "forget": ("forgot", "forgotten"),
    "get": ("got", "gotten"), "give": ("gave", "given"), "grow": ("grew", "grown"),
    "hear": ("heard",), "hold": ("held",), "hurt": ("hurt",), "keep": ("kept",),
    "know": ("knew", "known"), "lead": ("led",), "learn": ("learnt",), "leave": ("left",),
    "lend": ("lent",), "let": ("let",), "lose": ("lost",), "make": ("made",), "mean": ("meant",),
    "meet": ("met",), "outgrow": ("outgrew", "outgrown"), "pay": ("paid",), "put": ("put",),
    "quit": ("quit",), "read": ("read",), "ride": ("rode", "ridden"), "run": ("ran",),
    "say": ("said",), "see": ("saw", "seen"), "sell": ("sold",), "send": ("sent",),
    "set": ("set",), "sing": ("sang", "sung"), "sit": ("sat",), "sleep": ("slept",),
    "speak": ("spoke", "spoken"), "spend": ("spent",), "split": ("split",),
    "stand": ("stood",), "take": ("took", "taken"), "teach": ("taught",), "tell": ("told",),
    "think": ("thought",), "understand": ("understood",), "undergo": ("underwent", "undergone"),
    "wear": ("wore", "worn"), "win": ("won",), "write": ("wrote", "written"),
    "overcome": ("overcame",), "withdraw": ("withdrew", "withdrawn"),
}
MODALS: frozenset[str] = words("""
will would shall should can could may might must
""")


def _regular_forms(lemma: str) -> set[str]:
    forms = {lemma}
    if lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
        forms |= {lemma[:-1] + "ies", lemma[:-1] + "ied"}
    elif lemma.endswith(("s", "sh", "ch", "x", "z", "o")):
        forms |= {lemma + "es", lemma + "ed"}
    else:
        forms.add(lemma + "s")
        forms.add(lemma + "d" if lemma.endswith("e") else lemma + "ed")
    if lemma.endswith("e") and not lemma.endswith("ee"):
        forms.add(lemma[:-1] + "ing")
    else:
        forms.add(lemma + "ing")
    # doubled final consonant (stop -> stopped, plan -> planned)
    if (len(lemma) >= 3 and lemma[-1] in "bdgklmnprt" and lemma[-2] in "aeiou"
            and lemma[-3] not in "aeiou" and lemma[-1] != "w"):
        forms |= {lemma + lemma[-1] + "ed", lemma + lemma[-1] + "ing"}
    return forms


def _build_verbs() -> tuple[dict[str, str], frozenset[str], frozenset[str], frozenset[str]]:
    form_to_lemma: dict[str, str] = {}
    third: set[str] = set()
    past: set[str] = set()
    bare: set[str] = set()
    lemmas = set(_VERBS.split()) | set(_IRREGULAR)
    for lemma in lemmas:
        for form in _regular_forms(lemma):
            form_to_lemma.setdefault(form, lemma)
            if form.endswith("ing"):
                continue
            if form == lemma:
                bare.add(form)
            elif form.endswith("s") and not form.endswith("ss"):
                third.add(form)
            else:
                past.add(form)
        for form in _IRREGULAR.get(lemma, ()):
            form_to_lemma[form] = lemma
            if form.endswith("ing"):
                continue
            if form in ("is", "has", "does", "goes", "flies"):
                third.add(form)
            elif form in ("are", "am"):
                bare.add(form)
            else:
                past.add(form)
    return form_to_lemma, frozenset(third), frozenset(past), frozenset(bare)


VERB_LEMMA, VERBS_3SG, VERBS_PAST, VERBS_BARE = _build_verbs()
"""Form -> lemma; finite forms that agree with a third-person singular subject; past
forms (agree with any subject); bare forms (agree with I/we/you/they)."""


def lemma_of(word: str) -> str | None:
    """The verb lemma of ``word`` (lower case) if it is a known verb form."""
    return VERB_LEMMA.get(word.lower())


CESSATION_VERBS: frozenset[str] = words("""
quit leave sell stop abandon outgrow retire resign cancel end drop liquidate depart divest
overcome withdraw
""")
"""Lemmas that report that a prior state ended (``sold the piano``, ``quit the job``)."""
CESSATION_PHRASES: tuple[str, ...] = (
    "no longer", "gave up", "give up", "gives up", "stepped back from", "stepped down",
    "steps down", "moved out of", "moved away from", "broke up with", "dropped out",
    "let expire", "stopped using", "got rid of",
)

CHANGE_MARKERS: tuple[str, ...] = (
    "now", "switched to", "switched back", "moved to", "relocated", "changed to",
    "became", "has become", "upgraded to", "migrated to", "transitioned to", "went back to",
    "came back to", "returned to", "no longer", "instead", "anymore", "any more",
    "started", "joined", "took up", "as of",
)
"""Words that mark a statement as a change of state (write-time intent: replace)."""

CONTINUATION_MARKERS: tuple[str, ...] = ("continues", "continue", "continued", "still",
                                         "keeps", "remains", "remained")

COREFERENCE_CUES: tuple[str, ...] = (
    "same", "alternate", "alternative", "equivalent", "aka", "a.k.a", "also known as",
    "otherwise known as", "alias",
)
"""Words that say a statement is about something already mentioned."""

TOTALITY: frozenset[str] = words("everything all anything entire whole every")
INFO_NOUNS: frozenset[str] = words("""
information info details detail data profile profiles record records history file files
account accounts facts fact memories memory stuff things thing
""")
"""Generic nouns that ask for an entity as a whole (``Sam's profile information``)."""

FIRST_PERSON: frozenset[str] = words("i me my mine myself")
USER_WORDS: frozenset[str] = frozenset(["user", "user's", "users"])

HONORIFICS: frozenset[str] = words("""
mr mrs ms miss mx dr prof professor sir dame lady lord rev fr sr jr
""")
"""Titles before a personal name; stripped from the canonical id."""

ROLE_NOUNS: frozenset[str] = words("""
user customer client patient employee staff contractor vendor supplier subscriber member
student teacher professor engineer developer manager director applicant candidate reviewer
author artist athlete actor actress resident tenant guest visitor account colleague friend
partner person people doctor nurse coach officer agent admin administrator intern owner
buyer seller driver rider passenger player team company department branch office project
ticket order case invoice product device server host record company restaurant hotel
school building book flight course museum store shop band group club
""")
"""Common nouns that introduce a name or an identifier in apposition (``Customer X``)."""

TEMPORAL_WORDS: frozenset[str] = words("""
january february march april may june july august september october november december jan
feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
saturday sunday today yesterday tomorrow tonight week weeks month months year years
quarter spring summer autumn fall winter morning afternoon evening night weekend weekends
decade century semester term season
""")
TEMPORAL_PREPOSITIONS: frozenset[str] = words("""
since until till from to between through throughout during before after as of in starting
beginning ending
""")

ADJUNCT_MARKERS: tuple[str, ...] = (
    "after", "because", "due to", "following", "citing", "thanks to", "as a result of",
    "owing to", "when", "once",
)
"""Subordinators that open a reason or circumstance adjunct."""

# --- topic thesaurus -----------------------------------------------------------------
# domain -> common words. ``functional`` domains hold one value per entity at a time
# (where one lives, who one works for); the others are lists (languages, pets).
DOMAINS: dict[str, frozenset[str]] = {
    "home": words("""
live lives lived living reside resides resided residence resident residency home homes house
houses apartment flat condo cottage cabin bungalow villa loft dorm address street avenue road
lane boulevard city town village suburb hometown neighborhood neighbourhood district rent rents
rented renting landlord tenant lease mortgage relocate relocated relocation based dwell moved
move settled household roommate housemate homeowner
"""),
    "work": words("""
work works worked working job jobs employer employ employed employment employee occupation
profession professional career position role company firm hired hire colleague coworker boss
manager supervisor engineer developer programmer designer architect scientist consultant
analyst lawyer attorney doctor physician nurse surgeon dentist pharmacist teacher professor
lecturer researcher founder founded cofounder ceo cto cfo coo vp director executive intern
freelance freelancer contractor startup industry office team lead leads reports reporting
promotion promoted salary quant banker trader accountant auditor actuary biologist chemist
physicist economist pilot instructor chef cook waiter bartender attendant firefighter
paramedic officer detective clerk cashier electrician plumber carpenter mechanic technician
pediatrician neurosurgeon journalist editor writer reporter photographer coaching coach
business shop retail warehouse factory clinic hospital agency shift employer's workplace
"""),
    "diet": words("""
diet dietary vegan vegetarian pescatarian keto ketogenic paleo omnivore carnivore flexitarian
meat pork beef chicken fish seafood eat eats eating ate food foods cuisine meal meals spicy
dish dishes animal gluten lactose dairy kosher halal fasting calories carbs protein
"""),
    "drink": words("""
drink drinks drinking drank coffee tea alcohol beverage soda juice wine beer espresso latte
cappuccino cocktail whisky whiskey water smoothie caffeine decaf sober
"""),
    "language": words("""
language languages speak speaks spoke spoken speaking fluent fluently fluency proficiency
proficient native natively tongue bilingual multilingual accent dialect english french
spanish german italian portuguese mandarin chinese cantonese japanese korean arabic russian
hindi urdu bengali dutch swedish norwegian danish finnish greek hebrew turkish polish czech
ukrainian vietnamese thai indonesian swahili persian farsi learning immersion
"""),
    "transport": words("""
car cars vehicle vehicles drive drives drove driven driving driver truck trucks sedan suv
van pickup hatchback minivan convertible coupe motorcycle motorbike scooter moped bike bikes
bicycle cycling cycles cyclist transit bus buses train trains tram subway metro ferry
commute commutes commuting commuter lease leasing electric hybrid transportation taxi
carpool walks walking foot
"""),
    "pet": words("""
pet pets dog dogs puppy puppies cat cats kitten kittens retriever poodle collie terrier
labrador greyhound spaniel shepherd beagle bulldog husky dachshund hamster parrot rabbit
guinea turtle tortoise goldfish horse pony adopted adopt adoption rescue vet veterinarian
"""),
    "relationship": words("""
married marry marriage marital spouse wife husband partner divorce divorced engaged
engagement fiance fiancee single wedding widowed widow widower separated dating girlfriend
boyfriend remarried relationship
"""),
    "family": words("""
sibling siblings brother brothers sister sisters twin twins child children son sons daughter
daughters parent parents mother father mom dad grandmother grandfather grandparent uncle
aunt cousin niece nephew half-sister half-brother stepmother stepfather family kids baby
"""),
    "health": words("""
allergy allergies allergic anaphylaxis sensitivity intolerance intolerant diagnosed
diagnosis medication medications medicine medical prescribed prescription disease condition
diabetes hypertension asthma migraine arthritis cancer surgery injury injured therapy
immunotherapy remission health healthy cholesterol treatment symptoms chronic illness sick
glasses vision hearing fear afraid phobia anxiety depression nut nuts peanut peanuts
shellfish pollen penicillin insulin vaccine vaccinated blood pressure
"""),
    "education": words("""
phd degree degrees doctorate master masters bachelor bachelors university college school
studied study studies studying student students graduate graduated graduating graduation
education academic academia bootcamp postdoc diploma enrolled enrollment course courses
semester thesis dissertation research major minor alumnus alumna campus tuition scholarship
"""),
    "music": words("""
music musical musician instrument instruments piano violin cello viola guitar bass drums
flute clarinet saxophone trumpet trombone harp ukulele sing singing singer choir band
orchestra pitch vinyl concert concerts composer song songs
"""),
    "sport": words("""
sport sports run runs running runner marathon marathons ultramarathon triathlon triathlons
gym yoga pilates tennis soccer football basketball baseball volleyball rugby cricket golf
hockey hiking hike climbing swimming swim surfing skiing snowboarding rowing boxing
wrestling fencing athletic athlete archery judo karate taekwondo martial belt chess
shooting fitness workout workouts training
"""),
    "media": words("""
tv television watch watches watching movie movies film films cinema cinematic series show
shows podcast podcasts streaming stream documentary documentaries subscription video videos
channel episode episodes anime sitcom
"""),
    "reading": words("""
book books read reads reading reader novel novels author authors literary literature fiction
nonfiction genre poetry poem poems poet poetic writing writes wrote writer stories story
published publishing publisher bestseller blog library magazine comics
"""),
    "travel": words("""
travel travels traveled travelled traveling travelling visit visited visiting trip trips
flight flights fly vacation holiday abroad backpacking tour touring journey booked booking
passport itinerary hotel airport cruise
"""),
    "politics": words("""
political politics party democrat democratic republican independent libertarian
conservative liberal progressive socialist vote voter voted voting registered
registration affiliation allegiance election elections campaign
"""),
    "tech": words("""
phone phones smartphone device devices laptop computer workstation desktop tablet browser
os software app apps smart thermostat database databases cloud server servers operating
system linux windows keyboard monitor gadget
"""),
    "personality": words("""
introvert introverted extrovert extroverted ambivert shy outgoing social temperament
personality gatherings meetup quiet reserved sociable talkative
"""),
    "sleep": words("""
sleep sleeps sleeping slept morning night nights shift shifts schedule early late nocturnal
insomnia nap naps bedtime wake
"""),
    "preference": words("""
prefer prefers preferred preference preferences favorite favourite likes like liked love
loves loved enjoy enjoys enjoyed theme mode color colour
"""),
    "credential": words("""
password passwords passcode passphrase pin otp token tokens key keys secret secrets
credential credentials login logins code codes verification 2fa mfa apikey username
"""),
    "money": words("""
payment payments pay pays paid card cards billing invoice invoices plan plans tier tiers
subscription refund price budget salary balance wire transfer crypto cryptocurrency
investments investment invests invest investing finance financial holdings coupon loan
savings bank account stocks shares portfolio
"""),
    "hobby": words("""
hobby hobbies pastime spare collect collects collecting collection collector gardening
garden baking bake bakes painting paint paints photography knitting sewing crafts
woodworking volunteer volunteers volunteering pottery fishing camping birdwatching
"""),
    "aviation": words("""
pilot pilots aviation flying aircraft airplane plane license licence licensed
"""),
}
FUNCTIONAL_DOMAINS: frozenset[str] = frozenset(
    {"home", "work", "diet", "transport", "relationship", "politics", "sleep",
     "personality"})
"""Domains that hold one current value per entity; the rest hold lists."""


def _build_domains() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    for domain, words in DOMAINS.items():
        for word in words:
            for key in (word, stem(word)):
                table.setdefault(key, set()).add(domain)
    return {k: frozenset(v) for k, v in table.items()}


WORD_DOMAINS: dict[str, frozenset[str]] = _build_domains()


def domains_of(word: str) -> frozenset[str]:
    """The topic domains of a word (by surface form or its recall stem,
    :func:`projections.tokens.stem`); empty when unknown."""
    w = word.lower()
    return WORD_DOMAINS.get(w) or WORD_DOMAINS.get(stem(w)) or frozenset()
