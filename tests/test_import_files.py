"""Each import format on small files written here: what is read, and broken files (truncated,
cp1251, CRLF, junk) reported as FILE:LINE with nothing written."""
import os
from datetime import date


from .conftest import make_club
from .import_support import entries

PGN = """[Event "Club cup"]
[Site "Moscow"]
[Date "2023.04.09"]
[Round "1"]
[White "Liren, Ding"]
[Black "Carlsen, Magnus"]
[Result "1-0"]

1. e4 e5 {a comment 0-1} 2. Nf3 1-0

[Event "Club cup"]
[Date "2023.04.10"]
[Round "2"]
[White "Carlsen, Magnus"]
[Black "Liren, Ding"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2

[Event "Club cup"]
[Date "2023.??.??"]
[Round "3"]
[White "Carlsen, Magnus"]
[Black "Liren, Ding"]
[Result "0-1"]

1. d4 0-1

[Event "Club cup"]
[Date "2023.04.11"]
[Round "4"]
[White "Liren, Ding"]
[Black "Carlsen, Magnus"]
[Result "*"]

1. e4 *
"""

MAT = """; [Player 1 "anna"]
; [EventDate "2024.03.02"]

 3 point match

 Game 1
 anna : 0                       boris : 0
  1) 31: 8/5 6/5                 64: 24/18 13/9
                                  Wins 1 point

 Game 2
 anna : 0                       boris : 1
  1) 42: 8/4 6/4                 61: 13/7 8/7
      Wins 4 points and the match
"""


def trf_player(rank, name, points, cells, title="", rating=""):
    """A 001 line by FIDE's TRF16 columns: rank 5-8, title 11-13, name 15-47, rating 49-52,
    points 81-84, then a 10-column cell per round: opponent 92-95, colour 97, result 99."""
    line = list(" " * 89)
    for start, text, width, right in ((1, "001", 3, False), (5, str(rank), 4, True), (11, title, 3, True),
                                      (15, name, 33, False), (49, rating, 4, True), (81, points, 4, True)):
        text = text.rjust(width) if right else text.ljust(width)
        line[start - 1:start - 1 + width] = text
    return "".join(line) + "".join(f"  {c}" for c in cells)


TRF = "\n".join([
    "012 Осенний кубок", "042 2024/09/01", "052 2024/09/02",
    "132" + " " * 88 + "24/09/01  24/09/02",
    trf_player(1, "Петров, Пётр", "2.0", ["   2 w 1", "   3 b +"], title="g", rating="2400"),
    trf_player(2, "Sidorov, Ivan", "1.5", ["   1 b 0", "     - H"]),
    trf_player(3, "Ivanova, Anna", "0.0", ["        ", "   1 w -"]),
]) + "\n"


def write(tmp_path, name, text, encoding="utf-8", newline="\n"):
    path = tmp_path / name
    path.write_bytes(text.replace("\n", newline).encode(encoding))
    return path


def refused(cli, club, *args):
    before = (club / "journal.toml").read_bytes()
    result = cli("import", *args, "--club", club)
    assert result.exit_code == 1, result.output
    assert (club / "journal.toml").read_bytes() == before  # nothing written
    assert "Traceback" not in result.output
    return result.stderr


# --- PGN ---------------------------------------------------------------------------

def test_pgn_games_dates_names_and_skips(cli, tmp_path):
    club = make_club(tmp_path / "club")
    result = cli("import", write(tmp_path, "cup.pgn", PGN), "--club", club)
    assert result.exit_code == 0, result.output
    players = entries(club, "player")
    assert [(p["id"], p["name"]) for p in players] == [("liren-ding", "Liren, Ding"), ("carlsen-magnus", "Carlsen, Magnus")]
    games = entries(club, "match")
    # game 3 has an unknown date, game 4 an unknown result: skipped and counted
    assert [(g["date"], g["players"][0], g["result"]) for g in games] == [
        (date(2023, 4, 9), "liren-ding", "1-0"), (date(2023, 4, 10), "carlsen-magnus", "1/2-1/2")]
    assert "date unknown" in result.stdout and "result '*' unknown" in result.stdout
    assert games[0]["note"] == "round 1; Moscow" and games[0]["tournament"] == "club-cup-2023"


def test_pgn_crlf_reads_the_same(cli, tmp_path):
    a, b = make_club(tmp_path / "a"), make_club(tmp_path / "b")
    assert cli("import", write(tmp_path, "lf.pgn", PGN), "--club", a).exit_code == 0
    assert cli("import", write(tmp_path, "crlf.pgn", PGN, newline="\r\n"), "--club", b).exit_code == 0
    assert entries(a, "match") == entries(b, "match")


