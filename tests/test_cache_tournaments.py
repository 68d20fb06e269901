"""A journal of many tournaments through the cache: the tournaments are stored as columns in a file
of their own (kept when a snapshot is written again for an add-player), read back as a table that
makes an entry only when asked; what a command sees equals a full read; a list whose engine does
not read tournament ends replays the same without them, and a cached leaderboard of it makes none."""
from __future__ import annotations

import os
from dataclasses import astuple

import pytest

from nardrating.engines.registry import engine_class, engine_names
from nardrating.replay import cachetables
from nardrating.replay.loader import load_club

from .conftest import make_club, no_cache
from .test_cache import cache_folder

CONFIG = """[club]
journal = ["journal.toml"]
default_discipline = "chess"

[rating.elo]
engine = "elo"

[rating.glicko]
engine = "glicko"
period = "month"
"""


def journal_text(tournaments: int) -> str:
    text = '[[player]]\nid = "anna"\n\n[[player]]\nid = "boris"\n\n'
    for k in range(tournaments):
        text += (f'[[tournament]]\nid = "t{k}"\nname = "Cup {k}"\nsystem = "swiss"\nstart = 2024-01-{k % 28 + 1:02d}\n'
                 f'end = 2024-02-{k % 28 + 1:02d}\n' + ('official = true\n' if k % 3 == 0 else '') +
                 ('standings = [{player = "anna", place = 1}, {player = "boris", place = "2-3"}]\n' if k % 4 == 0 else '')
                 + "\n")
    return text + ('[[match]]\nid = "m1"\ndate = 2024-01-05\nplayers = ["anna", "boris"]\nwinner = "anna"\n'
                   'tournament = "t4"\n')


def seen(folder):
    """The journal as a command sees it: every tournament's fields, the codes, the lists' standings."""
    from nardrating.reports import last_entry_date

    ledger = load_club(folder)
    journal = ledger.journal
    return ({tid: astuple(t) for tid, t in journal.tournaments.items()}, journal.tournament_codes.names,
            last_entry_date(journal),
            {name: {p: s.rating for p, s in ledger.run(name, "chess").standings.items()} for name in ("elo", "glicko")})


def full(folder):
    with no_cache():
        return seen(folder)


def test_tournaments_through_the_cache_equal_a_full_read(tmp_path, cli):
    club = make_club(tmp_path / "club", journal_text(30), CONFIG)
    assert seen(club) == full(club)            # writes the cache
    assert seen(club) == full(club)            # reads it
    stored = [p.name for p in cache_folder(club).iterdir() if p.name.startswith(cachetables.PREFIX)]
    assert len(stored) == 1
    assert cli("add-player", "vera", "--club", club).exit_code == 0
    assert seen(club) == full(club)            # a tail with a player: the snapshot written again…
    assert [p.name for p in cache_folder(club).iterdir() if p.name.startswith(cachetables.PREFIX)] == stored  # …same file
    with open(club / "journal.toml", "a") as f:  # a rename changes the standings of the cached tournaments
        f.write('\n[[rename]]\nplayer = "boris"\nto = "bob"\ndate = 2024-02-01\n')
    assert seen(club) == full(club)
    assert seen(club) == full(club)
    with open(club / "journal.toml", "a") as f:
        f.write('\n[[tournament]]\nid = "late"\nsystem = "swiss"\nstart = 2024-03-01\nend = 2024-03-02\n')
    assert seen(club) == full(club) and "late" in seen(club)[0]
    assert seen(club)[2].isoformat() == "2024-03-02"  # the last entry: a tournament's end


def test_a_damaged_tournaments_file_means_a_full_read(tmp_path):
    club = make_club(tmp_path / "club", journal_text(10), CONFIG)
    expected = seen(club)
    (stored,) = [p for p in cache_folder(club).iterdir() if p.name.startswith(cachetables.PREFIX)]
    data = stored.read_bytes()
    for damaged in (data[: len(data) // 2], data.replace(b'"Cup 3"', b'"Cup 4"'), data.replace(b"2024", b"-999")):
        stored.unlink()
        stored.write_bytes(damaged)
        assert seen(club) == expected


@pytest.mark.parametrize("engine", [name for name in engine_names() if not engine_class(name).tournament_ends])
def test_an_engine_that_reads_no_tournament_ends_replays_the_same_without_them(tmp_path, monkeypatch, engine):
    config = CONFIG.replace('engine = "elo"', f'engine = "{engine}"')
    # Matches of the tournaments' days (t{k} is held from 2024-01-{k+1} to 2024-02-{k+1}), tournaments
    # ending among them.
    text = journal_text(12) + "".join(
        f'\n[[match]]\nid = "x{k}"\ndate = 2024-01-{k % 12 + 1:02d}\nplayers = ["anna", "boris"]\n'
        f'winner = "{"anna" if k % 3 else "boris"}"\ntournament = "t{k % 12}"\n' for k in range(2, 40)).replace(
        "date = 2024-01-", "date = 2024-02-")
    club = make_club(tmp_path / "club", text, config)

    def replayed():
        os.environ["NARDRATING_NO_CACHE"] = "1"
        try:
            ledger = load_club(club)
            result = ledger.run("elo", "chess")
            return ({p: (s.rating, s.games) for p, s in result.standings.items()},
                    {p: [astuple(e)[:9] for e in result.history(p)] for p in ("anna", "boris")})
        finally:
            del os.environ["NARDRATING_NO_CACHE"]

    without = replayed()
    monkeypatch.setattr(engine_class(engine), "tournament_ends", True)
    assert replayed() == without and without[0]


def test_a_cached_leaderboard_of_such_a_list_makes_no_tournament_entry(tmp_path, cli, monkeypatch):
    club = make_club(tmp_path / "club", journal_text(50).replace('tournament = "t4"\n', ""),
                     CONFIG.split("[rating.glicko]")[0])
    assert cli("leaderboard", "--club", club).exit_code == 0   # the cache written
    made: list[int] = []
    real = cachetables.Table._make
    monkeypatch.setattr(cachetables.Table, "_make", lambda self, k: made.append(k) or real(self, k))
    assert cli("leaderboard", "--club", club).exit_code == 0
    assert made == []
    # A player appended: the write's checks over the whole journal look at the standings players only;
    # the write keeps the journal as written as the snapshot, and the leaderboard after it checks nothing.
    with_standings = {k for k in range(50) if k % 4 == 0}
    for command, checked in ((["add-player", "vera"], with_standings), (["leaderboard"], set())):
        assert cli(*command, "--club", club).exit_code == 0
        assert set(made) == checked, command
        made.clear()
