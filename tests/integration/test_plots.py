"""Pictures of time: ``memory_es.plots`` figures and the ``memory-es plot`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

import memory_es
from memory_es import plots
from memory_es.cli import main
from tests.fakes import FakeClock
from tests.integration.story import ALEX, TENANT, Story, write_story


@pytest.fixture
def story(fresh_store: memory_es.MemoryStore, clock: FakeClock) -> Story:
    """The shared history written into a fresh store."""
    return write_story(fresh_store, clock)


def _texts(figure: Figure) -> list[str]:
    return [t.get_text() for ax in figure.axes for t in ax.texts]


def _rectangles(figure: Figure, title: str) -> list[Rectangle]:
    [ax] = [a for a in figure.axes if a.get_title(loc="left") == title]
    return [p for p in ax.patches if isinstance(p, Rectangle)]


def test_bitemporal_draws_one_rectangle_per_version(fresh_store: memory_es.MemoryStore,
                                                    story: Story) -> None:
    """Every version row of an attribute becomes one rectangle in its panel."""
    figure = plots.bitemporal(fresh_store, TENANT, ALEX)
    versions = fresh_store.table("fact_versions", tenant=TENANT).to_pylist()
    for attribute in ("browser.default", "home.city", "mood.today"):
        expected = [v for v in versions if v["entity"] == ALEX and v["attribute"] == attribute]
        assert len(_rectangles(figure, attribute)) == len(expected)


def test_bitemporal_labels_values_states_supersedes_and_corrections(
        fresh_store: memory_es.MemoryStore, story: Story) -> None:
    """Labels carry value and state; supersedes, corrections and forgetting are marked."""
    texts = _texts(plots.bitemporal(fresh_store, TENANT, ALEX))
    assert any(t.startswith("Edge · active · supersedes") for t in texts)
    assert any(t.startswith("Detroit · active · corrected") for t in texts)
    assert any(t.startswith("Detriot · active") for t in texts)
    assert any("now forgotten" in t for t in texts)


def test_purged_chains_are_hatched_placeholders(fresh_store: memory_es.MemoryStore,
                                                story: Story) -> None:
    """A chain purged out of the entity shows as a hatched box without its content."""
    figure = plots.bitemporal(fresh_store, TENANT, ALEX)
    [placeholder] = _rectangles(figure, "purged chains (valid time, attribute and values"
                                        " shredded)")
    assert placeholder.get_hatch() == "///"
    texts = _texts(figure)
    assert any("purged chain of 1 fact(s)" in t and story.receipt_id[:13] in t for t in texts)
    assert not any("blue door" in t for t in texts)


def test_attribute_narrows_the_diagram(fresh_store: memory_es.MemoryStore,
                                       story: Story) -> None:
    """``attribute=`` draws that attribute's panel only."""
    figure = plots.bitemporal(fresh_store, TENANT, ALEX, "home.city")
    assert [a.get_title(loc="left") for a in figure.axes] == ["home.city"]


def test_unknown_or_fully_purged_entities_are_not_found(fresh_store: memory_es.MemoryStore,
                                                        story: Story) -> None:
    """An entity without versions (or purged whole) raises NotFound; a bad id InvalidInput."""
    with pytest.raises(memory_es.NotFound):
        plots.bitemporal(fresh_store, TENANT, "user:dana")
    with pytest.raises(memory_es.InvalidInput):
        plots.bitemporal(fresh_store, TENANT, "not an id")


def test_chain_draws_the_drift_with_reasons(fresh_store: memory_es.MemoryStore,
                                            story: Story) -> None:
    """The chain figure shows each value oldest first and every event's reason."""
    figure = plots.chain(fresh_store, TENANT, story.browser)
    texts = _texts(figure)
    values = [t.split(" · ")[0] for t in texts if " · active · user" in t
              and not t[:2].isdigit()]
    assert values == ["Firefox", "Chrome", "Edge"]
    assert any("why: user switched browsers" in t for t in texts)
    assert any("why: new laptop" in t for t in texts)


