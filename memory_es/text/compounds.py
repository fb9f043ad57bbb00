"""The people of a compound subject, so that an operation on one keeps the others' part.

``Hannah and Ivan share the 4th floor office`` is one fact of each person (the interpreter
reads a clause per person of a compound subject). Forgetting Hannah as a whole ends her
copy; Ivan's copy still names her, so it is ended too and written back without her
(``Ivan shares the 4th floor office``) in the same commit: his part stays, her name goes.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

from memory_es.text import lexicon as lx
from memory_es.text.interpreter import interpret

_SINGULAR = {"are": "is", "were": "was"}


@cache
def _third_person() -> dict[str, str]:
    """Lemma -> its present third-person singular form (the shortest such form: ``has``,
    not the regular ``haves``)."""
    out: dict[str, str] = {}
    for form in lx.VERBS_3SG:
        lemma = lx.VERB_LEMMA.get(form)
        if lemma and form != lemma and form.endswith("s") and form not in lx.VERBS_PAST and (
                lemma not in out or len(form) < len(out[lemma])):
            out[lemma] = form
    return out


def singular(verb: str) -> str:
    """The verb as it agrees with one person (``share`` -> ``shares``, ``are`` -> ``is``);
    a past or already singular form stays as it is."""
    low = verb.lower()
    if low in _SINGULAR:
        return _SINGULAR[low]
    if lx.VERB_LEMMA.get(low) != low:
        return verb
    return _third_person().get(low, verb)


def without_subjects(text: str, removed: Collection[str]) -> str | None:
    """``text`` with the people of its compound subject whose entities are in ``removed``
    taken out (``Hannah and Ivan share …`` without Hannah: ``Ivan shares …``); None when
    the text has no compound subject, names none of them, or names no one else."""
    people = [c for c in interpret(text).clauses
              if "subject:compound" in c.rules and c.mention and c.mention in text]
    kept = [c.mention for c in people if c.entity not in removed]
    if len(kept) == len(people) or not kept:
        return None
    last = people[-1].mention or ""
    predicate = text[text.index(last) + len(last):].strip()
    if len(kept) == 1 and predicate:
        verb, _, after = predicate.partition(" ")
        predicate = f"{singular(verb)} {after}".strip()
    return f"{' and '.join(str(k) for k in kept)} {predicate}".strip()