def test_pgn_cp1251_is_refused_at_its_line(cli, tmp_path):
    club = make_club(tmp_path / "club")
    text = PGN.replace("Liren, Ding", "Лирэн, Дин")
    err = refused(cli, club, write(tmp_path, "cp.pgn", text, encoding="cp1251"))
    assert "cp.pgn:5: the file is not UTF-8 text" in err and "iconv -f cp1251" in err


def test_pgn_junk_and_truncation_are_reported(cli, tmp_path):
    club = make_club(tmp_path / "club")
    text = PGN.replace("\n[Event \"Club cup\"]\n[Date \"2023.04.10\"]",
                       "\nthis line is junk\n\n[Event \"Club cup\"]\n[Date \"2023.04.10\"]", 1)
    text += '\n[Event "Club cup"]\n[Date "2023.04.12"]\n[White "Carlsen, Mag'
    err = refused(cli, club, write(tmp_path, "bad.pgn", text))
    lines = text.split("\n")
    junk = lines.index("this line is junk") + 1
    cut = len(lines) - 2  # the [Event] of the cut game
    assert f"bad.pgn:{junk}: game 2 names no White player" in err
    assert f"bad.pgn:{cut}: game 6 names no White player" in err and "cut short" in err


def test_pgn_without_python_chess(cli, tmp_path, monkeypatch):
    import sys

    club = make_club(tmp_path / "club")
    monkeypatch.setitem(sys.modules, "chess", None)
    monkeypatch.setitem(sys.modules, "chess.pgn", None)
    err = refused(cli, club, write(tmp_path, "cup.pgn", PGN))
    assert err.strip() == "PGN import needs the pgn extra: pip install 'nardrating[pgn]'"


# --- .mat ---------------------------------------------------------------------------

def test_mat_match_with_gammon_in_the_last_game(cli, tmp_path):
    club = make_club(tmp_path / "club")
    assert cli("import", write(tmp_path, "m.mat", MAT), "--club", club).exit_code == 0
    [match] = entries(club, "match")
    # boris 1, then anna wins 4 points: 4-1 in a 3-point match, anna the winner
    assert match["players"] == ["anna", "boris"] and match["result"] == "1-0"
    assert match["score"] == [4, 1] and match["length"] == 3 and match["date"] == date(2024, 3, 2)


def test_mat_several_matches_in_one_file(cli, tmp_path):
    club = make_club(tmp_path / "club")
    second = MAT.split("\n", 3)[3].replace("anna", "vera")
    assert cli("import", write(tmp_path, "m.mat", MAT + "\n" + second), "--club", club).exit_code == 0
    assert [m["players"] for m in entries(club, "match")] == [["anna", "boris"], ["vera", "boris"]]


def test_mat_date_from_option_else_from_the_file(cli, tmp_path):
    club = make_club(tmp_path / "club")
    path = write(tmp_path, "m.mat", MAT.replace('; [EventDate "2024.03.02"]\n', ""))
    os.utime(path, (0, 1_700_000_000))  # 2023-11-14 22:13 UTC
    assert cli("import", path, "--date", "2024-05-05", "--dry-run", "--club", club).exit_code == 0
    assert cli("import", path, "--date", "2024-05-05", "--club", club).exit_code == 0
    assert entries(club, "match")[0]["date"] == date(2024, 5, 5)
    other = make_club(tmp_path / "other")
    assert cli("import", path, "--club", other).exit_code == 0
    assert entries(other, "match")[0]["date"] == date.fromtimestamp(1_700_000_000)


def test_mat_money_session_is_refused(cli, tmp_path):
    club = make_club(tmp_path / "club")
    err = refused(cli, club, write(tmp_path, "m.mat", MAT.replace(" 3 point match", " 0 point match")))
    assert "m.mat:4: a 0-point match is an unlimited (money) session" in err


def test_mat_truncated_and_junk(cli, tmp_path):
    club = make_club(tmp_path / "club")
    cut = MAT[: MAT.index("      Wins 4 points")]
    err = refused(cli, club, write(tmp_path, "cut.mat", cut))
    assert "cut.mat:11: game 2 has no result" in err
    err = refused(cli, club, write(tmp_path, "junk.mat", MAT.replace("  1) 42:", "%%% junk\n  1) 42:")))
    assert "junk.mat:13: unexpected text '%%% junk' in game 2" in err
    err = refused(cli, club, write(tmp_path, "unfinished.mat", MAT.replace("Wins 4 points", "Wins 1 point")))
    assert "the match is unfinished: 1-1 in a 3-point match" in err


