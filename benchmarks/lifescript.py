"""Longitudinal currency: a seeded "life script", then the store replaying it for weeks.

The sampler first draws **facts** — for each person, each slot's timeline of values with
validity intervals, a volatility class (stable, periodic, volatile) and a source channel
(chat -> ``user``, HR tool -> ``third_party``, the agent's own reasoning -> ``inference``)
— and only then **renders** them as operations on a simulated clock. The gold answer
for any moment is read off the drawn timeline, so it is right by construction.

Rendering includes what happens in real use: values recorded wrong and corrected hours
later (``correct``), changes learned late (retroactive ``supersede``), one-time codes
that lapse by their own validity interval, inferences derived from a premise (the time
zone from the home city) that must die with it and be re-derived, and an agent's
inference that contradicts what the user said (must never win).

Reported, for 3 and 9 simulated weeks:

* **currency accuracy** on slots updated at least once — the store's ``current`` serves
  exactly the gold value — stratified by tenure (how long the slot has been remembered)
  and by volatility;
* **contradiction rate** — slots with more than one active value (must be 0);
* **time to currency** — reads between a correction or supersede and the store serving
  it (1 = the first read after the write);
* **orphaned inferences** — current derived facts whose premise is not current (must be 0).
"""

from __future__ import annotations

import random
import shutil
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import memory_es
from benchmarks.common import Progress, not_yet

START = datetime(2025, 3, 3, 8, tzinfo=UTC)
TENANT = "life"
CORRECTION_DELAY = timedelta(hours=2)
OTP_LIFETIME = timedelta(minutes=10)

CITIES = ("Oslo", "Lisbon", "Denver", "Kyoto", "Nairobi", "Porto", "Quito", "Tallinn",
          "Austin", "Bergen", "Hanoi", "Lyon")
TIMEZONE = {"Oslo": "CET", "Lisbon": "WET", "Denver": "MST", "Kyoto": "JST",
            "Nairobi": "EAT", "Porto": "WET", "Quito": "ECT", "Tallinn": "EET",
            "Austin": "CST", "Bergen": "CET", "Hanoi": "ICT", "Lyon": "CET"}
EMPLOYERS = ("Acme", "Globex", "Initech", "Hooli", "Vandelay", "Tyrell", "Umbrella")
PROJECTS = ("atlas", "borealis", "cobalt", "delta", "ember", "falcon", "granite")
ROTATIONS = ("primary on-call", "secondary on-call", "off rotation")
PLACES = ("home office", "head office", "client site", "coworking space", "train",
          "airport lounge", "cafe")


@dataclass(frozen=True)
class Slot:
    attribute: str
    volatility: str
    channel: str  # user | third_party
    vocab: tuple[str, ...]
    mean_days: float  # mean time between changes
    template: str


SLOTS = (
    Slot("home.city", "stable", "user", CITIES, 35.0, "{p} lives in {v}"),
    Slot("work.employer", "stable", "third_party", EMPLOYERS, 45.0, "{p} works at {v}"),
    Slot("project.current", "periodic", "user", PROJECTS, 14.0, "{p} is working on {v}"),
    Slot("oncall.rotation", "periodic", "third_party", ROTATIONS, 7.0, "{p} is {v} this week"),
    Slot("location.now", "volatile", "user", PLACES, 1.5, "{p} is at the {v}"),
)


@dataclass
class Change:
    """One drawn change of a slot: true value from ``at``; told at ``told``."""

    person: str
    slot: Slot
    at: datetime
    value: str
    told: datetime
    wrong_first: str | None = None  # recorded wrong, then corrected 2 h later
    first: bool = False


@dataclass
class Script:
    weeks: int
    seed: int
    people: list[str]
    onboard: dict[str, datetime]
    changes: list[Change]
    otps: list[tuple[str, datetime]]
    attacks: list[tuple[str, datetime, str]]
    end: datetime

    def gold(self, person: str, attribute: str, at: datetime) -> str | None:
        """The true value of a slot at ``at``, as far as the store has been told."""
        best: Change | None = None
        for c in self.timeline[(person, attribute)]:
            if c.told <= at and c.at <= at and (best is None or c.at >= best.at):
                best = c
        if best is None:
            return None
        if best.wrong_first and at < best.told + CORRECTION_DELAY:
            return best.wrong_first  # what the store was told until the correction came
        return best.value

    timeline: dict[tuple[str, str], list[Change]] = field(default_factory=dict)


