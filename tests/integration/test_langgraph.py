"""The LangGraph ``BaseStore`` adapter, against LangGraph's documented store behaviour.

The installed ``langgraph`` ships no store contract tests, so this suite is written
from the ``BaseStore`` documentation (put/get/search/delete/list_namespaces, batch and
their async forms) plus the memory-es mapping of SPEC §16. The last tests run real
LangGraph graphs with a checkpointer, this store and a fake chat model.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import uuid
from dataclasses import dataclass
from typing import Annotated, Any, TypedDict

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.runtime import Runtime
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)

import memory_es
from memory_es.integrations.langgraph import (
    InvalidKey,
    InvalidNamespace,
    MemoryESStore,
    canonical_key,
)
from tests.fakes import FakeClock

ALEX = ("user", "alex")
TENANT = "acme"


@pytest.fixture
def adapter(fresh_store: memory_es.MemoryStore) -> MemoryESStore:
    """A LangGraph store over tenant ``acme`` of an empty memory-es store."""
    return MemoryESStore(fresh_store, TENANT)


@pytest.fixture
def purging(fresh_store: memory_es.MemoryStore) -> MemoryESStore:
    """The same adapter with ``delete="purge"``."""
    return MemoryESStore(fresh_store, TENANT, delete="purge", requested_by="dpo@acme")


# put / get -------------------------------------------------------------------------------

def test_adapter_is_a_langgraph_base_store(adapter: MemoryESStore) -> None:
    """The adapter is a ``BaseStore`` and declares no TTL support."""
    assert isinstance(adapter, BaseStore)
    assert adapter.supports_ttl is False


def test_put_then_get_returns_the_item(adapter: MemoryESStore) -> None:
    """A put item comes back from get with its namespace, key, value and aware times."""
    adapter.put(ALEX, "food", {"likes": "pizza", "n": 3})
    item = adapter.get(ALEX, "food")
    assert item is not None
    assert (item.namespace, item.key, item.value) == (ALEX, "food", {"likes": "pizza", "n": 3})
    assert item.created_at.tzinfo is not None and item.created_at == item.updated_at


def test_get_of_a_missing_key_is_none(adapter: MemoryESStore) -> None:
    """Getting a key never put returns None."""
    assert adapter.get(ALEX, "nothing") is None


def test_namespace_names_the_entity_and_key_the_attribute(adapter: MemoryESStore) -> None:
    """``(ns, local, *rest)`` + key is the fact (ns:local, rest.key) with the item as value."""
    adapter.put(("user", "alex", "prefs"), "theme", {"mode": "dark"})
    [fact] = adapter.store.current(TENANT, entity="user:alex")
    assert (fact.entity, fact.attribute, fact.value) == ("user:alex", "prefs.theme",
                                                         {"mode": "dark"})
    assert fact.source == "langgraph"


def test_put_on_an_existing_key_supersedes(adapter: MemoryESStore) -> None:
    """An overwrite is a supersede: get and search see only the new value, the chain both."""
    adapter.put(ALEX, "food", {"likes": "pizza"})
    adapter.put(ALEX, "food", {"likes": "sushi"})
    assert adapter.get(ALEX, "food").value == {"likes": "sushi"}  # type: ignore[union-attr]
    assert [i.value for i in adapter.search(ALEX)] == [{"likes": "sushi"}]
    assert [i.value for i in adapter.search(ALEX, query="likes food")] == [{"likes": "sushi"}]
    assert adapter.search(ALEX, query="pizza") == []
    assert [f.value for f in adapter.chain(ALEX, "food")] == [{"likes": "pizza"},
                                                              {"likes": "sushi"}]
    assert len(adapter.store.current(TENANT, entity="user:alex")) == 1
    assert [e.op for e in adapter.history(ALEX, "food")][-1] == "FactSuperseded"


def test_created_at_stays_and_updated_at_moves_on_overwrite(adapter: MemoryESStore,
                                                             clock: FakeClock) -> None:
    """An overwrite keeps the item's created_at and moves its updated_at."""
    adapter.put(ALEX, "food", {"likes": "pizza"})
    first = adapter.get(ALEX, "food")
    clock.advance(minutes=5)
    adapter.put(ALEX, "food", {"likes": "sushi"})
    second = adapter.get(ALEX, "food")
    assert first is not None and second is not None
    assert second.created_at == first.created_at
    assert second.updated_at == first.updated_at + dt.timedelta(minutes=5)


