"""Imported files the importers used to take wrongly: digits that are not ASCII digits (str.isdigit()
takes "²" and "¹³", which int() refuses, and other scripts' digits, which it reads), and a PGN cut
short inside a game. Each is refused at its FILE:LINE with nothing written; --partial takes the
complete games of a cut PGN."""
from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import make_club

PLAYERS = '[[player]]\nid = "anna"\n\n[[player]]\nid = "boris"\n'


@pytest.fixture
def club(tmp_path):
    return make_club(tmp_path / "club", PLAYERS)


def refused(cli, club: Path, path: Path, *options: str) -> str:
    before = (club / "journal.toml").read_bytes()
    result = cli("import", path, "--club", club, *options)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "unexpectedly" not in result.stderr
    assert (club / "journal.toml").read_bytes() == before
    return result.stderr


# --- 10. digits that are not ASCII digits ------------------------------------------------------

def pgn_game(white_elo: str = "2100", date: str = "2020.01.01", moves: str = "1. e4 e5 1-0") -> str:
    return (f'[Event "Club"]\n[Date "{date}"]\n[White "Anna"]\n[Black "Boris"]\n[Result "1-0"]\n'
            f'[WhiteElo "{white_elo}"]\n\n{moves}\n')


@pytest.mark.parametrize("elo", ["²", "¹³", "２１００"])
def test_a_pgn_rating_in_other_digits_is_refused_at_its_line(cli, club, tmp_path, elo):
    pytest.importorskip("chess")
    path = tmp_path / "games.pgn"
    path.write_text(pgn_game() + "\n" + pgn_game(elo), encoding="utf-8")
    err = refused(cli, club, path)
    assert f'games.pgn:10: game 2: [WhiteElo "{elo}"] is not a rating; write it in ASCII digits' in err


@pytest.mark.parametrize("row, message", [
    ("2020-01-01,anna,boris,anna,²,", "games.csv:3: length '²' must be a whole number of points"),
    ("2020-01-01,anna,boris,anna,5,7-¹³", "games.csv:3: score '7-¹³' must be two whole numbers"),
    ("2020-01-01,anna,boris,anna,٣,", "games.csv:3: length '٣' must be a whole number of points"),
    ("٢٠٢٠-٠١-٠١,anna,boris,anna,1,", "games.csv:3: date '٢٠٢٠-٠١-٠١' is not a date"),
])
def test_a_csv_number_in_other_digits_is_refused_at_its_line(cli, club, tmp_path, row, message):
    path = tmp_path / "games.csv"
    path.write_text("date,player_a,player_b,winner,length,score\n2020-01-01,anna,boris,anna,1,\n" + row + "\n",
                    encoding="utf-8")
    assert message in refused(cli, club, path)


TRF_HEAD = "012 Club cup\n042 2020/01/01\n052 2020/01/02\n"


def trf_player(rank: str, name: str, opponent: str, result: str) -> str:
    """A TRF16 001 line: the start rank in columns 5-8, the name in 15-47, round 1 from column 92."""
    line = list("001" + " " * 97)
    for column, text in ((5, rank.rjust(4)), (15, name), (81, " 1.0"), (92, opponent.rjust(4)), (97, "w"), (99, result)):
        line[column - 1:column - 1 + len(text)] = text
    return "".join(line).rstrip() + "\n"


@pytest.mark.parametrize("rank, opponent, where", [
    ("¹³", "2", "start rank (columns 5-8) is"),
    ("1", "¹³", "round 1:"),
    ("1", "²", "round 1:"),
])
def test_a_trf_rank_or_opponent_in_other_digits_is_refused_at_its_line(cli, club, tmp_path, rank, opponent, where):
    path = tmp_path / "cup.trf"
    path.write_text(TRF_HEAD + trf_player(rank, "Anna", opponent, "1") + trf_player("2", "Boris", "1", "0"),
                    encoding="utf-8")
    err = refused(cli, club, path)
    assert "cup.trf:4: " in err and where in err, err


def test_the_trf_lines_of_these_tests_import_when_their_digits_are_ascii(cli, club, tmp_path):
    path = tmp_path / "cup.trf"
    path.write_text(TRF_HEAD + trf_player("1", "Anna", "2", "1") + trf_player("2", "Boris", "1", "0"), encoding="utf-8")
    result = cli("import", path, "--club", club)
    assert result.exit_code == 0, result.output
    assert "1 match" in result.stdout


def test_a_mat_length_in_other_digits_is_no_match(cli, club, tmp_path):
    path = tmp_path / "m.mat"
    path.write_text("; [EventDate \"2024.03.02\"]\n\n ٣ point match\n\n Game 1\n anna : 0    boris : 0\n"
                    "  1) 31: 8/5 6/5     64: 24/18 13/9\n      Wins 1 point\n", encoding="utf-8")
    assert "m.mat:3: unexpected text" in refused(cli, club, path)


# --- 11. a PGN cut inside a game ------------------------------------------------------------------

WHOLE = pgn_game() + "\n" + pgn_game(date="2020.01.02", moves="1. d4 {a long comment (with a variation)} d5 "
                                                         "(1... Nf6 2. c4) 2. c4 1-0")


def test_every_cut_inside_the_last_game_is_refused(tmp_path):
    pytest.importorskip("chess")
    from nardrating.exchange.importers.pgn import parse_pgn

    start = WHOLE.index("1. d4")  # a cut in the last game's moves, anywhere before its result
    end = WHOLE.rindex("1-0")
    for cut in range(start, end + 2):
        parsed = parse_pgn(WHOLE[:cut].encode(), "cut.pgn")
        assert any("the file ends inside game 2" in p.message for p in parsed.problems), (cut, WHOLE[:cut][-20:])
        assert all(p.line == 10 for p in parsed.problems if "ends inside" in p.message)
    assert not parse_pgn(WHOLE.encode(), "whole.pgn").problems
    assert not parse_pgn(WHOLE[:end + 3].encode(), "whole.pgn").problems


@pytest.mark.parametrize("tail", ["1. d4 d5", "1. d4 {a comm", "1. d4 (1... Nf6"])
def test_a_cut_pgn_imports_nothing_unless_partial(cli, club, tmp_path, tail):
    pytest.importorskip("chess")
    path = tmp_path / "cut.pgn"
    path.write_text(pgn_game() + "\n" + pgn_game(date="2020.01.02", moves=tail), encoding="utf-8")
    err = refused(cli, club, path)
    assert "cut.pgn:10: the file ends inside game 2" in err and "--partial" in err
    result = cli("import", path, "--club", club, "--partial")
    assert result.exit_code == 0, result.output
    assert "cut short" in result.stdout and "1 match" in result.stdout
    text = (club / "journal.toml").read_text()
    assert text.count("[[match]]") == 1 and "2020-01-01" in text and "2020-01-02" not in text