def sample(weeks: int, people: int, seed: int = 42) -> Script:
    """Draw the facts first (values, intervals, volatility, channel), no text, no ops."""
    rng = random.Random(seed)
    end = START + timedelta(weeks=weeks)
    names = [f"person:p{i:03d}" for i in range(people)]
    onboard = {p: START + timedelta(days=rng.uniform(0, weeks * 7 * 0.2)) for p in names}
    changes: list[Change] = []
    for p in names:
        for slot in SLOTS:
            t = onboard[p] + timedelta(minutes=rng.uniform(0, 120))
            value = rng.choice(slot.vocab)
            first = True
            while t < end:
                delay = timedelta(hours=rng.uniform(1, 8)) if rng.random() < 0.15 and not first \
                    else timedelta(0)
                wrong = None
                if rng.random() < 0.10:
                    wrong = rng.choice([v for v in slot.vocab if v != value])
                changes.append(Change(p, slot, t, value, t + delay, wrong, first))
                first = False
                gap = rng.expovariate(1.0 / slot.mean_days)
                t = t + timedelta(days=max(gap, 0.6))
                value = rng.choice([v for v in slot.vocab if v != value])
    otps = []
    attacks = []
    for p in names:
        t = onboard[p] + timedelta(days=rng.uniform(0.5, 3))
        while t < end:
            otps.append((p, t))
            t += timedelta(days=rng.uniform(2, 4))
        t = onboard[p] + timedelta(days=rng.uniform(2, 9))
        while t < end:
            attacks.append((p, t, rng.choice(CITIES)))
            t += timedelta(days=rng.uniform(5, 10))
    script = Script(weeks, seed, names, onboard, sorted(changes, key=lambda c: c.told),
                    otps, attacks, end)
    timeline: dict[tuple[str, str], list[Change]] = defaultdict(list)
    for c in changes:
        timeline[(c.person, c.slot.attribute)].append(c)
    script.timeline = dict(timeline)
    return script


@dataclass(order=True)
class Step:
    at: datetime
    order: int
    kind: str = field(compare=False)
    data: Any = field(compare=False, default=None)


def render(script: Script) -> list[Step]:
    """The drawn facts as operations on the clock (text rendering: see ``text_lines``)."""
    steps: list[Step] = []
    n = 0
    for c in script.changes:
        steps.append(Step(c.told, n, "change", c))
        n += 1
        if c.wrong_first:
            steps.append(Step(c.told + CORRECTION_DELAY, n, "correct", c))
            n += 1
    for p, t in script.otps:
        steps.append(Step(t, n, "otp", p))
        n += 1
    for p, t, city in script.attacks:
        steps.append(Step(t, n, "attack", (p, city)))
        n += 1
    day = START.replace(hour=23, minute=30)
    while day < script.end:
        steps.append(Step(day, n, "probe"))
        n += 1
        day += timedelta(days=1)
    return sorted(steps)


def text_lines(script: Script) -> list[str]:
    """The same facts as sentences an agent would hear (used when the text interface
    exists; the operations above are the ground truth either way)."""
    return [c.slot.template.format(p=c.person.split(":")[1], v=c.value)
            for c in script.changes]


class SimClock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


TENURE_BUCKETS = ((0, 7, "0-1 wk"), (7, 21, "1-3 wk"), (21, 42, "3-6 wk"), (42, 10**6, "6-9 wk"))


def _bucket(days: float) -> str:
    return next(name for lo, hi, name in TENURE_BUCKETS if lo <= days < hi)