def test_the_same_value_again_reinforces_without_a_new_fact(adapter: MemoryESStore) -> None:
    """Putting an identical value writes no new fact (the store reinforces it)."""
    adapter.put(ALEX, "food", {"likes": "pizza"})
    before = adapter.store.table("fact_versions", tenant=TENANT).num_rows
    adapter.put(ALEX, "food", {"likes": "pizza"})
    assert len(adapter.chain(ALEX, "food")) == 1
    assert adapter.store.table("fact_versions", tenant=TENANT).num_rows <= before + 1


def test_facts_written_outside_the_adapter_read_back_wrapped(adapter: MemoryESStore) -> None:
    """A fact whose value is not a JSON object is read as ``{"value": ...}``."""
    adapter.store.assert_fact(TENANT, "user:alex", "home.city", "Oslo")
    item = adapter.get(("user", "alex", "home"), "city")
    assert item is not None and item.value == {"value": "Oslo"}


def test_provenance_is_reachable_through_facts(adapter: MemoryESStore) -> None:
    """``facts`` returns the memory-es facts behind an item, with provenance and state."""
    adapter.put(ALEX, "food", {"likes": "pizza"})
    [fact] = adapter.facts(ALEX, "food")
    assert (fact.state, fact.asserted_by, fact.source) == ("active", "user", "langgraph")


# keys and namespaces ---------------------------------------------------------------------

def test_keys_are_canonicalised_to_attribute_paths() -> None:
    """Keys become lower-case dotted paths; uuids get a ``k`` prefix; bad keys are refused."""
    assert canonical_key("Home City") == "home_city"
    assert canonical_key(" prefs . Theme-Mode ") == "prefs.theme_mode"
    assert canonical_key("a/b:c") == "a_b_c"
    key = str(uuid.UUID(int=7))
    assert canonical_key(key) == "k" + key.replace("-", "_")
    for bad in ("", "  ", "a..b", ".a", "_x", "naïve", "a$b", "ça"):
        with pytest.raises(InvalidKey):
            canonical_key(bad)


@given(st.text(max_size=40))
def test_canonical_keys_are_fixed_points(key: str) -> None:
    """Canonicalising a canonical key changes nothing, so returned keys address their item."""
    try:
        once = canonical_key(key)
    except InvalidKey:
        return
    assert canonical_key(once) == once


def test_dotted_key_and_nested_namespace_name_one_item(adapter: MemoryESStore) -> None:
    """A dotted key and the namespace spelling the same path address the same item."""
    adapter.put(ALEX, "prefs.theme", {"mode": "dark"})
    item = adapter.get(("user", "alex", "prefs"), "theme")
    assert item is not None and item.value == {"mode": "dark"}
    assert (item.namespace, item.key) == (("user", "alex", "prefs"), "theme")


def test_returned_keys_address_their_items(adapter: MemoryESStore) -> None:
    """A uuid key comes back canonical, and that key gets and deletes the same item."""
    adapter.put(ALEX, str(uuid.UUID(int=42)), {"memory": "likes tea"})
    [found] = adapter.search(ALEX)
    assert adapter.get(ALEX, found.key) is not None
    adapter.delete(ALEX, found.key)
    assert adapter.search(ALEX) == []


def test_namespaces_that_name_no_entity_are_refused(adapter: MemoryESStore) -> None:
    """One label, or labels that form no canonical entity id, raise a typed error."""
    for bad in (("memories",), ("User", "alex"), ("user", "alex smith")):
        with pytest.raises(InvalidNamespace) as caught:
            adapter.put(bad, "k", {"a": 1})
        assert isinstance(caught.value, memory_es.InvalidInput)
        assert isinstance(caught.value, InvalidNamespaceError)
    with pytest.raises(InvalidNamespaceError):
        adapter.put(("user", "a.b"), "k", {"a": 1})


