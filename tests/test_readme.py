"""The README's Python examples run and print exactly the output the README shows."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
PAIRS = re.findall(r"```python\n(.*?)```\s*```text\n(.*?)```", README.read_text(), re.S)


def test_readme_opens_with_the_two_commands() -> None:
    """The README starts with the demo command and the test command, in that order."""
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(), re.S)
    assert "memory-es demo" in blocks[0]
    assert "pytest" in blocks[1] and "[test]" in blocks[1]


@pytest.mark.parametrize("code,expected", PAIRS, ids=[f"example{i}" for i in range(len(PAIRS))])
def test_readme_example_prints_what_it_shows(code: str, expected: str, tmp_path: Path) -> None:
    """Each Python example, run in an empty folder, prints the text block that follows it."""
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected


def test_readme_has_examples() -> None:
    """The README keeps at least the API tour and the analytics join as runnable examples."""
    assert len(PAIRS) >= 2