def replay(script: Script, folder: Path, progress: Progress) -> dict[str, Any]:
    """Run the rendered script against a fresh store and score it against the gold."""
    clock = SimClock()
    store = memory_es.open(folder / f"life-{script.weeks}w", clock=clock)
    steps = render(script)
    fact_of: dict[tuple[str, str], str] = {}   # slot -> fact id of the value told last
    tz_fact: dict[str, str] = {}
    updates_told: dict[tuple[str, str], int] = defaultdict(int)
    first_told: dict[tuple[str, str], datetime] = {}
    ttc: list[int] = []
    ttc_missed = 0
    acc: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    acc_vol: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    contradictions = 0
    slot_checks = 0
    orphans_max = 0
    otp_leaks = 0
    attack_wins = 0
    ops = 0
    errors: list[str] = []
    t0 = time.perf_counter()

    def served(person: str, attribute: str) -> list[Any]:
        return [f.value for f in store.current(TENANT, entity=person, attribute=attribute)]

    def derive_tz(person: str) -> None:
        city_fact = fact_of.get((person, "home.city"))
        city = script.gold(person, "home.city", clock.now)
        if city_fact is None or city is None:
            return
        r = store.assert_fact(TENANT, person, "home.timezone", TIMEZONE[city],
                              asserted_by="inference", derived_from=[city_fact],
                              text=f"{person} is in the {TIMEZONE[city]} time zone",
                              source="agent:reasoning")
        tz_fact[person] = r.fact_id or ""

    try:
        for step in progress.bar(steps, f"life script {script.weeks} wk", len(steps), "step"):
            clock.now = max(clock.now, step.at)
            if step.kind == "change":
                c: Change = step.data
                key = (c.person, c.slot.attribute)
                recorded = c.wrong_first or c.value
                text = c.slot.template.format(p=c.person, v=recorded)
                if c.first:
                    r = store.assert_fact(TENANT, c.person, c.slot.attribute, recorded,
                                          valid_from=c.at, text=text, asserted_by=c.slot.channel,
                                          volatility=c.slot.volatility, source="chat")
                    first_told[key] = c.told
                else:
                    r = store.supersede(TENANT, c.person, c.slot.attribute, recorded,
                                        valid_from=c.at, text=text,
                                        asserted_by=c.slot.channel,
                                        volatility=c.slot.volatility, source="chat")
                    updates_told[key] += 1
                ops += 1
                fact_of[key] = r.fact_id or ""
                if not c.wrong_first and not c.first:
                    reads = 0
                    for reads in range(1, 6):  # noqa: B007  (the count is the measure)
                        if served(c.person, c.slot.attribute) == [c.value]:
                            break
                    else:
                        ttc_missed += 1
                    ttc.append(reads)
                if c.slot.attribute == "home.city" and not c.wrong_first:
                    derive_tz(c.person)
                    ops += 1
            elif step.kind == "correct":
                c = step.data
                key = (c.person, c.slot.attribute)
                r = store.correct(fact_of[key], c.value,
                                  text=c.slot.template.format(p=c.person, v=c.value),
                                  reason="recorded wrong")
                fact_of[key] = r.fact_id or fact_of[key]
                updates_told[key] += 1
                ops += 1
                for reads in range(1, 6):  # noqa: B007
                    if served(c.person, c.slot.attribute) == [c.value]:
                        break
                else:
                    ttc_missed += 1
                ttc.append(reads)
                if c.slot.attribute == "home.city":
                    derive_tz(c.person)
                    ops += 1
            elif step.kind == "otp":
                person = step.data
                code = f"{random.Random(f'{person}{step.at}').randrange(10**6):06d}"
                store.assert_fact(TENANT, person, "auth.otp", code, valid_from=step.at,
                                  valid_until=step.at + OTP_LIFETIME,
                                  volatility="volatile", text=f"{person}'s login code is {code}",
                                  source="sms")
                ops += 1
            elif step.kind == "attack":
                person, city = step.data
                if (person, "home.city") in fact_of and \
                        city != script.gold(person, "home.city", clock.now):
                    store.assert_fact(TENANT, person, "home.city", city, asserted_by="inference",
                                      text=f"{person} lives in {city}", source="agent:guess")
                    ops += 1
            elif step.kind == "probe":
                current = store.current(TENANT)
                by_slot: dict[tuple[str, str], list[Any]] = defaultdict(list)
                for f in current:
                    by_slot[(f.entity or "", f.attribute)].append(f.value)
                for values in by_slot.values():
                    slot_checks += 1
                    if len(set(map(str, values))) > 1 or len(values) > 1:
                        contradictions += 1
                live_otp = {p for p, t in script.otps
                            if t <= clock.now < t + OTP_LIFETIME}  # gold: still valid now
                otp_leaks += sum(1 for (p, a) in by_slot if a == "auth.otp" and p not in live_otp)
                for key, n_updates in updates_told.items():
                    if n_updates < 1:
                        continue
                    gold = script.gold(key[0], key[1], clock.now)
                    ok = by_slot.get(key, []) == [gold]
                    tenure = (clock.now - first_told[key]).total_seconds() / 86400
                    bucket = _bucket(tenure)
                    acc[bucket][0] += ok
                    acc[bucket][1] += 1
                    vol = next(s.volatility for s in SLOTS if s.attribute == key[1])
                    acc_vol[vol][0] += ok
                    acc_vol[vol][1] += 1
                    if key[1] == "home.city" and not ok and by_slot.get(key):
                        attack_wins += any(v != gold for v in by_slot[key])
                orphans_max = max(orphans_max, orphans(store))
        updated = sorted(k for k, v in updates_told.items() if v >= 1)
        via_recall = recall_currency(store, script, updated)
        via_ledger: dict[str, Any] | str = ledger_precision(store, script, updated)
    except memory_es.MemoryESError as e:
        errors.append(f"{type(e).__name__}: {e}")
        via_recall = via_ledger = f"n/a: {type(e).__name__}"
    finally:
        elapsed = time.perf_counter() - t0
        store.close()

    total = sum(v[1] for v in acc.values())
    right = sum(v[0] for v in acc.values())
    return {
        "weeks": script.weeks, "people": len(script.people), "operations": ops,
        "probes": sum(1 for s in steps if s.kind == "probe"),
        "currency_accuracy": right / total if total else None,
        "recall_currency_at_end": via_recall,
        "recall_with_and_without_ledger": via_ledger,
        "currency_checks": total,
        "by_tenure": {b: {"accuracy": v[0] / v[1], "checks": v[1]}
                      for b, v in sorted(acc.items(), key=lambda kv: kv[0])},
        "by_volatility": {b: {"accuracy": v[0] / v[1], "checks": v[1]}
                          for b, v in acc_vol.items()},
        "contradiction_rate": contradictions / slot_checks if slot_checks else None,
        "contradictions": contradictions,
        "time_to_currency_reads": {"mean": sum(ttc) / len(ttc) if ttc else None,
                                   "max": max(ttc) if ttc else None, "n": len(ttc),
                                   "not_served_within_5": ttc_missed},
        "orphaned_inferences_max": orphans_max,
        "lapsed_otp_served": otp_leaks,
        "inference_attack_wins": attack_wins,
        "attacks": len(script.attacks),
        "corrections": sum(1 for c in script.changes if c.wrong_first),
        "late_arrivals": sum(1 for c in script.changes if c.told > c.at),
        "seconds": elapsed,
        "errors": errors,
    }