def test_values_must_be_json_objects(adapter: MemoryESStore) -> None:
    """A non-mapping or non-JSON value is refused and nothing is written."""
    with pytest.raises(memory_es.InvalidInput):
        adapter.put(ALEX, "k", {"when": dt.datetime.now(dt.UTC)})
    with pytest.raises(memory_es.InvalidInput):
        adapter.batch([PutOp(ALEX, "k", ["not", "a", "mapping"])])  # type: ignore[arg-type]
    assert adapter.store.log_position() == 0


def test_ttl_is_not_supported(adapter: MemoryESStore) -> None:
    """A TTL raises NotImplementedError, as ``BaseStore`` documents for such stores."""
    with pytest.raises(NotImplementedError):
        adapter.put(ALEX, "k", {"a": 1}, ttl=5)
    with pytest.raises(NotImplementedError):
        adapter.batch([PutOp(ALEX, "k", {"a": 1}, ttl=5.0)])


# delete ----------------------------------------------------------------------------------

def test_delete_is_forget_fact(adapter: MemoryESStore) -> None:
    """Delete forgets the fact: gone from every read, as_of too; kept for audit in history."""
    adapter.put(ALEX, "food", {"likes": "pizza"})
    [fact] = adapter.facts(ALEX, "food")
    adapter.delete(ALEX, "food")
    assert adapter.get(ALEX, "food") is None
    assert adapter.search(ALEX) == [] and adapter.search(ALEX, query="pizza") == []
    assert adapter.as_of(ALEX, "food", known_at=fact.recorded_at) == []  # ineligible now
    history = adapter.history(ALEX, "food")
    assert history[0].value == {"likes": "pizza"}
    assert history[-1].op == "FactStateChanged" and history[-1].state == "forgotten"


def test_put_none_deletes(adapter: MemoryESStore) -> None:
    """A PutOp with value None is a delete."""
    adapter.put(ALEX, "food", {"likes": "pizza"})
    adapter.batch([PutOp(ALEX, "food", None)])
    assert adapter.get(ALEX, "food") is None


def test_delete_of_a_missing_key_does_nothing(adapter: MemoryESStore) -> None:
    """Deleting a key that was never put appends nothing."""
    adapter.delete(ALEX, "nothing")
    assert adapter.store.log_position() == 0


def test_put_after_delete_starts_a_new_item(adapter: MemoryESStore, clock: FakeClock) -> None:
    """A key put again after its delete reads the new value with a new created_at."""
    adapter.put(ALEX, "food", {"likes": "pizza"})
    adapter.delete(ALEX, "food")
    clock.advance(hours=1)
    adapter.put(ALEX, "food", {"likes": "tea"})
    item = adapter.get(ALEX, "food")
    assert item is not None and item.value == {"likes": "tea"}
    assert item.created_at == item.updated_at


def test_purge_mode_makes_delete_a_crypto_shred(purging: MemoryESStore) -> None:
    """With ``delete="purge"`` a delete shreds the key's whole chain and leaves a receipt."""
    purging.put(ALEX, "food", {"likes": "pizza"})
    purging.put(ALEX, "food", {"likes": "sushi"})
    purging.put(ALEX, "city", {"name": "Oslo"})
    purging.delete(ALEX, "food")
    assert purging.get(ALEX, "food") is None
    [receipt] = purging.store.receipts()
    assert receipt["requested_by"] == "dpo@acme"
    assert purging.store.verify_erasure(receipt).complete
    values = purging.store.table("fact_versions", tenant=TENANT).column("value").to_pylist()
    assert not any("pizza" in v or "sushi" in v for v in values)
    assert purging.get(ALEX, "city") is not None