def test_mat_crlf(cli, tmp_path):
    club = make_club(tmp_path / "club")
    assert cli("import", write(tmp_path, "m.mat", MAT, newline="\r\n"), "--club", club).exit_code == 0
    assert entries(club, "match")[0]["score"] == [4, 1]


# --- TRF ----------------------------------------------------------------------------

def test_trf_players_rounds_forfeits_byes(cli, tmp_path):
    club = make_club(tmp_path / "club")
    result = cli("import", write(tmp_path, "cup.trf", TRF), "--club", club)
    assert result.exit_code == 0, result.output
    players = entries(club, "player")
    assert players[0] == {"id": "petrov-petr", "name": "Петров, Пётр", "title": "GM"}
    games = entries(club, "match")
    assert [(g["date"], g["players"], g["result"], g.get("forfeit", False)) for g in games] == [
        (date(2024, 9, 1), ["petrov-petr", "sidorov-ivan"], "1-0", False),
        (date(2024, 9, 2), ["ivanova-anna", "petrov-petr"], "0-1", True)]  # the 132 line's dates
    # The rounds as the file has them: Ivanova's blank round 1 is an absence, Sidorov's H a half-point bye.
    first, second = entries(club, "round")
    assert (first["round"], first["boards"], first["byes"]) == (1, [{"board": 1, "white": "petrov-petr",
                                                                     "black": "sidorov-ivan"}],
                                                                [{"player": "ivanova-anna", "kind": "absent"}])
    assert second["byes"] == [{"player": "sidorov-ivan", "kind": "half-point"}]
    assert "2 rounds recorded round by round" in result.stdout
    [t] = entries(club, "tournament")
    assert (t["id"], t["name"], t["start"], t["end"]) == ("osennii-kubok-2024", "Осенний кубок",
                                                          date(2024, 9, 1), date(2024, 9, 2))
    assert (t["pairing"], t["rounds"], t["players"]) == ("dutch", 2, ["petrov-petr", "sidorov-ivan", "ivanova-anna"])


def test_trf_cp1251_crlf_junk_truncated(cli, tmp_path):
    club = make_club(tmp_path / "club")
    err = refused(cli, club, write(tmp_path, "cp.trf", TRF, encoding="cp1251"))
    assert "cp.trf:1: the file is not UTF-8 text" in err
    assert cli("import", write(tmp_path, "crlf.trf", TRF, newline="\r\n"), "--dry-run", "--club", club).exit_code == 0
    err = refused(cli, club, write(tmp_path, "junk.trf", TRF.replace("132 ", "hello\n132 ")))
    assert "junk.trf:4: not a TRF record: 'hello'" in err
    err = refused(cli, club, write(tmp_path, "cut.trf", TRF[: TRF.rindex("1 w -")] + "1 w"))
    # (a cell without a result is a game not yet played only if the other side has none either)
    assert "cut.trf:7: round 2: player 3 has no result against 1, but player 1 has '3 b +'; is the line cut short?" in err
    err = refused(cli, club, write(tmp_path, "odd.trf", TRF.replace("    2 w 1", "    2 w =")))
    assert "odd.trf:6: round 1: player 2 should have 1 =" in err


def test_trf_dates_that_are_no_dates(cli, tmp_path):
    club = make_club(tmp_path / "club")
    err = refused(cli, club, write(tmp_path, "d.trf", TRF.replace("042 2024/09/01", "042 first of Sept")))
    assert "d.trf:2: 042: 'first of Sept' is not a date" in err
    err = refused(cli, club, write(tmp_path, "r.trf", TRF.replace("24/09/01  24/09/02", "24/09/01  24/13/02")))
    assert "r.trf:4: 132: the date of round 2, '24/13/02', is not a date" in err


# --- CSV ----------------------------------------------------------------------------

def test_csv_sheet_with_names(cli, tmp_path):
    club = make_club(tmp_path / "club", '[[player]]\nid = "anna"\nname = "Анна Петрова"\n')
    sheet = "date,player_a,player_b,result,length,score,note\n2024.01.05,АННА ПЕТРОВА,Boris Ivanov,1-0,5,5-2,final\n"
    result = cli("import", write(tmp_path, "s.csv", sheet), "--club", club)
    assert result.exit_code == 0, result.output
    [match] = entries(club, "match")
    assert match["players"] == ["anna", "boris-ivanov"] and match["score"] == [5, 2] and match["length"] == 5
    assert "existing (name)" in result.stdout