RECALL_QUERIES = {"home.city": "where does {p} live", "work.employer": "where does {p} work",
                  "project.current": "what is {p} working on",
                  "oncall.rotation": "is {p} on call this week",
                  "location.now": "where is {p} right now"}


def recall_currency(store: memory_es.MemoryStore, script: Script,
                    slots: list[tuple[str, str]], k: int = 5) -> dict[str, Any] | str:
    """Through ``recall``: the gold value in the top-k and no earlier value of the slot."""
    fn = getattr(store, "recall", None)
    if fn is None:
        return not_yet("store.recall (recall issue)")
    ok = stale = 0
    for person, attribute in slots:
        gold = script.gold(person, attribute, script.end)
        old = {c.value for c in script.timeline[(person, attribute)]} - {gold}
        old |= {c.wrong_first for c in script.timeline[(person, attribute)] if c.wrong_first}
        hits = fn(TENANT, RECALL_QUERIES[attribute].format(p=person), k=k)
        values = [h.fact.value for h in hits if h.fact.attribute == attribute
                  and h.fact.entity == person]
        leaked = bool(old & set(map(str, values)))
        stale += leaked
        ok += (gold in values) and not leaked
    return {"accuracy": ok / len(slots) if slots else None, "slots": len(slots),
            "stale_in_top_k": stale, "k": k}


def ledger_precision(store: memory_es.MemoryStore, script: Script,
                     slots: list[tuple[str, str]], rounds: int = 4,
                     k: int = 3) -> dict[str, Any]:
    """Recall precision with and without the utility ledger (SPEC §12.2), on the same
    store at the end of the script: first without judgements (the store as it is), then
    ``rounds`` rounds in which a simulated user, reading the gold timeline, judges what
    each recall served: the slot's current gold fact helpful; a stale value of the slot or
    another person's fact misleading; the person's other facts neutral (they answer other
    questions). Reported: hit@1 (the top hit is the gold fact) and precision@k."""
    def measure(judge: bool) -> tuple[float, float]:
        top = inside = 0
        for person, attribute in slots:
            gold = script.gold(person, attribute, script.end)
            hits = store.recall(TENANT, RECALL_QUERIES[attribute].format(p=person), k=k,
                                receipt=judge)
            right = [h.fact.entity == person and h.fact.attribute == attribute
                     and str(h.fact.value) == str(gold) for h in hits]
            top += bool(right and right[0])
            inside += sum(right)
            if judge and hits and hits[0].recall_id is not None:
                wrong = [h.fact.entity != person or h.fact.attribute == attribute
                         for h in hits]
                helpful = [h.fact.fact_id for h, r in zip(hits, right, strict=True) if r]
                misleading = [h.fact.fact_id for h, r, w in zip(hits, right, wrong, strict=True)
                              if w and not r]
                if helpful or misleading:  # nothing to say: the served facts stay neutral
                    store.judge(TENANT, hits[0].recall_id, helpful=helpful,
                                misleading=misleading)
        n = max(1, len(slots))
        return top / n, inside / (n * k)

    without = measure(judge=False)
    for _ in range(rounds):
        measure(judge=True)
    with_ledger = measure(judge=False)
    return {"slots": len(slots), "k": k, "rounds_of_feedback": rounds,
            "without_ledger": {"hit_at_1": without[0], "precision_at_k": without[1]},
            "with_ledger": {"hit_at_1": with_ledger[0], "precision_at_k": with_ledger[1]}}


