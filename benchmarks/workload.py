"""The rows every speed figure writes: the store, the floors, the hand-written table and
the peer all get exactly these facts, supersedes and queries (seeded).

Row ``k`` belongs to entity ``user:u{k // 10}`` and attribute ``ATTRS[k % 10]``; its
value is drawn from that attribute's vocabulary and its text reads like a sentence an
agent would store ("user:u42 lives in Oslo"), so recall has words to work with.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

TENANT = "bench"
BASE = datetime(2024, 1, 1, tzinfo=UTC)

# attribute, sentence template, vocabulary
ATTRS: list[tuple[str, str, tuple[str, ...]]] = [
    ("home.city", "{e} lives in {v}", ("Oslo", "Detroit", "Lisbon", "Kyoto", "Austin",
                                       "Nairobi", "Chicago", "Bergen", "Porto", "Denver")),
    ("work.employer", "{e} works at {v}", ("Acme", "Globex", "Initech", "Umbrella", "Hooli",
                                           "Vandelay", "Stark", "Wayne", "Tyrell", "Cyberdyne")),
    ("pref.drink", "{e} likes to drink {v}", ("espresso", "green tea", "oat latte",
                                               "sparkling water", "cold brew", "chai",
                                               "cocoa", "mate", "kombucha", "americano")),
    ("pref.editor", "{e} writes code in {v}", ("vim", "emacs", "vscode", "helix", "zed",
                                                "pycharm", "nano", "sublime", "kate", "xcode")),
    ("pet.name", "{e} has a pet called {v}", ("Rex", "Mochi", "Luna", "Biscuit", "Pixel",
                                               "Nala", "Otis", "Ziggy", "Pepper", "Juno")),
    ("device.browser", "{e} browses with {v}", ("Firefox", "Chrome", "Edge", "Safari",
                                                 "Brave", "Vivaldi", "Opera", "Arc",
                                                 "Lynx", "Chromium")),
    ("diet.restriction", "{e} avoids eating {v}", ("peanuts", "gluten", "shellfish", "dairy",
                                                    "pork", "soy", "eggs", "sesame",
                                                    "mustard", "celery")),
    ("commute.mode", "{e} commutes by {v}", ("bike", "subway", "bus", "car", "tram",
                                              "ferry", "scooter", "train", "foot", "kayak")),
    ("team.name", "{e} is on the {v} team", ("platform", "billing", "search", "mobile",
                                              "infra", "growth", "data", "security",
                                              "design", "support")),
    ("project.current", "{e} is working on project {v}", ("atlas", "borealis", "cobalt",
                                                            "delta", "ember", "falcon",
                                                            "granite", "harbor", "ion",
                                                            "juniper")),
]

QUERY_FORMS = {
    "home.city": "where does {e} live",
    "work.employer": "which company employs {e}",
    "pref.drink": "what does {e} like to drink",
    "pref.editor": "which editor does {e} use",
    "pet.name": "what is the name of {e}'s pet",
    "device.browser": "which browser does {e} use",
    "diet.restriction": "what food does {e} avoid",
    "commute.mode": "how does {e} get to work",
    "team.name": "which team is {e} on",
    "project.current": "what project is {e} working on",
}


@dataclass(frozen=True)
class Row:
    k: int
    entity: str
    attribute: str
    value: str
    text: str
    valid_from: datetime


def row(k: int, seed: int = 7) -> Row:
    """The ``k``-th fact of the workload (pure function of ``k`` and ``seed``)."""
    entity = f"user:u{k // 10}"
    attribute, template, vocab = ATTRS[k % 10]
    value = vocab[(k * 7 + seed + k // 10) % len(vocab)]
    return Row(k, entity, attribute, value, template.format(e=entity, v=value),
               BASE + timedelta(seconds=k))


def rows(start: int, stop: int) -> list[Row]:
    return [row(k) for k in range(start, stop)]


def supersede_targets(n: int, limit: int = 1_000) -> list[Row]:
    """Entities whose ``home.city`` moves (for as-of history), at most ``limit``."""
    step = max(1, (n // 10) // limit)
    out = []
    for u in range(0, n // 10, step)[:limit]:
        city = ATTRS[0][2][(u * 3 + 1) % 10]
        entity = f"user:u{u}"
        out.append(Row(u * 10, entity, "home.city", f"New {city}",
                       f"{entity} lives in New {city}", BASE + timedelta(days=400)))
    return out


def point_queries(n: int, count: int, seed: int = 11) -> list[tuple[str, str]]:
    """(entity, attribute) pairs for point reads, uniformly over the loaded entities."""
    rng = random.Random(seed)
    return [(f"user:u{rng.randrange(max(1, n // 10))}", ATTRS[rng.randrange(10)][0])
            for _ in range(count)]


def recall_queries(n: int, count: int, seed: int = 13) -> list[str]:
    return [QUERY_FORMS[a].format(e=e) for e, a in point_queries(n, count, seed)]


def purge_targets(n: int, count: int, seed: int = 17) -> list[str]:
    rng = random.Random(seed)
    pool = list(range(max(1, n // 10)))
    rng.shuffle(pool)
    return [f"user:u{u}" for u in pool[:count]]
