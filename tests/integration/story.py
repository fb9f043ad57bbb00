"""A small history with every shape the pictures and the report must show.

Drift with reasons (Firefox -> Chrome -> Edge), a correction (Detriot -> Detroit), a
forgotten fact, a purged chain beside surviving facts, a consumption receipt, and a
whole-entity purge of another person. The clock moves an hour between commits.
"""

from __future__ import annotations

from dataclasses import dataclass

import memory_es
from tests.fakes import FakeClock, day

TENANT = "acme"
ALEX = "user:alex"


@dataclass(frozen=True)
class Story:
    """The ids the tests look at."""

    browser: str
    city: str
    forgotten: str
    purged: str
    receipt_id: str


def write_story(store: memory_es.MemoryStore, clock: FakeClock) -> Story:
    """Write the history into ``store`` (tenant ``acme``) and return its ids."""
    def tick() -> None:
        clock.advance(hours=1)

    first = store.assert_fact(TENANT, ALEX, "browser.default", "Firefox", valid_from=day(0),
                              source="chat:1")
    tick()
    store.supersede(TENANT, ALEX, "browser.default", "Chrome", valid_from=day(150),
                    source="chat:7", reason="user switched browsers")
    tick()
    typo = store.assert_fact(TENANT, ALEX, "home.city", "Detriot", valid_from=day(-300),
                             source="form:signup")
    tick()
    edge = store.supersede(TENANT, ALEX, "browser.default", "Edge", valid_from=day(240),
                           source="chat:12", reason="new laptop")
    tick()
    store.correct(str(typo.fact_id), "Detroit", reason="typo in the sign-up form")
    tick()
    mood = store.assert_fact(TENANT, ALEX, "mood.today", "grumpy")
    tick()
    store.forget_fact(str(mood.fact_id), reason="user asked to forget")
    tick()
    secret = store.assert_fact(TENANT, ALEX, "pref.secret", "the blue door")
    tick()
    store.recall(TENANT, "which browser does alex use", 3, receipt=True, caller="agent-7")
    tick()
    receipt = store.purge(TENANT, ALEX, fact_id=str(secret.fact_id), requested_by="dpo@acme")
    store.assert_fact(TENANT, "user:dana", "pref.turnover", "low")
    tick()
    store.purge(TENANT, "user:dana", requested_by="dpo@acme")
    assert first.fact_id is not None and edge.fact_id is not None
    return Story(browser=str(edge.fact_id), city=str(typo.fact_id),
                 forgotten=str(mood.fact_id), purged=str(secret.fact_id),
                 receipt_id=receipt.receipt_id)
