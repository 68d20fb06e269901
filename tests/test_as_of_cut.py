"""A command as of a day says what the journal said on that day: `--as-of D` on the whole journal
gives the JSON the same command gives on the journal cut at D (its matches dated after D taken out).
`player` and `head-to-head` once counted the later games in the record, the streaks and the last
games."""
from __future__ import annotations

import json
import re
import shutil

import pytest

from .conftest import SAMPLES

CASES = [("chess-club", "2009-01-22", "vera", "anna"), ("nardy-club", "2025-02-15", "aslan", "bella"),
         ("federation-2009", "2009-02-20", "avakyan", "bagirov")]
COMMANDS = [["leaderboard"], ["players"], ["player", "{a}"], ["head-to-head", "{a}", "{b}"], ["history", "{a}"]]


def cut(club, day):
    """The club's journal files without the [[match]] entries dated after `day`."""
    for journal in club.glob("*.toml"):
        if journal.name == "nardrating.toml":
            continue
        entries = re.split(r"(?m)^(?=\[\[)", journal.read_text(encoding="utf-8"))
        kept = [e for e in entries if not (e.startswith("[[match]]") and
                                           (found := re.search(r"(?m)^date = (\S+)", e)) and found.group(1) > day)]
        assert len(kept) < len(entries)   # something is cut, or the test shows nothing
        journal.write_text("".join(kept), encoding="utf-8")


@pytest.mark.parametrize(("name", "day", "a", "b"), CASES, ids=[c[0] for c in CASES])
def test_as_of_a_day_is_the_journal_of_that_day(cli, tmp_path, name, day, a, b):
    whole = tmp_path / "whole"
    shutil.copytree(SAMPLES / name, whole)
    then = tmp_path / "then"
    shutil.copytree(SAMPLES / name, then)
    cut(then, day)
    for command in COMMANDS:
        args = [part.format(a=a, b=b) for part in command]
        shown = []
        for club in (whole, then):
            result = cli(*args, "--as-of", day, "--club", club, "--format", "json")
            assert result.exit_code == 0, result.output
            shown.append(json.loads(result.stdout))
        assert shown[0] == shown[1], args