def test_adapter_purge_erases_a_forgotten_key(adapter: MemoryESStore) -> None:
    """``adapter.purge`` shreds a key deleted earlier (forgotten), with a clean report."""
    adapter.put(ALEX, "food", {"likes": "pizza"})
    adapter.delete(ALEX, "food")
    [preview] = adapter.preview(ALEX, "food")
    assert preview.facts
    [receipt] = adapter.purge(ALEX, "food")
    assert adapter.verify_erasure(receipt).complete
    with pytest.raises(memory_es.NotFound):  # a purged key cannot be linked back to its facts
        adapter.history(ALEX, "food")
    history = adapter.store.history(TENANT, receipt.fact_ids[0])
    assert all(e.shredded or e.op == "FactChainPurged" for e in history)
    with pytest.raises(memory_es.NotFound):
        adapter.purge(("user", "nobody"), "food")


def test_adapter_purge_without_key_erases_the_entity(adapter: MemoryESStore) -> None:
    """``adapter.purge((ns, local))`` crypto-shreds every fact of that entity only."""
    adapter.put(ALEX, "food", {"likes": "pizza"})
    adapter.put(("user", "alexandra"), "food", {"likes": "tea"})
    [receipt] = adapter.purge(ALEX)
    assert receipt.report is not None and receipt.report.complete
    assert adapter.search(("user",)) == adapter.search(("user", "alexandra"))
    assert len(adapter.search(("user",))) == 1


# search ----------------------------------------------------------------------------------

def test_search_with_a_query_ranks_through_recall(adapter: MemoryESStore) -> None:
    """A query search returns recall's best match first, with a score."""
    adapter.put(ALEX, "food", {"memory": "Alex loves spicy ramen noodles"})
    adapter.put(ALEX, "city", {"memory": "Alex lives in Oslo"})
    adapter.put(("user", "bo"), "food", {"memory": "Bo likes ramen"})
    found = adapter.search(ALEX, query="where does alex live")
    assert found[0].key == "city" and found[0].score is not None
    assert {(i.namespace, i.key) for i in found} <= {(ALEX, "food"), (ALEX, "city")}


def test_index_fields_choose_what_recall_indexes(adapter: MemoryESStore) -> None:
    """``index=[...]`` makes recall index those fields of the value."""
    adapter.put(ALEX, "note", {"memory": "allergic to peanuts", "tag": "zebra"}, index=["memory"])
    [fact] = adapter.facts(ALEX, "note")
    assert "allergic to peanuts" in fact.text and "zebra" not in fact.text


def test_search_without_a_query_lists_current_items_newest_first(adapter: MemoryESStore,
                                                                  clock: FakeClock) -> None:
    """Without a query, search lists the scope's current items, most recently updated first."""
    for i, key in enumerate(("a", "b", "c")):
        clock.advance(seconds=1)
        adapter.put(ALEX, key, {"i": i})
    assert [i.key for i in adapter.search(ALEX)] == ["c", "b", "a"]
    assert all(i.score is None for i in adapter.search(ALEX))


def test_search_prefixes_are_exact_labels(adapter: MemoryESStore) -> None:
    """A prefix compares whole labels: user:alex never reaches user:alexandra."""
    adapter.put(ALEX, "food", {"x": 1})
    adapter.put(("user", "alexandra"), "food", {"x": 2})
    adapter.put(("project", "atlas"), "food", {"x": 3})
    assert [i.value for i in adapter.search(ALEX)] == [{"x": 1}]
    assert sorted(i.value["x"] for i in adapter.search(("user",))) == [1, 2]
    assert len(adapter.search(())) == 3
    assert [i.value for i in adapter.search(ALEX, query="food")] == [{"x": 1}]


def test_search_under_a_nested_namespace(adapter: MemoryESStore) -> None:
    """Labels after the entity narrow the search to that attribute path."""
    adapter.put(("user", "alex", "prefs"), "theme", {"mode": "dark"})
    adapter.put(("user", "alex", "prefs", "ui"), "font", {"size": 12})
    adapter.put(ALEX, "food", {"likes": "pizza"})
    assert {i.key for i in adapter.search(("user", "alex", "prefs"))} == {"theme", "font"}
    assert [i.key for i in adapter.search(("user", "alex", "prefs", "ui"))] == ["font"]


