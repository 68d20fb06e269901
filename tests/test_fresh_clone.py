"""The README's quick start, as a newcomer runs it: in a fresh clone of the committed tree, in a new
virtual environment, each line of the block run by a shell. The first line's report must be the one
the README shows for the same command; the second line (the test extra and the default suite) must
pass without anything outside the clone (the real import files of ../shared are then skipped)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .doc_examples import ROOT, blocks, printed_lines, steps

README = ROOT / "README.md"


def quick_start() -> list[str]:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Quick start")
    block = next(b for b in blocks(README) if b.lang == "sh" and text.count("\n", 0, start) < b.line)
    return [line for line in block.lines if line.strip()]


def shown_report() -> list[str]:
    session = next(b for b in blocks(README) if b.kind == "session" and "report --club sample_ledgers/federation-2009"
                   " --period 2009-Q1" in b.lines[0])
    return steps(session)[0][1]


def test_the_quick_start_is_what_the_readme_says():
    assert quick_start() == [
        "pip install . && nardrating report --club sample_ledgers/federation-2009 --period 2009-Q1",
        "pip install -e '.[test]' && pytest",
    ]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_the_quick_start_works_on_a_fresh_clone(tmp_path):
    clone, venv = tmp_path / "nardrating", tmp_path / "venv"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    # (COLUMNS and LINES too: pytest-xdist's workers set them to 80 and 24, which would fold the report)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST", "NARDRATING", "VIRTUAL_ENV", "PYTHON")) and k not in ("COLUMNS", "LINES")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    first, second = quick_start()

    report = subprocess.run(["sh", "-c", first], cwd=clone, env=env, capture_output=True, text=True, timeout=900)
    assert report.returncode == 0, report.stdout + report.stderr
    shown = shown_report()
    assert printed_lines(report.stdout)[-len(shown):] == shown

    suite = subprocess.run(["sh", "-c", second], cwd=clone, env=env, capture_output=True, text=True, timeout=1800)
    assert suite.returncode == 0, suite.stdout[-5000:] + suite.stderr[-5000:]
    assert Path(clone / "sample_ledgers").is_dir()