def test_a_sheets_own_headings_white_black_and_russian(cli, tmp_path):
    # A chess sheet's White and Black, and a Russian club's sheet (Дата;Белые;Чёрные;Результат, 01.12.2026,
    # 1:0), import as the journal's columns would: anna (white) beat boris on 1 December 2026.
    players = '[[player]]\nid = "anna"\n\n[[player]]\nid = "boris"\n'
    for sheet in ("Date,White,Black,Result\n2026-12-01,anna,boris,1-0\n",
                  "Дата;Белые;Чёрные;Результат\n01.12.2026;anna;boris;1:0\n"):
        club = make_club(tmp_path / f"club-{len(sheet)}", players)
        result = cli("import", write(tmp_path, "s.csv", sheet), "--club", club)
        assert result.exit_code == 0, result.output
        [match] = entries(club, "match")
        assert (match["players"], match["result"], str(match["date"])) == (["anna", "boris"], "1-0", "2026-12-01")
    club = make_club(tmp_path / "twice", players)
    assert ("s.csv:1: the header row names player_a twice (a column and another name for it, such as white for "
            "player_a)") in refused(cli, club, write(tmp_path, "s.csv", "date,white,player_a,black,result\n"))


def test_an_id_given_exactly_is_that_player_where_another_differs_only_in_case(cli, tmp_path):
    # anna and ANNA (check warns of such ids, and allows them): a sheet's anna was taken for ANNA, the
    # last of the two; an id written exactly is that player, and Anna (neither) is refused, naming both.
    club = make_club(tmp_path / "club", '[[player]]\nid = "anna"\n\n[[player]]\nid = "ANNA"\n\n'
                                        '[[player]]\nid = "boris"\n')
    result = cli("import", write(tmp_path, "s.csv", "date,player_a,player_b,result\n2026-12-01,anna,boris,1-0\n"),
                 "--club", club)
    assert result.exit_code == 0, result.output
    assert [m["players"] for m in entries(club, "match")] == [["anna", "boris"]]
    err = refused(cli, club, write(tmp_path, "t.csv", "date,player_a,player_b,result\n2026-12-02,Anna,boris,1-0\n"))
    assert "t.csv:2: 'Anna' is, but for case or look-alike letters, the id of several players (ANNA, anna)" in err


def test_csv_bad_rows(cli, tmp_path):
    club = make_club(tmp_path / "club")
    sheet = "date,player_a,player_b,result\n2024-01-05,a,b,1-0\n2024-13-05,a,b,2-0\n2024-01-06,a\n"
    err = refused(cli, club, write(tmp_path, "s.csv", sheet))
    assert "s.csv:3: date '2024-13-05' is not a date" in err and "result '2-0' is not a result" in err
    assert "s.csv:4: 2 cells, but the header has 4" in err


def test_trf_2025_comments_titles_and_letter_case(cli, tmp_path):
    # TRF-2025/TRF26: '###' comment lines, titles written out, letter codes in either case, and
    # National Rating Support lines (a federation code in place of 001) beside the player lines.
    lines = TRF.split("\n")
    lines.insert(1, "### written by a pairing program")
    lines = [line.replace("    g Петров", "   GM Петров").replace("     - H", "     - h") for line in lines]
    lines.insert(6, "RUS    1      Петров, Пётр                      2410")
    club = make_club(tmp_path / "club")
    result = cli("import", write(tmp_path, "new.trf", "\n".join(lines)), "--club", club)
    assert result.exit_code == 0, result.output
    assert entries(club, "player")[0]["title"] == "GM"
    assert len(entries(club, "match")) == 2
    assert entries(club, "round")[1]["byes"] == [{"player": "sidorov-ivan", "kind": "half-point"}]


def test_mat_xg_style_names_with_spaces_and_a_drop(cli, tmp_path):
    text = """; [Site "eXtreme Gammon"]
; [Match ID "12345"]
; [Player 1 "Анна Петрова"]
; [Player 2 "Boris Ivanov"]
; [EventDate "2024.06.01"]

 1 point match

 Game 1
 Анна Петрова : 0                   Boris Ivanov : 0
  1) 31: 8/5 6/5                     Doubles => 2
  2)  Drops                          Wins 1 point
"""
    club = make_club(tmp_path / "club")
    result = cli("import", write(tmp_path, "xg.mat", text), "--club", club)
    assert result.exit_code == 0, result.output
    [match] = entries(club, "match")
    # Boris doubled and Анна dropped: Boris wins the 1-point match 1-0
    assert match["players"] == ["anna-petrova", "boris-ivanov"] and match["result"] == "0-1"
    assert match["score"] == [0, 1] and match.get("length", 1) == 1  # 1, the default, is not written