def test_search_filters_apply_to_current_values(adapter: MemoryESStore) -> None:
    """Exact and operator filters match current values only (an old value never matches)."""
    adapter.put(ALEX, "a", {"score": 5, "color": "red"})
    adapter.put(ALEX, "b", {"score": 2, "color": "blue"})
    adapter.put(ALEX, "c", {"score": 9, "color": "red", "meta": {"kind": "x"}})
    adapter.put(ALEX, "c", {"score": 1, "color": "green"})

    def keys(**spec: Any) -> list[str]:
        return sorted(i.key for i in adapter.search(ALEX, filter=spec))

    assert keys(color="red") == ["a"]
    assert keys(score={"$gt": 2}) == ["a"]
    assert keys(score={"$gte": 2, "$lt": 5}) == ["b"]
    assert keys(color={"$ne": "red"}) == ["b", "c"]
    assert keys(meta={"kind": "x"}) == []
    assert sorted(i.key for i in adapter.search(ALEX, query="red", filter={"color": "red"})) \
        == ["a"]
    with pytest.raises(memory_es.InvalidInput):
        adapter.search(ALEX, filter={"score": {"$regex": "x"}})


def test_search_pages_with_limit_and_offset(adapter: MemoryESStore, clock: FakeClock) -> None:
    """Limit and offset page through the results in order."""
    for i in range(5):
        clock.advance(seconds=1)
        adapter.put(ALEX, f"k{i}", {"i": i})
    assert [i.key for i in adapter.search(ALEX, limit=2)] == ["k4", "k3"]
    assert [i.key for i in adapter.search(ALEX, limit=2, offset=2)] == ["k2", "k1"]
    assert [i.key for i in adapter.search(ALEX, limit=10, offset=4)] == ["k0"]


def test_search_with_a_query_finds_beyond_the_first_recall_page(adapter: MemoryESStore) -> None:
    """An entity's items are found even when other entities fill recall's first page."""
    for i in range(30):
        adapter.put(("user", f"u{i}"), "drink", {"memory": "likes green tea a lot"})
    adapter.put(ALEX, "drink", {"memory": "drinks tea sometimes"})
    [found] = adapter.search(ALEX, query="green tea")
    assert found.key == "drink" and found.namespace == ALEX


def test_masked_facts_show_the_placeholder(adapter: MemoryESStore) -> None:
    """A masked fact keeps its place but its content reads as the placeholder."""
    adapter.put(ALEX, "food", {"likes": "pizza"})
    [fact] = adapter.facts(ALEX, "food")
    adapter.store.mask(fact.fact_id)
    item = adapter.get(ALEX, "food")
    assert item is not None and "pizza" not in str(item.value)


# list_namespaces -------------------------------------------------------------------------

def test_list_namespaces_filters_and_truncates(adapter: MemoryESStore) -> None:
    """Prefix, suffix, wildcards, max_depth, limit and offset behave as documented."""
    adapter.put(("user", "alex", "prefs"), "theme", {"a": 1})
    adapter.put(("user", "alex"), "food", {"a": 1})
    adapter.put(("user", "bo", "prefs", "ui"), "font", {"a": 1})
    adapter.put(("project", "atlas"), "owner", {"a": 1})
    assert adapter.list_namespaces() == [
        ("project", "atlas"), ("user", "alex"), ("user", "alex", "prefs"),
        ("user", "bo", "prefs", "ui")]
    assert adapter.list_namespaces(prefix=("user", "alex")) == [("user", "alex"),
                                                                ("user", "alex", "prefs")]
    assert adapter.list_namespaces(suffix=("prefs",)) == [("user", "alex", "prefs")]
    assert adapter.list_namespaces(prefix=("user", "*", "prefs")) == [
        ("user", "alex", "prefs"), ("user", "bo", "prefs", "ui")]
    assert adapter.list_namespaces(max_depth=2) == [("project", "atlas"), ("user", "alex"),
                                                    ("user", "bo")]
    assert adapter.list_namespaces(limit=1, offset=1) == [("user", "alex")]


