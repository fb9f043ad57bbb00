"""A unit of work's savepoints: a command's staged definitions are undone with it."""

from __future__ import annotations

from typing import Any, cast

from hypothesis import given
from hypothesis import strategies as st

from memory_es.domain.control import AttributeDef
from memory_es.ids import fact_id, stream_of, uuid7_str
from memory_es.write.side import UNDECLARED
from memory_es.write.unit import Streams, UnitOfWork

MANY = AttributeDef(cardinality="many")
ATTRIBUTES = ["a.one", "a.two", "b.three"]


class _Side:
    """What :meth:`UnitOfWork.attribute` asks of the write side: nothing is declared."""

    def attribute(self, tenant: str, attribute: str) -> AttributeDef:
        return UNDECLARED


def _unit() -> UnitOfWork:
    return UnitOfWork(cast(Streams, _Side()), 1)


@given(st.lists(st.tuples(st.lists(st.sampled_from(ATTRIBUTES), max_size=3), st.booleans()),
                max_size=8))
def test_definitions_of_an_undone_command_are_gone(commands: list[tuple[list[str], bool]]
                                                   ) -> None:
    """Each command defines some attributes, then ends or is undone: the unit sees the
    definitions of the commands that ended, as a plain dict of kept definitions does."""
    uow = _unit()
    kept: dict[str, Any] = {}
    for names, ends in commands:
        uow.begin_command()
        for name in names:
            uow.define("acme", name, MANY)
        if ends:
            uow.end_command()
            kept.update(dict.fromkeys(names, MANY))
        else:
            uow.undo_command()
    for name in ATTRIBUTES:
        assert uow.attribute("acme", name) == kept.get(name, UNDECLARED)
    assert set(uow.schema) == {("acme", name) for name in kept}


def test_a_definition_replaces_the_schema_a_savepoint_holds() -> None:
    """``define`` never changes the dict an open savepoint refers to."""
    uow = _unit()
    uow.begin_command()
    before = uow.schema
    uow.define("acme", "a.one", MANY)
    assert before == {} and uow.schema is not before


def test_a_fact_id_of_any_spelling_of_a_stream_names_it() -> None:
    """The remembered prefix of a stream id is the same for its upper-case spelling."""
    stream = uuid7_str()
    assert fact_id(stream.upper(), 7) == fact_id(stream, 7)
    assert stream_of(fact_id(stream.upper(), 7)) == stream