def test_chain_shows_the_correction(fresh_store: memory_es.MemoryStore, story: Story) -> None:
    """A corrected fact says what it was corrected from, and why."""
    texts = _texts(plots.chain(fresh_store, TENANT, story.city))
    assert any("Detroit" in t and "corrected from Detriot" in t for t in texts)
    assert any("why: typo in the sign-up form" in t for t in texts)


def test_chain_of_a_purged_fact_is_all_placeholders(fresh_store: memory_es.MemoryStore,
                                                    story: Story) -> None:
    """A purged chain draws its shredded events hatched, and no content."""
    texts = _texts(plots.chain(fresh_store, TENANT, story.purged))
    assert any("[shredded]" in t for t in texts)
    assert any("FactChainPurged" in t for t in texts)
    assert not any("blue door" in t for t in texts)


def test_save_writes_png_and_svg_atomically(fresh_store: memory_es.MemoryStore, story: Story,
                                            tmp_path: Path) -> None:
    """PNG and SVG are written whole; other suffixes and missing folders leave nothing."""
    figure = plots.chain(fresh_store, TENANT, story.browser)
    folder = tmp_path / "out"
    folder.mkdir()
    png = plots.save(figure, folder / "c.png")
    assert png.read_bytes().startswith(b"\x89PNG")
    assert b"<svg" in plots.save(figure, folder / "c.svg").read_bytes()[:400]
    with pytest.raises(memory_es.InvalidInput):
        plots.save(figure, folder / "c.jpg")
    with pytest.raises(memory_es.InvalidInput):
        plots.save(figure, folder / "missing" / "c.png")
    assert sorted(p.name for p in folder.iterdir()) == ["c.png", "c.svg"]


def test_a_failed_save_leaves_no_file(fresh_store: memory_es.MemoryStore, story: Story,
                                      tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When rendering fails midway, neither the target nor a temporary file remains."""
    figure = plots.chain(fresh_store, TENANT, story.browser)

    def broken(out: object, **kw: object) -> None:
        assert hasattr(out, "write")
        out.write(b"half")
        raise RuntimeError("renderer crashed")

    monkeypatch.setattr(figure, "savefig", broken)
    folder = tmp_path / "out"
    folder.mkdir()
    with pytest.raises(RuntimeError):
        plots.save(figure, folder / "c.png")
    assert list(folder.iterdir()) == []


# the command line ------------------------------------------------------------------------

def _cli(store: Path, *argv: str) -> int:
    return main(["--store", str(store), *argv])


def test_cli_plot_writes_both_diagrams(fresh_store: memory_es.MemoryStore, story: Story,
                                       store_path: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """``plot TENANT ENTITY`` and ``plot chain TENANT FACT_ID`` write PNG or SVG files."""
    fresh_store.close()
    assert _cli(store_path, "plot", TENANT, ALEX, "--out", str(tmp_path / "b.svg")) == 0
    assert _cli(store_path, "plot", TENANT, ALEX, "--attribute", "home.city",
                "--out", str(tmp_path / "c.png")) == 0
    capsys.readouterr()
    assert _cli(store_path, "--json", "plot", "chain", TENANT, story.browser,
                "--out", str(tmp_path / "d.png")) == 0
    assert json.loads(capsys.readouterr().out)["figure"] == "drift chain"
    assert (tmp_path / "b.svg").stat().st_size > 0 and (tmp_path / "d.png").stat().st_size > 0


def test_cli_plot_refuses_bad_forms_with_status_2(fresh_store: memory_es.MemoryStore,
                                                  story: Story, store_path: Path,
                                                  tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A wrong shape, a wrong suffix or an unknown entity is a one-line user error."""
    fresh_store.close()
    out = str(tmp_path / "x.png")
    for argv in (("plot", TENANT, "--out", out), ("plot", TENANT, ALEX, "--out", "x.gif"),
                 ("plot", "chain", TENANT, story.browser, "--attribute", "a", "--out", out),
                 ("plot", TENANT, "user:nobody", "--out", out)):
        capsys.readouterr()
        assert _cli(store_path, *argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("memory-es: error:") and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()
