"""A bulk CSV's new players are numbered in the order its rows meet them (player_a, then player_b,
row by row), whether the file is read whole, read as its cached rows plus rows appended to it, or
read by the [fast] extra's reader: the order the players are listed in (journal.csv_named) and
numbered in is then the same whichever way the journal was read."""

import os

import pytest

from nardrating.replay.loader import load_club

CONFIG = ('[club]\nname = "Order"\njournal = ["games.csv"]\ndefault_discipline = "long-nardy"\n\n'
          '[rating.fibs]\nengine = "fibs"\n')
HEADER = "date,player_a,player_b,result,length\n"
# Row 1 meets xenia (a) and boris (b); row 2 meets anna (a) and xenia again. Row by row, the
# players are met as xenia, boris, anna. (Column by column, as the reader numbered them before:
# xenia, anna from player_a, then boris: anna before boris.)
FIRST = "2020-01-01,xenia,boris,1-0,1\n"
APPENDED = "2020-01-02,anna,xenia,0-1,1\n"
MET = ["xenia", "boris", "anna"]


def order(folder, use_cache: bool) -> list[list[str]]:
    journal = load_club(folder, use_cache=use_cache).journal
    return [list(journal.player_codes.names), list(journal.csv_named)]


def club(folder, rows: str):
    (folder / "nardrating.toml").write_text(CONFIG)
    (folder / "games.csv").write_text(HEADER + rows)


def test_a_whole_file_numbers_its_players_as_its_rows_meet_them(tmp_path):
    club(tmp_path, FIRST + APPENDED)
    assert order(tmp_path, use_cache=False) == [MET, MET]


def test_rows_appended_to_a_cached_file_number_their_players_as_a_whole_read(tmp_path, monkeypatch):
    monkeypatch.delenv("NARDRATING_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "club"
    folder.mkdir()
    club(folder, FIRST)
    ledger = load_club(folder)
    ledger.run("fibs", "long-nardy")  # and kept in the cache
    assert [list(ledger.journal.player_codes.names), list(ledger.journal.csv_named)] == [MET[:2], MET[:2]]
    with open(folder / "games.csv", "a") as f:
        f.write(APPENDED)
    ledger = load_club(folder)
    assert ledger.cache_lineage  # the cached rows plus the appended one (a full read has no lineage)
    assert [list(ledger.journal.player_codes.names), list(ledger.journal.csv_named)] == [MET, MET]
    assert order(folder, use_cache=False) == [MET, MET]


def test_the_fast_reader_numbers_them_alike(tmp_path, monkeypatch):
    pytest.importorskip("numba")
    from nardrating.fast import csvread
    taken = []
    read = csvread.read_csv
    monkeypatch.setattr(csvread, "read_csv", lambda *args: taken.append(read(*args)) or taken[-1])
    club(tmp_path, FIRST + APPENDED)
    os.environ["NARDRATING_FAST"] = "1"
    try:
        assert order(tmp_path, use_cache=False) == [MET, MET]
    finally:
        os.environ["NARDRATING_FAST"] = "0"
    assert taken == [True]  # the fast reader read it
