"""The manual's import examples are real output: each `$ nardrating import ...` there is run on the
real files (copied to a temporary folder), and what it prints must match, "…" standing for lines left out."""
import re
import shlex

from .conftest import ROOT
from .import_support import REAL, needs_real
from .test_import_files import PGN, TRF

SECTION = (ROOT / "docs" / "importing.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```text\n(.*?)```", SECTION, re.S)


def steps(block: str):
    """(command, shown lines) for each `$ ` line of a block."""
    found = []
    for line in block.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            found.append((line[2:], []))
        else:
            found[-1][1].append(line.rstrip())
    return found


def matches(shown: list[str], printed: list[str]) -> bool:
    """printed is shown, line for line, where each "…" stands for any number of printed lines."""
    parts, part = [], []
    for line in shown:
        if line == "…":
            parts.append(part)
            part = []
        else:
            part.append(line)
    parts.append(part)
    if len(parts) == 1:
        return printed == parts[0]
    first, *middle, last = parts
    if printed[:len(first)] != first or (last and printed[-len(last):] != last):
        return False
    at, end = len(first), len(printed) - len(last)
    for part in middle:  # each in order, as early as it can be
        while at + len(part) <= end and printed[at:at + len(part)] != part:
            at += 1
        if at + len(part) > end:
            return False
        at += len(part)
    return at <= end


@needs_real
def test_readme_import_examples_are_real_output(cli, tmp_path, monkeypatch):
    for source in REAL.iterdir():
        if source.suffix in (".mat", ".pgn", ".trf"):
            (tmp_path / source.name).write_bytes(source.read_bytes())
    (tmp_path / "broken.trf").write_text(TRF.replace("   1 b 0", "   1 b ="), encoding="utf-8")
    (tmp_path / "cp1251.pgn").write_bytes(PGN.replace("Liren, Ding", "Лирэн, Дин").encode("cp1251"))
    monkeypatch.chdir(tmp_path)
    assert cli("init", "club", "--name", "Demo").exit_code == 0
    assert cli("init", "nardy", "--engine", "fibs", "--name", "Nardy").exit_code == 0
    assert cli("init", "fide", "--engine", "fide", "--name", "Fide").exit_code == 0
    assert len(BLOCKS) >= 4
    for block in BLOCKS:
        for command, shown in steps(block):
            words = shlex.split(command)
            if words[0] == "cat":  # an input file the README shows: written as shown
                (tmp_path / words[1]).write_text("\n".join(shown) + "\n", encoding="utf-8")
                continue
            if words[0] == "tail":
                printed = (tmp_path / words[2]).read_text(encoding="utf-8").rstrip("\n").split("\n")[-int(words[1][1:]):]
            else:
                result = cli(*words[1:])
                printed = (result.stdout + result.stderr).rstrip("\n").split("\n")
            printed = [line.rstrip() for line in printed]
            assert matches(shown, printed), f"$ {command}\n" + "\n".join(printed)
