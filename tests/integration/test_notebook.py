"""Notebook friendliness: HTML reprs of the models, and ``store.table`` in pandas."""

from __future__ import annotations

from html.parser import HTMLParser

import pandas as pd  # type: ignore[import-untyped]  # pandas ships no stubs of its own
import pytest

import memory_es
from tests.fakes import FakeClock
from tests.integration.story import ALEX, TENANT, Story, write_story


@pytest.fixture
def story(fresh_store: memory_es.MemoryStore, clock: FakeClock) -> Story:
    """The shared history written into a fresh store."""
    return write_story(fresh_store, clock)


class _Cells(HTMLParser):
    """The text of every table cell, and whether the markup is balanced."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.open: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open.append(tag)
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        assert self.open.pop() == tag
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _cells(html: str) -> list[str]:
    parsed = _Cells()
    parsed.feed(html)
    assert parsed.open == []
    return parsed.cells


def test_fact_repr_html_is_an_escaped_table(fresh_store: memory_es.MemoryStore) -> None:
    """A fact renders as a balanced table; markup in its value is escaped, not injected."""
    fresh_store.assert_fact(TENANT, ALEX, "note.bio", "<b>bold</b> & co")
    [fact] = fresh_store.current(TENANT, entity=ALEX)
    html = fact._repr_html_()
    assert "<b>bold</b>" not in html and "&lt;b&gt;bold&lt;/b&gt; &amp; co" in html
    cells = _cells(html)
    assert cells[cells.index("value") + 1] == "<b>bold</b> & co"
    assert cells[cells.index("state") + 1] == "active"


def test_masked_fact_repr_shows_the_placeholder(fresh_store: memory_es.MemoryStore) -> None:
    """A masked fact's HTML shows the placeholder, never the content."""
    receipt = fresh_store.assert_fact(TENANT, ALEX, "home.city", "Oslo")
    fresh_store.mask(str(receipt.fact_id))
    [fact] = fresh_store.current(TENANT, entity=ALEX)
    assert "Oslo" not in fact._repr_html_() and "[masked]" in fact._repr_html_()


def test_erasure_report_and_preview_repr_html(fresh_store: memory_es.MemoryStore,
                                              story: Story) -> None:
    """The residue report lists every store checked; the preview lists facts and token."""
    receipt = next(r for r in fresh_store.receipts() if r["receipt_id"] == story.receipt_id)
    report = fresh_store.verify_erasure(receipt)
    cells = _cells(report._repr_html_())
    assert "Erasure complete" in report._repr_html_()
    assert [c.name for c in report.stores] == cells[5::5]
    preview = fresh_store.preview("purge", TENANT, ALEX)
    cells = _cells(preview._repr_html_())
    assert cells[cells.index("token") + 1] == preview.token
    assert all(f in cells[cells.index("facts") + 1] for f in preview.facts)


def test_tables_convert_to_pandas(fresh_store: memory_es.MemoryStore, story: Story) -> None:
    """``store.table(...).to_pandas()`` keeps aware UTC times, lists and every row."""
    table = fresh_store.table("fact_versions", tenant=TENANT)
    frame = table.to_pandas()
    assert len(frame) == table.num_rows
    assert str(frame["recorded_at"].dt.tz) in ("UTC", "Etc/UTC")
    assert frame["recorded_until"].isna().any()
    assert any(len(links) > 0 for links in frame["supersedes"])  # list columns survive
    current = fresh_store.table("facts_current", tenant=TENANT).to_pandas()
    assert set(current["attribute"]) == {"browser.default", "home.city"}


def test_tables_convert_to_arrow_backed_pandas_without_copies(
        fresh_store: memory_es.MemoryStore, story: Story) -> None:
    """With ``types_mapper=pd.ArrowDtype`` the frame shares Arrow's buffers (no copy)."""
    table = fresh_store.table("fact_versions", tenant=TENANT)
    frame = table.to_pandas(types_mapper=pd.ArrowDtype)
    assert all(isinstance(t, pd.ArrowDtype) for t in frame.dtypes)
    shared = frame["value"].array.__arrow_array__().chunk(0).buffers()[2]
    assert shared.address == table.column("value").chunk(0).buffers()[2].address
