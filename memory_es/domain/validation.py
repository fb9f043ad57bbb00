"""Shape rules for input, checked before anything is decided or appended."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from memory_es.choices import AssertedBy, Cardinality, Classification, Volatility, names
from memory_es.errors import InvalidInput

# Matched with ``fullmatch``: ``^...$`` would also accept a trailing newline ("user:alex\n").
ENTITY_RE = re.compile(r"[a-z][a-z0-9_-]{0,63}:[A-Za-z0-9][A-Za-z0-9._@+\-/#]{0,255}")
ATTRIBUTE_RE = re.compile(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*")
TENANT_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")

ASSERTED_BY = names(AssertedBy)
PRECEDENCE = {who: len(ASSERTED_BY) - rank for rank, who in enumerate(ASSERTED_BY)}
VOLATILITY = names(Volatility)
CLASSIFICATIONS = names(Classification)
CLASSIFICATION_RANK = {c: i for i, c in enumerate(CLASSIFICATIONS)}
CARDINALITIES = names(Cardinality)


def is_canonical_entity(value: str) -> bool:
    return isinstance(value, str) and ENTITY_RE.fullmatch(value) is not None


PASSED_LIMIT = 4096
"""Strings each of :func:`check_tenant` and :func:`check_attribute` remembers having
passed; past it, it forgets them all and starts again."""
_PASSED_TENANTS: set[str] = set()
_PASSED_ATTRIBUTES: set[str] = set()


def _passed(seen: set[str], value: str) -> None:
    """Remember that ``value`` passed a check. Only a check's pass is remembered, so a
    string that failed is checked again every time and fails with the same error."""
    if len(seen) >= PASSED_LIMIT:
        seen.clear()
    seen.add(value)


def check_tenant(tenant: str) -> str:
    """A batch names the same tenant and attributes in every command: a string that passed
    once is found in a set (≈ 40 ns) instead of being matched again (≈ 250 ns each)."""
    if type(tenant) is str and tenant in _PASSED_TENANTS:
        return tenant
    if not isinstance(tenant, str) or not TENANT_RE.fullmatch(tenant):
        raise InvalidInput("tenant must be 1-128 characters of letters, digits, '.', '_' or '-'")
    _passed(_PASSED_TENANTS, tenant)
    return tenant


def check_entity(entity: str) -> str:
    if not is_canonical_entity(entity):
        raise InvalidInput(
            "entity must be a canonical id 'namespace:local' (lower-case namespace, no spaces)"
            " or a registered alias"
        )
    return entity


def check_attribute(attribute: str) -> str:
    if type(attribute) is str and attribute in _PASSED_ATTRIBUTES:
        return attribute
    if (not isinstance(attribute, str) or len(attribute) > 128
            or not ATTRIBUTE_RE.fullmatch(attribute)):
        raise InvalidInput(
            "attribute must be a lower-case dotted path such as 'home.city' (max 128 characters)"
        )
    _passed(_PASSED_ATTRIBUTES, attribute)
    return attribute


def _is_unicode(text: str) -> bool:
    """Whether ``text`` encodes as UTF-8 (a lone surrogate such as '\\ud800' does not)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


MAX_INT = 2**63 - 1
VALUE_LIMIT = 64 * 1024
"""Bytes of a value's JSON (SPEC §3)."""


def _check_json(v: Any, depth: int) -> None:
    """Raise unless ``v`` is a JSON value as :func:`check_value` defines it. A module
    function, not a closure: a recursive closure is a reference cycle, garbage that only
    the cyclic collector frees, and every fact written would leave one behind."""
    if depth > 32:
        raise InvalidInput("value nests deeper than 32 levels")
    if isinstance(v, str):
        if not _is_unicode(v):
            raise InvalidInput("strings in a value must be valid Unicode (no lone surrogates)")
        return
    if v is None or isinstance(v, bool):
        return
    if isinstance(v, int):
        if not -MAX_INT <= v <= MAX_INT:
            raise InvalidInput("integers in a value must lie within ±(2**63 - 1)")
        return
    if isinstance(v, float):
        if not math.isfinite(v):
            raise InvalidInput("value must not contain NaN or infinity")
        return
    if isinstance(v, list):
        for item in v:
            _check_json(item, depth + 1)
        return
    if isinstance(v, dict):
        for key, item in v.items():
            if not isinstance(key, str) or not _is_unicode(key):
                raise InvalidInput("object keys in a value must be valid Unicode strings")
            _check_json(item, depth + 1)
        return
    raise InvalidInput(f"value must be JSON (got {type(v).__name__})")


ESCAPED_CHAR_BYTES = 6
"""The most bytes one character takes in JSON without ASCII escaping (``\\u001f``)."""


def check_value(value: Any, limit: int = VALUE_LIMIT) -> Any:
    """A JSON value: str, number, bool, null, list or object; integers within ±(2**63 - 1) and
    finite floats only (other stores and Arrow cannot hold the rest), at most ``limit``
    bytes of JSON."""
    _check_json(value, 0)
    if isinstance(value, str) and ESCAPED_CHAR_BYTES * len(value) + 2 <= limit:
        return value  # its JSON cannot exceed the limit: no need to encode it to know
    try:
        size = len(json.dumps(value, ensure_ascii=False).encode())
    except (TypeError, ValueError) as e:
        raise InvalidInput("value must be JSON") from e
    if size > limit:
        raise InvalidInput(f"value is {size} bytes of JSON; the limit is {limit}")
    return value


def value_key(value: Any) -> str:
    """A value's JSON with sorted keys: equal exactly when two values are the same JSON
    (1 and True differ, the order of object keys does not matter)."""
    return json.dumps(value, sort_keys=True)


def check_choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise InvalidInput(f"{name} must be one of {', '.join(choices)}")
    return value


def check_confidence(value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
        raise InvalidInput("confidence must be a number between 0 and 1")
    return float(value)


def check_text(name: str, value: str | None, limit: int = 8192) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string")
    if len(value) > limit:
        raise InvalidInput(f"{name} is longer than {limit} characters")
    if not _is_unicode(value):
        raise InvalidInput(f"{name} must be valid Unicode (no lone surrogates)")
    return value


def default_text(entity: str | None, attribute: str, value: Any, negated: bool = False) -> str:
    """The natural-language rendering used for recall when the caller gives none (a
    denial reads as one: ``user:mia home city: not Oslo``)."""
    rendered = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    subject = entity or "unresolved mention"
    polarity = "not " if negated else ""
    return f"{subject} {attribute.replace('.', ' ').replace('_', ' ')}: {polarity}{rendered}"
