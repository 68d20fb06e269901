"""Where no terminal is, the commands print without rich's console (commands/common.py): the
same bytes rich would write, and rich's own console for the lines it would change."""
import io
import subprocess
import sys

import pytest
from rich.console import Console

from nardrating.commands.common import PlainConsole, console, rich_sees_terminal

from .conftest import SAMPLES

LINES = ["added match m1 on 2009-01-01", "  fibs (long-nardy): p1 1445.27 +2.11 → 1447.38",
         "Иванов ½ [bold]not markup[/bold] :smile:", "trailing spaces  ", ""]
CHANGED_BY_RICH = ["a\ttab", "a bell\x07", "carriage\rreturn", "two\nlines"]


def rich_writes(text: str) -> str:
    out = io.StringIO()
    Console(file=out, markup=False, emoji=False, highlight=False, soft_wrap=True).print(text, markup=False)
    return out.getvalue()


def plain_writes(text: str, monkeypatch: pytest.MonkeyPatch) -> str:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    PlainConsole().print(text, markup=False)
    return out.getvalue()


def test_a_printable_line_is_written_as_it_is(monkeypatch):
    for text in LINES:
        assert plain_writes(text, monkeypatch) == text + "\n"
        assert rich_writes(text) == text + "\n"  # what rich writes where no terminal is


def test_a_line_rich_would_change_goes_through_rich(monkeypatch):
    for text in CHANGED_BY_RICH:
        assert plain_writes(text, monkeypatch) == rich_writes(text)
    assert plain_writes("a bell\x07", monkeypatch) == "a bell\n"  # rich drops the control character


@pytest.mark.parametrize("env", [{}, {"FORCE_COLOR": "1"}, {"FORCE_COLOR": ""}, {"TTY_COMPATIBLE": "1"},
                                 {"TTY_COMPATIBLE": "0", "FORCE_COLOR": "1"}, {"TTY_COMPATIBLE": "x"}])
def test_terminal_or_not_as_rich_decides(monkeypatch, env):
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    stream = io.StringIO()
    assert rich_sees_terminal(stream) == Console(file=stream).is_terminal
    monkeypatch.setattr(sys, "stdout", stream)
    assert isinstance(console(), PlainConsole) != Console(file=stream).is_terminal


@pytest.mark.slow   # (a real process's imports or memory: a speed guard, in the slow run)
def test_a_piped_leaderboard_never_imports_richs_console():
    code = ("import sys; sys.argv = ['nardrating', 'leaderboard', '--club', sys.argv[1]]\n"
            "from nardrating.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write(str('rich.console' in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code, str(SAMPLES / "chess-club")], capture_output=True, text=True)
    assert done.stdout.startswith("club · chess")
    assert done.stderr == "False"
