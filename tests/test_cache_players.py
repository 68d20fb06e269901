"""The journal's players through the cache: read back as a table that makes a Player entry only when
one is asked for. What a command sees equals a full read (every field, the names a report shows,
public or not), after an add-player, an edit-player and a rename too; a cached leaderboard and
history of the list read names from the checked rows and make no Player at all."""
from __future__ import annotations

import json
from dataclasses import astuple

from nardrating.replay import cacheplayers
from nardrating.replay.loader import load_club

from .conftest import make_club, no_cache

CONFIG = """[club]
journal = ["journal.toml", "bulk.csv"]
default_discipline = "chess"

[rating.elo]
engine = "elo"
"""

JOURNAL = """[[player]]
id = "anna"
name = "Анна Петрова"
alias = "А. П."
qualification = "KMS"
title = "WFM"
joined = 2009-01-15

[[player]]
id = "boris"
name = "Борис"

[[match]]
id = "m1"
date = 2009-02-01
players = ["anna", "boris"]
winner = "anna"
"""

# vera is named only by the CSV: a player made from the row, not declared.
BULK = "id,date,player_a,player_b,result\nc1,2009-02-02,vera,boris,1-0\nc2,2009-02-03,anna,vera,0.5-0.5\n"


def seen(folder):
    """The players as a command sees them: every field of every entry, in order, and the names shown."""
    journal = load_club(folder).journal
    ids = [*journal.players, "nobody"]
    return ([astuple(p) for p in journal.players.values()],
            {(p, public): journal.player_name(p, public) for p in ids for public in (False, True)},
            {public: journal.player_names(ids, public) for public in (False, True)})   # (a leaderboard's, at once)


def full(folder):
    with no_cache():
        return seen(folder)


def test_players_through_the_cache_equal_a_full_read(tmp_path, cli):
    club = make_club(tmp_path / "club", JOURNAL, CONFIG)
    (club / "bulk.csv").write_text(BULK, encoding="utf-8")
    expected = full(club)
    # By hand: anna's record as entered; boris with his name only; vera from the CSV, undeclared (no line).
    assert expected[0][0][:6] == ("anna", "Анна Петрова", "А. П.", "KMS", "WFM", expected[0][0][5])
    assert expected[0][0][5].isoformat() == "2009-01-15"
    assert [row[0] for row in expected[0]] == ["anna", "boris", "vera"]
    assert expected[0][2][-3].endswith("bulk.csv") and expected[0][2][-2:] == (None, False)
    assert expected[1][("anna", True)] == "А. П." and expected[1][("boris", True)] == "Борис"
    assert expected[1][("nobody", False)] == "nobody"
    assert expected[2] == {False: ["Анна Петрова", "Борис", "vera", "nobody"], True: ["А. П.", "Борис", "vera", "nobody"]}
    assert seen(club) == expected              # writes the cache
    assert isinstance(load_club(club).journal.players, cacheplayers.PlayerTable)
    assert seen(club) == expected              # reads it
    # A match appended: the snapshot written again from the table as read (its rows, no entry made).
    for command in (["add-match", "anna", "boris", "--winner", "boris", "--date", "2009-03-01"], ["leaderboard"],
                    ["add-player", "gleb", "--name", "Глеб"], ["edit-player", "boris", "--alias", "Б."],
                    ["rename-player", "vera", "vika"]):
        assert cli(*command, "--club", club).exit_code == 0, command
        assert seen(club) == full(club), command
        assert seen(club) == full(club), command  # and once more, from the snapshot written anew
    shown = full(club)[1]
    assert shown[("gleb", False)] == "Глеб" and shown[("boris", True)] == "Б." and ("vika", False) in shown


def test_a_cached_leaderboard_history_and_players_list_make_no_player_entry(tmp_path, cli, monkeypatch):
    club = make_club(tmp_path / "club", JOURNAL, CONFIG)
    (club / "bulk.csv").write_text(BULK, encoding="utf-8")
    outputs = {}
    for args in (["leaderboard"], ["leaderboard", "--public"], ["history", "anna"], ["players"]):
        with no_cache():
            outputs[tuple(args)] = cli(*args, "--format", "json", "--club", club).stdout
    assert cli("leaderboard", "--club", club).exit_code == 0   # the cache written
    made: list[str] = []
    real = cacheplayers.PlayerTable.__getitem__
    monkeypatch.setattr(cacheplayers.PlayerTable, "__getitem__", lambda self, p: made.append(p) or real(self, p))
    every = cacheplayers.PlayerTable.every
    monkeypatch.setattr(cacheplayers.PlayerTable, "every", lambda self: made.append("(all)") or every(self))
    for args, expected in outputs.items():
        assert cli(*args, "--format", "json", "--club", club).stdout == expected, args
    assert made == []
    rows = json.loads(outputs[("leaderboard", "--public")])
    rows = rows["rows"] if isinstance(rows, dict) else rows
    assert {row["player"]: row["name"] for row in rows} == {"anna": "А. П.", "boris": "Борис", "vera": "vera"}
