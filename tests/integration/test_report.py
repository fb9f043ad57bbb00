"""The self-contained HTML audit report: its content, its file, and a real browser.

The browser test loads the report in headless Chromium from Debian's packages. It
skips when Chromium is missing, except in CI (``MEMORY_ES_REQUIRE_BROWSER=1``), where
a missing browser fails it.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

import memory_es
from memory_es import report
from memory_es.cli import main
from tests.fakes import FakeClock
from tests.integration.story import ALEX, TENANT, Story, write_story

REQUIRE_BROWSER = os.environ.get("MEMORY_ES_REQUIRE_BROWSER") == "1"
RENDERED = "memory-es report rendered: "


@pytest.fixture
def story(fresh_store: memory_es.MemoryStore, clock: FakeClock) -> Story:
    """The shared history written into a fresh store."""
    return write_story(fresh_store, clock)


@pytest.fixture
def page(fresh_store: memory_es.MemoryStore, story: Story, tmp_path: Path) -> Path:
    """The report about user:alex, checked against an anchor, written to a file."""
    anchor = tmp_path / "anchor.json"
    anchor.write_text(fresh_store.anchor().model_dump_json())
    folder = tmp_path / "out"
    folder.mkdir()
    return report.write(fresh_store, TENANT, folder / "report.html", entity=ALEX,
                        anchor=report.load_anchor(anchor))


class _Outline(HTMLParser):
    """Section ids, image sources, script and link targets of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.images: list[str] = []
        self.urls: list[str] = []
        self.meta: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "section" and named.get("data-section"):
            self.sections.append(str(named["data-section"]))
        if tag == "img":
            self.images.append(str(named.get("src")))
        if tag == "meta":
            self.meta.append(named)
        for key in ("src", "href"):
            value = named.get(key)
            if value and not value.startswith(("data:", "#")):
                self.urls.append(value)


def _outline(path: Path) -> _Outline:
    parsed = _Outline()
    parsed.feed(path.read_text(encoding="utf-8"))
    return parsed


def test_report_holds_every_section_in_order(page: Path) -> None:
    """The report has the seven sections, each with content, in the documented order."""
    assert _outline(page).sections == list(report.SECTIONS)
    text = page.read_text(encoding="utf-8")
    for needle in ("Edge", "Detroit", "user switched browsers", "typo in the sign-up form",
                   "agent-7", "dpo@acme", "complete", "verified", "Checked against the given"
                   " anchor"):
        assert needle in text, needle


def test_report_is_self_contained(page: Path) -> None:
    """Images are data URIs, nothing links outside the file, and a CSP forbids the network."""
    outline = _outline(page)
    assert outline.images and all(src.startswith("data:image/png;base64,")
                                  for src in outline.images)
    assert outline.urls == []
    [policy] = [m["content"] for m in outline.meta
                if m.get("http-equiv") == "Content-Security-Policy"]
    assert policy is not None and "default-src 'none'" in policy
    assert not re.search(r"https?://", page.read_text(encoding="utf-8"))


def test_report_shows_no_erased_or_forgotten_content_as_current(page: Path) -> None:
    """Purged content is nowhere in the report; the purged person is nowhere either."""
    text = page.read_text(encoding="utf-8")
    assert "the blue door" not in text
    assert "user:dana" not in text


def test_report_for_the_whole_tenant(fresh_store: memory_es.MemoryStore, story: Story) -> None:
    """Without an entity, the report covers every entity of the tenant."""
    html = report.build(fresh_store, TENANT)
    assert "Audit report: every entity in tenant acme" in html
    assert "No anchor given" in html