def test_csv_winner_and_an_existing_tournament(cli, tmp_path):
    club = make_club(tmp_path / "club", '[[tournament]]\nid = "cup"\nname = "Cup"\nsystem = "swiss"\n'
                                        'start = 2024-01-01\nend = 2024-01-31\n')
    sheet = "date,player_a,player_b,winner,tournament\n2024-01-05,Anna,Boris,Boris,cup\n2024-01-06,Anna,Boris,Anna,cupp\n"
    err = refused(cli, club, write(tmp_path, "s.csv", sheet))
    assert "s.csv:3: unknown tournament 'cupp'" in err
    sheet = sheet.replace("cupp", "cup")
    assert cli("import", write(tmp_path, "s.csv", sheet), "--club", club).exit_code == 0
    assert [(m["result"], m["tournament"]) for m in entries(club, "match")] == [("0-1", "cup"), ("1-0", "cup")]


def test_trf_double_forfeit_is_counted_not_written(cli, tmp_path):
    text = TRF.replace("   2 w 1", "   2 w -").replace("   1 b 0", "   1 b -")
    club = make_club(tmp_path / "club")
    result = cli("import", write(tmp_path, "dd.trf", text), "--club", club)
    assert result.exit_code == 0, result.output
    assert "1 × double forfeit (both absent)" in result.stdout
    assert [g["note"] for g in entries(club, "match")] == ["round 2"]
    # A double forfeit is no match: its round records Petrov absent (and Ivanova, blank); Sidorov,
    # with no game left in the file, is no entrant (as a "spielfrei" dummy is not).
    assert entries(club, "round")[0]["byes"] == [{"player": p, "kind": "absent"} for p in ("petrov-petr", "ivanova-anna")]
    assert "1 × players without a game" in result.stdout


def test_a_game_of_a_renamed_player_imports_under_the_new_id(cli, tmp_path):
    # The import's check read the journal without its renames: after `rename-player boris boris-2`
    # a sheet's game of boris-2 was refused as "unknown player 'boris-2'", which a full read accepts.
    club = make_club(tmp_path / "club", '[[player]]\nid = "anna"\n\n[[player]]\nid = "boris"\n')
    assert cli("rename-player", "boris", "boris-2", "--club", club).exit_code == 0
    sheet = "date,player_a,player_b,result\n2024-01-05,anna,boris-2,1-0\n"
    result = cli("import", write(tmp_path, "s.csv", sheet), "--club", club)
    assert result.exit_code == 0, result.output
    [match] = entries(club, "match")
    assert match["players"] == ["anna", "boris-2"]
    assert cli("check", "--club", club, env={"NARDRATING_NO_CACHE": "1"}).exit_code == 0


NARDY_CHIPS = """[club]
name = "Nardy"
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.chips]
engine = "chips"
"""


def test_csv_separated_by_semicolons_or_tabs_reads_as_by_commas(cli, tmp_path):
    # A spreadsheet saved as CSV where the decimal mark is a comma (Excel in Russian) separates cells by
    # semicolons; there chips may be written 12,5. The journal written is the comma sheet's, byte for byte.
    rows = [["date", "player_a", "player_b", "winner", "length", "chips", "note"],
            ["25.11.2026", "anna", "boris", "anna", "5", "12.5", "final, long"],
            ["26.11.2026", "boris", "anna", "boris", "3", "4", "replay"]]
    written = {}
    for name, sep in (("comma", ","), ("semicolon", ";"), ("tab", "\t")):
        club = make_club(tmp_path / name, "", NARDY_CHIPS)
        lines = [[f'"{c}"' if sep == "," and "," in c else c.replace("12.5", "12,5") if sep != "," else c for c in row]
                 for row in rows]
        sheet = "\r\n".join(sep.join(row) for row in lines) + "\r\n"
        result = cli("import", write(tmp_path, f"{name}.csv", sheet), "--club", club)
        assert result.exit_code == 0, result.output
        text = (club / "journal.toml").read_text(encoding="utf-8")
        written[name] = text.replace(str(tmp_path / f"{name}.csv"), "SHEET").replace(f"{name}.csv", "SHEET")
    assert written["semicolon"] == written["tab"] == written["comma"]
    [first, _] = entries(tmp_path / "comma", "match")
    assert first["chips"] == 12.5 and first["note"] == "final, long"
    # In a sheet separated by commas, 12,5 is no number (1,000 may be a thousand): refused at its line.
    club = make_club(tmp_path / "strict", "", NARDY_CHIPS)
    err = refused(cli, club, write(tmp_path, "s.csv", 'date,player_a,player_b,winner,chips\n2026-11-25,anna,boris,anna,"12,5"\n'))
    assert "s.csv:2: chips '12,5' is not a number" in err