def test_deleted_items_leave_the_namespace_listing(adapter: MemoryESStore) -> None:
    """A namespace whose only item was deleted is no longer listed."""
    adapter.put(("user", "alex", "prefs"), "theme", {"a": 1})
    adapter.delete(("user", "alex", "prefs"), "theme")
    assert adapter.list_namespaces() == []


# batch -----------------------------------------------------------------------------------

def test_batch_returns_results_in_order_and_reads_see_earlier_writes(
        adapter: MemoryESStore) -> None:
    """Results match the operations one to one; a get after a put in a batch sees it."""
    results = adapter.batch([
        PutOp(ALEX, "food", {"likes": "pizza"}),
        GetOp(ALEX, "food"),
        PutOp(ALEX, "food", {"likes": "sushi"}),
        SearchOp(ALEX),
        ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("user",)),)),
        GetOp(ALEX, "missing"),
    ])
    assert results[0] is None and results[2] is None and results[5] is None
    assert results[1].value == {"likes": "pizza"}  # type: ignore[union-attr]
    assert [i.value for i in results[3]] == [{"likes": "sushi"}]  # type: ignore[union-attr]
    assert results[4] == [ALEX]


def test_batch_is_validated_before_anything_runs(adapter: MemoryESStore) -> None:
    """One invalid operation in a batch means nothing of the batch is written."""
    with pytest.raises(InvalidKey):
        adapter.batch([PutOp(ALEX, "food", {"likes": "pizza"}), PutOp(ALEX, "bad key!", {})])
    assert adapter.store.log_position() == 0


def test_consecutive_puts_commit_atomically(adapter: MemoryESStore) -> None:
    """Puts of one batch commit together: a write the store refuses leaves none of them."""
    refused = {"text": "\ud800"}  # a lone surrogate: JSON can carry it, the store refuses it
    with pytest.raises(memory_es.InvalidInput):
        adapter.batch([PutOp(ALEX, "a", {"v": 1}), PutOp(ALEX, "b", refused)])
    assert adapter.search(ALEX) == []


def test_the_last_put_of_a_key_in_a_batch_wins(adapter: MemoryESStore) -> None:
    """Two puts of one key in a batch leave the last value."""
    adapter.batch([PutOp(ALEX, "k", {"v": 1}), PutOp(ALEX, "k", {"v": 2})])
    assert adapter.get(ALEX, "k").value == {"v": 2}  # type: ignore[union-attr]


# time travel -----------------------------------------------------------------------------

def test_as_of_shows_what_was_believed_then(adapter: MemoryESStore, clock: FakeClock) -> None:
    """``as_of`` returns items as believed at a past transaction time, overwritten or not."""
    adapter.put(ALEX, "food", {"likes": "pizza"})
    then = adapter.get(ALEX, "food").updated_at  # type: ignore[union-attr]
    clock.advance(days=1)
    adapter.put(ALEX, "food", {"likes": "sushi"})
    adapter.put(ALEX, "city", {"name": "Oslo"})
    assert [i.value for i in adapter.as_of(ALEX, "food", known_at=then)] == [{"likes": "pizza"}]
    assert [i.key for i in adapter.as_of(ALEX, known_at=then)] == ["food"]
    assert [i.value for i in adapter.as_of(ALEX, "food")] == [{"likes": "sushi"}]


def test_chain_of_a_key_never_put_is_not_found(adapter: MemoryESStore) -> None:
    """``chain`` and ``history`` of an unknown key raise NotFound."""
    with pytest.raises(memory_es.NotFound):
        adapter.chain(ALEX, "nothing")
    with pytest.raises(memory_es.NotFound):
        adapter.history(ALEX, "nothing")


# async -----------------------------------------------------------------------------------

