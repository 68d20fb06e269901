"""The README's and the manual's sample outputs are golden files: each `$ nardrating ...` block must
be what the command prints today into a pipe or a file (no terminal, no COLUMNS: natural width), so
the documentation never shows numbers the program no longer gives."""
import re
import shlex

import pytest

from .conftest import ROOT

PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
BLOCKS = [block for page in PAGES
          for block in re.findall(r"```\n\$ nardrating ([^\n]+)\n(.*?)```", page.read_text(encoding="utf-8"), re.S)]


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip().splitlines()]


def test_the_readme_has_sample_outputs():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("command, shown", BLOCKS, ids=[c for c, _ in BLOCKS])
def test_readme_output_is_current(cli, monkeypatch, command, shown):
    monkeypatch.chdir(ROOT)
    result = cli(*shlex.split(command), env={"COLUMNS": None})
    assert result.exit_code == 0, result.output
    assert lines(result.stdout) == lines(shown)
