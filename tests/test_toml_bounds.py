"""A TOML journal or config with a key of thousands of dotted parts, or arrays nested deep, is
refused at its line before it is parsed: tomllib's cost grows with the square of a key's parts
(30,000 parts, a 60 KB line: 14 s and 5.2 GB), and each level of nesting costs it a frame."""
from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from nardrating.journal.tomlsource import parse_toml

from .conftest import ELO_CONFIG, make_club

MAX_KEY_PARTS, MAX_NESTING = 16, 32   # the bounds docs/journal.md states

PLAYERS = '[[player]]\nid = "anna"\n'


def dotted(parts: int) -> str:
    return "a" + ".a" * (parts - 1) + " = 1\n"


def test_a_key_of_thousands_of_parts_is_refused_at_its_line(cli, tmp_path):
    club = make_club(tmp_path / "club", PLAYERS + "\n[[match]]\n" + dotted(3000))
    result = cli("check", "--club", club)
    assert result.exit_code == 1, result.output
    assert "journal.toml:5: TOML cannot be read: a key of 3000 dotted parts" in result.stderr
    config = make_club(tmp_path / "other", PLAYERS, ELO_CONFIG + dotted(3000))
    result = cli("check", "--club", config)
    assert result.exit_code == 1, result.output
    assert f"nardrating.toml:{ELO_CONFIG.count(chr(10)) + 1}: TOML cannot be read: a key of 3000" in result.stderr


@pytest.mark.parametrize("text, line", [
    ("x = 1\ny = " + "[" * 100 + "]" * 100 + "\n", 2),                       # in a row
    ("y = " + "[1, " * 100 + "]" * 100 + "\n", 1),                           # with values between
    ("y = " + "{a = " * 60 + "1" + "}" * 60 + "\n", 1),                       # inline tables
    ("y = " + "[\n" * 40 + "]\n" * 40, MAX_NESTING + 1),                      # over several lines
    ('["a"' + '."a"' * (MAX_KEY_PARTS + 4) + "]\n", 1),                     # a header of quoted parts
])
def test_too_deep_is_refused_at_its_line(text, line):
    problems: list = []
    assert parse_toml(text, "j.toml", problems) is None
    assert [(p.line, "TOML cannot be read" in p.message) for p in problems] == [(line, True)], problems


@pytest.mark.parametrize("text", [
    'note = "' + ".".join("a" * 40) + '"\n',                      # dots in a string are no key
    "note = '''\n" + "a." * 100 + "\n[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n'''\n",  # nor in a multi-line one
    'x = "' + "[" * 50 + '"\n# ' + "{" * 50 + "\n",                # brackets in a string or a comment
    "k = 1.5\n[rating.club]\ninactivity = [[3, 25], [6, 50]]\n",
    dotted(MAX_KEY_PARTS),
    "y = " + "[" * MAX_NESTING + "]" * MAX_NESTING + "\n",
])
def test_what_real_files_hold_is_read(text):
    problems: list = []
    assert parse_toml(text, "j.toml", problems) is not None, problems


def test_the_bounds_are_those_the_docs_state():
    from nardrating.journal import tomlsource

    assert (tomlsource.MAX_KEY_PARTS, tomlsource.MAX_NESTING) == (MAX_KEY_PARTS, MAX_NESTING)


@pytest.mark.slow
@pytest.mark.parametrize("parts", [30_000, 100_000])   # lines of 60 KB and 200 KB
@pytest.mark.parametrize("where", ["journal", "config"])
def test_huge_keys_are_refused_in_a_small_memory(tmp_path, parts, where):
    # Under a 200 MB address-space limit (tomllib would take gigabytes, and fail or be killed):
    # the refusal with the line, not a MemoryError.
    journal, config = (PLAYERS + "[[match]]\n" + dotted(parts), ELO_CONFIG) if where == "journal" else \
        (PLAYERS, ELO_CONFIG + dotted(parts))
    club = make_club(tmp_path / "club", journal, config)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (200 << 20, 200 << 20))

    done = subprocess.run([sys.executable, "-m", "nardrating", "check", "--club", str(club)], preexec_fn=limit,
                          capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={"NARDRATING_NO_CACHE": "1", "PATH": ""})
    assert done.returncode == 1, done.stderr
    assert f"TOML cannot be read: a key of {parts} dotted parts" in done.stderr
