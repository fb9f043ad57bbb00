"""Dedup outcomes and auto-links (SPEC §12.5, §12.7) against a brute-force reference.

The reference below scores every note of the tenant with the store's embedder (one
float32 dot product of two text vectors), applies the rules as the SPEC words them, and
keeps its own links; it shares no code with the notes service or its pure rules. The
service searches its own vector index from a few neighbours up, so the cap is lowered
to 3 links and the first searches to 2 neighbours (1 for dedup): the widening, the evictions and the
re-embedding of a corrected note are all exercised on a handful of notes (and the
quality gate, tested elsewhere, lets every text through)."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast
from unittest import mock

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import memory_es
from memory_es.domain import notes as note_rules
from memory_es.services import notes as note_service

CAP = 3
T = "ref"
VOCAB = ["cache", "disk", "latency", "found", "because", "queue", "retry", "index"]
AGENTS = (None, "a", "b")


@dataclass
class RefNote:
    fid: str
    entity: str
    category: str
    text: str
    agent: str | None
    shared: bool
    current: bool = True

    @property
    def owner(self) -> str | None:
        return None if self.agent is None or self.shared else self.agent

    def seen_by(self, reader: str | None) -> bool:
        return self.owner is None or self.owner == reader


@dataclass
class Reference:
    embed: object
    notes: dict[str, RefNote] = field(default_factory=dict)
    links: dict[str, dict[str, float]] = field(default_factory=dict)

    def sim(self, a: str, b: str) -> float:
        va, vb = self.embed([a])[0], self.embed([b])[0]  # type: ignore[operator]
        return float(va @ vb)

    def live_links(self, fid: str, reader: str | None) -> dict[str, float]:
        return {o: s for o, s in self.links.get(fid, {}).items()
                if self.notes[o].current and self.notes[o].seen_by(reader)}

    def write(self, entity: str, category: str, text: str, agent: str | None,
              shared: bool, gate: bool) -> tuple[str, str | None]:
        """(expected outcome, expected fact id or None for a new one)."""
        owner = None if agent is None or shared else agent
        visible = [n for n in self.notes.values() if n.current and n.seen_by(agent)]
        if gate:
            best: tuple[float, str] | None = None
            for n in visible:
                if n.entity == entity and n.category == category:
                    s = self.sim(n.text, text)
                    if best is None or s > best[0] or (s == best[0] and n.fid < best[1]):
                        best = (s, n.fid)
            if best is not None and best[0] >= 0.95:
                return "duplicate", best[1]
            if best is not None and best[0] >= 0.85 and self.notes[best[1]].owner == owner:
                target = self.notes[best[1]]
                target.text = target.text.rstrip() + "\n" + text.strip()
                return "merged", best[1]
        return "applied", None

    def add(self, fid: str, entity: str, category: str, text: str, agent: str | None,
            shared: bool) -> None:
        visible = [n for n in self.notes.values() if n.current and n.seen_by(agent)]
        ranked = sorted(((self.sim(n.text, text), n.fid) for n in visible),
                        key=lambda r: (-r[0], r[1]))
        mine: dict[str, float] = {}
        before = {n.fid: self.live_links(n.fid, None) for n in visible}  # one decision
        for s, other in ranked:
            if s < 0.35 or len(mine) == CAP:
                break
            theirs = before[other]  # as the note found them, not as its own evictions left them
            if len(theirs) >= CAP:
                weak = min(theirs, key=lambda o: (theirs[o], o))
                if s <= theirs[weak]:
                    continue
                self.links[other].pop(weak, None)
                self.links.get(weak, {}).pop(other, None)
            mine[other] = round(s, 6)
        self.links[fid] = dict(mine)
        for other, s in mine.items():
            self.links.setdefault(other, {})[fid] = s
        self.notes[fid] = RefNote(fid, entity, category, text, agent, shared)

    def shown(self, fid: str, reader: str | None) -> list[tuple[str, float]]:
        n = self.notes[fid]
        if not n.current or not n.seen_by(reader):
            return []
        live = self.live_links(fid, reader)
        return sorted(live.items(), key=lambda p: (-p[1], p[0]))[:CAP]


words = st.lists(st.sampled_from(VOCAB), min_size=3, max_size=9).map(" ".join)
write_op = st.tuples(st.just("write"), st.sampled_from(["team:x", "team:y"]),
                     st.sampled_from(["finding", "decision"]), words,
                     st.sampled_from(AGENTS), st.booleans(), st.booleans())
variant_op = st.tuples(st.just("variant"), st.integers(0, 50), st.sampled_from(VOCAB),
                       st.booleans())
change_op = st.tuples(st.sampled_from(["archive", "restore", "correct"]),
                      st.integers(0, 50), words)
ops = st.lists(st.one_of(write_op, write_op, variant_op, change_op), min_size=4, max_size=18)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops)
@example([("write", "team:x", "finding", "cache cache cache", None, False, False),
          ("write", "team:x", "finding", "cache cache cache", None, False, False),
          ("archive", 0, "cache cache cache"),
          ("variant", 0, "cache", True)])  # the nearest is archived: dedup must look further
def test_dedup_and_links_match_brute_force(script: list[tuple[object, ...]]) -> None:
    """Every note's outcome, fact id and visible links equal the brute-force reference
    after every step, for every reader."""
    with (tempfile.TemporaryDirectory() as tmp,
          mock.patch.object(note_rules, "MAX_LINKS", CAP),
          mock.patch.object(note_rules, "QUALITY_THRESHOLD", 0.0),  # not under test here
          mock.patch.object(note_service, "NEIGHBOURS", 2),
          mock.patch.object(note_service, "DEDUP_NEIGHBOURS", 1)):
        store = memory_es.open(Path(tmp) / "m")
        try:
            ref = Reference(store.runtime.recall.embedder.embed)
            order: list[str] = []
            last: tuple[str, str, str, str | None, bool] | None = None
            for raw in script:
                op = raw
                if raw[0] == "variant":
                    if last is None:
                        continue
                    entity, category, text, agent, shared = last
                    op = ("write", entity, category, f"{text} {raw[2]}", agent, shared, raw[3])
                if op[0] == "write":
                    entity, category, text, agent, shared, gate = cast(
                        "tuple[str, str, str, str | None, bool, bool]", op[1:])
                    text = f"Found: {text}"
                    outcome, target = ref.write(entity, category, text, agent, shared, gate)
                    receipt = store.note(T, entity, category, text, agent=agent,
                                         shared=shared, gate=gate)
                    assert receipt.outcome == outcome
                    if target is not None:
                        assert receipt.fact_id == target
                    else:
                        fid = str(receipt.fact_id)
                        ref.add(fid, entity, category, text, agent, shared)
                        order.append(fid)
                    last = (entity, category, text, agent, shared)
                elif order:
                    fid = order[int(str(op[1])) % len(order)]
                    note = ref.notes[fid]
                    if op[0] == "archive" and note.current:
                        store.archive(fid)
                        note.current = False
                    elif op[0] == "restore" and not note.current:
                        store.restore(fid)
                        note.current = True
                    elif op[0] == "correct" and note.current:
                        text = f"Found: {op[2]}"
                        store.correct(fid, text, text=text)
                        note.text = text
                for fid in order:
                    for reader in AGENTS:
                        got = [(lk.fact_id, lk.score)
                               for lk in store.links(T, fid, agent=reader)]
                        assert got == ref.shown(fid, reader), (fid, reader)
        finally:
            store.close()


def test_the_reference_scores_with_the_store_embedder() -> None:
    """The reference's similarity is the embedder's cosine: 1 for a text and itself."""
    with tempfile.TemporaryDirectory() as tmp:
        store = memory_es.open(Path(tmp) / "m")
        try:
            ref = Reference(store.runtime.recall.embedder.embed)
            assert np.isclose(ref.sim("cache disk found", "cache disk found"), 1.0)
            assert ref.sim("cache disk found", "queue retry index") < 0.35
        finally:
            store.close()