def test_async_methods_do_what_the_sync_ones_do(adapter: MemoryESStore) -> None:
    """aput, aget, asearch, alist_namespaces, adelete and abatch mirror the sync methods."""

    async def scenario() -> None:
        await adapter.aput(ALEX, "food", {"likes": "pizza"})
        await adapter.aput(ALEX, "food", {"likes": "sushi"})
        item = await adapter.aget(ALEX, "food")
        assert item is not None and item.value == {"likes": "sushi"}
        assert [i.value for i in await adapter.asearch(ALEX, query="sushi")] == [
            {"likes": "sushi"}]
        assert await adapter.alist_namespaces() == [ALEX]
        await adapter.adelete(ALEX, "food")
        assert await adapter.aget(ALEX, "food") is None
        results = await adapter.abatch([PutOp(ALEX, "x", {"a": 1}), GetOp(ALEX, "x")])
        assert results[1].value == {"a": 1}  # type: ignore[union-attr]

    asyncio.run(scenario())


# a real graph ----------------------------------------------------------------------------

class State(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]


@dataclass
class Context:
    user_id: str


def _graph(store: MemoryESStore, prompts: list[str]) -> Any:
    """A one-node chat graph: recall memories, call the (fake) model, remember a city."""
    model = GenericFakeChatModel(messages=iter([AIMessage(f"ok {i}") for i in range(20)]))

    def chat(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
        assert runtime.store is not None
        namespace = ("user", runtime.context.user_id)
        said = str(state["messages"][-1].content)
        memories = runtime.store.search(namespace, query=said, limit=3)
        system = "Known: " + "; ".join(f"{m.key}={m.value['text']}" for m in memories)
        prompts.append(system)
        reply = model.invoke([SystemMessage(system), *state["messages"]])
        if said.startswith("I live in "):
            runtime.store.put((*namespace, "home"), "city",
                              {"text": said.removeprefix("I live in ")})
        return {"messages": [reply]}

    builder = StateGraph(State, context_schema=Context)
    builder.add_node("chat", chat)
    builder.add_edge(START, "chat")
    return builder.compile(checkpointer=InMemorySaver(), store=store)


def test_a_langgraph_graph_remembers_across_threads(adapter: MemoryESStore) -> None:
    """A graph with a checkpointer keeps each thread; the store carries memory across them."""
    prompts: list[str] = []
    graph = _graph(adapter, prompts)
    alex = Context("alex")

    def say(thread: str, text: str) -> Any:
        return graph.invoke({"messages": [HumanMessage(text)]},
                            {"configurable": {"thread_id": thread}}, context=alex)

    say("t1", "I live in Oslo")
    assert len(say("t1", "hello again")["messages"]) == 4  # the checkpointer kept thread t1
    say("t2", "where do I live?")
    assert "city=Oslo" in prompts[-1]
    say("t2", "I live in Bergen")
    say("t3", "where do I live now?")
    assert "city=Bergen" in prompts[-1] and "Oslo" not in prompts[-1]
    assert [f.value["text"] for f in adapter.chain(("user", "alex", "home"), "city")] == [
        "Oslo", "Bergen"]
    graph.invoke({"messages": [HumanMessage("where?")]}, {"configurable": {"thread_id": "b"}},
                 context=Context("bo"))
    assert prompts[-1] == "Known: "  # bo's memory holds nothing of alex's


def test_a_langgraph_graph_runs_async_on_the_store(adapter: MemoryESStore) -> None:
    """``ainvoke`` drives the store through its async methods with the same results."""
    prompts: list[str] = []
    graph = _graph(adapter, prompts)

    async def scenario() -> None:
        config = {"configurable": {"thread_id": "a1"}}
        await graph.ainvoke({"messages": [HumanMessage("I live in Lima")]}, config,
                            context=Context("alex"))
        await graph.ainvoke({"messages": [HumanMessage("where?")]},
                            {"configurable": {"thread_id": "a2"}}, context=Context("alex"))

    asyncio.run(scenario())
    assert "city=Lima" in prompts[-1]