def test_report_failures_leave_no_file(fresh_store: memory_es.MemoryStore, story: Story,
                                       tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad entity, a missing folder or a failure midway writes nothing."""
    folder = tmp_path / "out"
    folder.mkdir()
    with pytest.raises(memory_es.InvalidInput):
        report.write(fresh_store, TENANT, folder / "r.html", entity="Alex Smith")
    with pytest.raises(memory_es.InvalidInput):
        report.write(fresh_store, TENANT, folder / "missing" / "r.html")

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("renderer crashed")

    monkeypatch.setattr("memory_es.plots.bitemporal", broken)
    with pytest.raises(RuntimeError):
        report.write(fresh_store, TENANT, folder / "r.html", entity=ALEX)
    assert list(folder.iterdir()) == []


def test_bad_anchor_files_are_invalid_input(tmp_path: Path) -> None:
    """An unreadable or non-object anchor file is InvalidInput."""
    with pytest.raises(memory_es.InvalidInput):
        report.load_anchor(tmp_path / "nope.json")
    (tmp_path / "list.json").write_text("[1, 2]")
    with pytest.raises(memory_es.InvalidInput):
        report.load_anchor(tmp_path / "list.json")


def test_cli_report_writes_the_file(fresh_store: memory_es.MemoryStore, story: Story,
                                    store_path: Path, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """``memory-es report TENANT --entity E --anchor F --as-of T --out FILE`` writes it."""
    anchor = tmp_path / "anchor.json"
    anchor.write_text(fresh_store.anchor().model_dump_json())
    fresh_store.close()
    out = tmp_path / "r.html"
    code = main(["--store", str(store_path), "report", TENANT, "--entity", ALEX, "--anchor",
                 str(anchor), "--as-of", "2025-06-01T13:30:00Z", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    text = out.read_text(encoding="utf-8")
    assert "as of 2025-06-01T13:30:00Z" in text and "Chrome" in text
    assert main(["--store", str(store_path), "report", TENANT, "--anchor",
                 str(tmp_path / "none.json"), "--out", str(out)]) == 2


# a real browser --------------------------------------------------------------------------

def _chromium() -> str:
    found = os.environ.get("MEMORY_ES_CHROMIUM") or shutil.which("chromium") \
        or shutil.which("chromium-browser")
    if found is None:
        if REQUIRE_BROWSER:
            pytest.fail("MEMORY_ES_REQUIRE_BROWSER=1 but chromium is not installed"
                        " (apt-get install chromium)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return found


def _browse(page: Path, profile: Path, *mode: str) -> subprocess.CompletedProcess[str]:
    """Open ``page`` in headless Chromium with no network services and console logging."""
    return subprocess.run(
        [_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
         "--window-size=1280,2400", *mode, page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False)


def _console(stderr: str) -> list[str]:
    return [line.split(":CONSOLE", 1)[1] for line in stderr.splitlines() if ":CONSOLE" in line]


def test_report_renders_in_chromium_without_console_errors(page: Path, tmp_path: Path) -> None:
    """Chromium renders every section and decodes every image; the console shows no error."""
    images = len(_outline(page).images)
    dom = _browse(page, tmp_path / "profile", "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert f'data-rendered="{len(report.SECTIONS)} sections, {images}/{images} images"' \
        in dom.stdout
    for section in report.SECTIONS:
        assert f'id="{section}"' in dom.stdout
    console = _console(dom.stderr)
    assert len(console) == 1 and RENDERED in console[0], console  # our line, nothing else
    shot = tmp_path / "report.png"
    done = _browse(page, tmp_path / "profile2", f"--screenshot={shot}")
    assert done.returncode == 0, done.stderr[-2000:]
    header = shot.read_bytes()[:24]
    assert header.startswith(b"\x89PNG")
    width, height = struct.unpack(">II", header[16:24])
    assert (width, height) == (1280, 2400)
    assert not [c for c in _console(done.stderr) if RENDERED not in c]


def test_the_browser_check_sees_console_errors(page: Path, tmp_path: Path) -> None:
    """A page that tries to reach the network is blocked and the console shows it."""
    tampered = page.with_name("tampered.html")
    tampered.write_text(page.read_text(encoding="utf-8").replace(
        "<main>", "<main><img src='http://127.0.0.1:9/x.png'>"), encoding="utf-8")
    dom = _browse(tampered, tmp_path / "profile", "--dump-dom")
    assert [c for c in _console(dom.stderr) if RENDERED not in c]
    assert "images" in dom.stdout and "data-rendered" in dom.stdout