NAMES = ("Amara Okafor", "Bjorn Lind", "Chen Wei", "Dalia Haddad", "Emil Novak", "Farah Aziz",
         "Goran Petrovic", "Hana Sato", "Ivo Costa", "Jonas Berg", "Kemal Arslan", "Lena Vogel")
TEXT_FORMS = {"home.city": ("{n} lives in {v}.", "{n}'s home city", "where does {n} live"),
              "work.employer": ("{n} works at {v}.", "{n}'s employer",
                                "where does {n} work"),
              "project.current": ("{n} is working on project {v}.", "{n}'s current project",
                                  "which project is {n} working on")}


def text_replay(script: Script, folder: Path, progress: Progress) -> dict[str, Any] | str:
    """The same drawn facts rendered as sentences through the text interface
    (``remember`` for a first value, ``revise`` for a change), scored with
    ``recall_texts``: the gold value present, no earlier value of the slot present."""
    clock = SimClock()
    store = memory_es.open(folder / f"life-text-{script.weeks}w", clock=clock)
    try:
        missing = [m for m in ("remember", "revise", "recall_texts")
                   if not callable(getattr(store, m, None))]
        if missing:
            return not_yet(f"store.{'/'.join(missing)} (text interface, recall issue)")
        name = {p: NAMES[i % len(NAMES)] for i, p in enumerate(script.people)}
        changes = [c for c in script.changes if c.slot.attribute in TEXT_FORMS]
        ok = stale = checks = 0
        errors: list[str] = []
        told: dict[tuple[str, str], int] = defaultdict(int)
        for c in progress.bar(changes, f"life script text {script.weeks} wk", len(changes),
                              "text"):
            clock.now = max(clock.now, c.told)
            say, about, _ = TEXT_FORMS[c.slot.attribute]
            n = name[c.person]
            try:
                if c.first:
                    store.remember(TENANT, say.format(n=n, v=c.value))
                else:
                    store.revise(TENANT, about.format(n=n), say.format(n=n, v=c.value))
            except memory_es.MemoryESError as e:
                errors.append(f"{type(e).__name__}: {e}")
            told[(c.person, c.slot.attribute)] += 1
        clock.now = max(clock.now, script.end)
        for (person, attribute), n_told in told.items():
            if n_told < 2:
                continue
            checks += 1
            gold = next(c.value for c in sorted(script.timeline[(person, attribute)],
                                                key=lambda c: c.at, reverse=True)
                        if c.told <= clock.now)
            old = {c.value for c in script.timeline[(person, attribute)]} - {gold}
            first = name[person].split()[0].casefold()
            texts = store.recall_texts(TENANT, TEXT_FORMS[attribute][2].format(n=name[person]),
                                       k=5)
            # only this person's sentences count (another person may share a value)
            blob = " ".join(t for t in texts if first in t.casefold()).casefold()
            leaked = any(o.casefold() in blob for o in old)
            stale += leaked
            ok += gold.casefold() in blob and not leaked
        return {"weeks": script.weeks, "sentences": len(changes), "slots_checked": checks,
                "accuracy": ok / checks if checks else None, "stale_in_top_5": stale,
                "errors": errors[:5], "error_count": len(errors)}
    finally:
        store.close()


def orphans(store: memory_es.MemoryStore) -> int:
    """Current derived facts with a premise that is not current (must be 0)."""
    table = store.sql(
        "WITH d AS (SELECT fact_id, unnest(derived_from) AS premise FROM facts_current "
        "WHERE len(derived_from) > 0) "
        "SELECT count(DISTINCT d.fact_id) AS n FROM d WHERE d.premise NOT IN "
        "(SELECT fact_id FROM facts_current)")
    return int(table.column("n")[0].as_py())


def run(progress: Progress, weeks: tuple[int, ...] = (3, 9), people: int = 8,
        seed: int = 42) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="me-bench-life-"))
    out: dict[str, Any] = {"seed": seed, "people": people, "runs": {}}
    try:
        out["text_interface"] = {}
        for w in weeks:
            script = sample(w, people, seed)
            out["runs"][f"{w}w"] = replay(script, folder, progress)
            out["text_interface"][f"{w}w"] = text_replay(script, folder, progress)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out
