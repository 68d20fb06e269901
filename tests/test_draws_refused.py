"""A draw where a list that rates the discipline takes none (fibs, seed 004: "a nardy or backgammon match
has a winner") is refused by the writers before anything is written, in the writer's own words: add-match
and amend say how to give the winner, `results` and `import` name the line of their file. (The journal's
check refuses such a match too, but with the advice for a match already written, "void it and re-enter
the result", for a match that a refused write never entered.)"""
import json

import pytest

from .conftest import make_club

NARDY = """[club]
name = "Nardy"
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.club]
engine = "fibs"
disciplines = ["long-nardy"]

[rating.chess]
engine = "elo"
disciplines = ["chess"]
"""

JOURNAL = """[[player]]
id = "anna"

[[player]]
id = "boris"

[[player]]
id = "vera"

[[player]]
id = "gleb"

[[match]]
id = "m0001"
date = 2026-11-20
players = ["anna", "boris"]
winner = "anna"
discipline = "long-nardy"

[[match]]
id = "m0002"
date = 2026-11-20
players = ["vera", "gleb"]
result = "1/2-1/2"
discipline = "chess"
"""

WORDS = "a draw in 'long-nardy', which the rating list 'club' (fibs) rates: a nardy or backgammon match has a winner"


@pytest.fixture
def club(tmp_path):
    return make_club(tmp_path / "club", JOURNAL, NARDY)


def refused(cli, club, *args, env=None):
    before = (club / "journal.toml").read_bytes()
    result = cli(*args, "--club", club, env=env)
    assert result.exit_code == 1, result.output
    assert (club / "journal.toml").read_bytes() == before
    assert "void it" not in result.stderr and "Traceback" not in result.output
    return result.stderr


def test_add_match_and_amend_refuse_a_draw_and_say_how_to_give_the_winner(cli, club):
    advice = "; say who won: --winner PLAYER or --result 1-0 / 0-1"
    assert WORDS + advice in refused(cli, club, "add-match", "anna", "boris", "--result", "1/2-1/2", "--date", "2026-11-21")
    assert WORDS + advice in refused(cli, club, "amend", "m0001", "--result", "1/2-1/2")
    assert WORDS + advice in refused(cli, club, "add-match", "anna", "boris", "--result", "1/2-1/2", "--dry-run")
    # A chess draw, which no list refuses, is written (elo rates it).
    result = cli("add-match", "vera", "gleb", "--result", "1/2-1/2", "--discipline", "chess", "--date", "2026-11-21",
                 "--club", club)
    assert result.exit_code == 0, result.output
    assert "chess (chess): vera" in result.stdout


def test_draw_is_the_result_a_half_and_says_the_same_where_a_draw_is_refused(cli, club):
    advice = "; say who won: --winner PLAYER or --result 1-0 / 0-1"
    assert WORDS + advice in refused(cli, club, "add-match", "anna", "boris", "--draw", "--date", "2026-11-21")
    assert WORDS + advice in refused(cli, club, "amend", "m0001", "--draw")
    before = (club / "journal.toml").read_bytes()
    both = cli("add-match", "vera", "gleb", "--draw", "--winner", "vera", "-d", "chess", "--club", club)
    assert both.exit_code == 2 and "give --draw, --winner or --result, one of them" in both.stderr
    assert (club / "journal.toml").read_bytes() == before
    # Chess (elo, K 20): vera and gleb drew m0002 at 1200 each; vera wins on the 21st (E ½: +10, 1210 and 1190),
    # then they draw: vera's E = 1/(1 + 10^(-20/400)) = 0.528751, her change 20·(½ − 0.528751) = −0.58.
    assert cli("add-match", "vera", "gleb", "--winner", "vera", "-d", "chess", "--date", "2026-11-21", "--club",
               club).exit_code == 0
    drawn = cli("add-match", "vera", "gleb", "--draw", "-d", "chess", "--date", "2026-11-22", "--club", club)
    assert drawn.exit_code == 0, drawn.output
    assert "chess (chess): vera 1210.00 -0.58 → 1209.42" in drawn.stdout
    assert "chess (chess): gleb 1190.00 +0.58 → 1190.58" in drawn.stdout
    assert (club / "journal.toml").read_text(encoding="utf-8").endswith(
        'id = "m0004"\ndate = 2026-11-22\nplayers = ["vera", "gleb"]\nresult = "1/2-1/2"\ndiscipline = "chess"\n')
    # amend --draw of the win of the 21st: at 1200 each, E ½ and a score of ½, no change
    amended = cli("amend", "m0003", "--draw", "--club", club)
    assert amended.exit_code == 0, amended.output
    assert "chess (chess): vera 1200.00 +0.00 → 1200.00" in amended.stdout


def test_results_refuse_a_draw_naming_its_line(cli, club, tmp_path):
    assert cli("add-tournament", "cup", "--name", "Cup", "--system", "round-robin", "--start", "2026-12-01", "--end",
               "2026-12-03", "--pairing", "berger", "--players", "anna,boris,vera,gleb", "--club", club).exit_code == 0
    paired = cli("pair", "cup", "--date", "2026-12-01", "--club", club, "--format", "json")
    assert paired.exit_code == 0, paired.output
    [first, second] = json.loads(paired.stdout)["pairs"]
    lines = tmp_path / "round-1.txt"
    lines.write_text(f"{first['white']} {first['black']} 1-0\n{second['white']} {second['black']} 1/2-1/2\n", encoding="utf-8")
    message = refused(cli, club, "results", "cup", lines)
    assert f"round-1.txt:2: {second['white']} v {second['black']}: {WORDS}; write 1-0 or 0-1 (+- or -+: a forfeit)" in message
    ru = refused(cli, club, "results", "cup", lines, env={"LANG": "ru_RU.UTF-8", "COLUMNS": "200"})
    assert (f"round-1.txt:2: {second['white']} – {second['black']}: ничья в виде игры 'long-nardy', по которому ведётся "
            "рейтинг-лист 'club' (fibs): у матча в нарды или бэкгаммон есть победитель; укажите 1-0 или 0-1") in ru
    lines.write_text(f"{first['white']} {first['black']} 1-0\n{second['white']} {second['black']} 0-1\n", encoding="utf-8")
    assert cli("results", "cup", lines, "--club", club).exit_code == 0


def test_a_knockout_draw_is_still_the_knockouts_refusal(cli, club, tmp_path):
    # (the knockout's own words come first: a draw decides nothing there, whatever the lists)
    assert cli("add-tournament", "ko", "--name", "Cup", "--system", "knockout", "--start", "2026-12-01", "--end",
               "2026-12-03", "--pairing", "knockout", "--players", "anna,boris", "--club", club).exit_code == 0
    paired = cli("pair", "ko", "--date", "2026-12-01", "--club", club, "--format", "json")
    assert paired.exit_code == 0, paired.output
    [board] = json.loads(paired.stdout)["pairs"]
    (tmp_path / "r.txt").write_text(f"{board['white']} {board['black']} 1/2-1/2\n", encoding="utf-8")
    message = refused(cli, club, "results", "ko", tmp_path / "r.txt")
    assert "is a knockout's: a draw decides nothing" in message and "a nardy or backgammon" not in message


def test_an_imported_draw_is_told_at_its_line_of_the_file(cli, club, tmp_path):
    sheet = tmp_path / "games.csv"
    sheet.write_text("date,player_a,player_b,result\n2026-11-25,anna,boris,1-0\n2026-11-25,vera,gleb,1/2-1/2\n"
                     "2026-11-26,vera,gleb,1/2-1/2\n", encoding="utf-8")
    message = refused(cli, club, "import", sheet)
    assert f"games.csv:3: m0004: {WORDS}; correct the result in the file (nothing was imported)" in message
    assert "games.csv:4:" in message   # (every such line, not the first alone)
    ru = refused(cli, club, "import", sheet, env={"LANG": "ru_RU.UTF-8", "COLUMNS": "200"})
    assert "games.csv:3: m0004: ничья в виде игры 'long-nardy'" in ru and "исправьте результат в файле" in ru
    # With the chess discipline, which the elo list rates, the same sheet is imported.
    result = cli("import", sheet, "--discipline", "chess", "--club", club)
    assert result.exit_code == 0, result.output


def test_a_chess_draw_imported_into_a_list_of_every_discipline_names_the_list_to_change(cli, tmp_path):
    # `init --engine fibs` writes a list with no disciplines: it rates every one, chess too. The PGN's
    # round 2 (from its line 11) is a draw: the file is right, the list is what to change.
    from .test_import_files import PGN, write

    without_the_chess_draw = JOURNAL.split('[[match]]\nid = "m0002"')[0]
    club = make_club(tmp_path / "club", without_the_chess_draw, NARDY.replace('disciplines = ["long-nardy"]\n', "", 1))
    message = refused(cli, club, "import", write(tmp_path, "cup.pgn", PGN))
    assert ("cup.pgn:11: m0003: a draw in 'chess', which the rating list 'club' (fibs) rates, as it rates every discipline "
            "(nardrating.toml gives [rating.club] no disciplines = [...]): a nardy or backgammon match has a winner; "
            "name the disciplines [rating.club] rates in nardrating.toml (nothing was imported)") in message
    # add-match says the same of the list, and how to give a winner
    assert "as it rates every discipline" in refused(cli, club, "add-match", "anna", "boris", "--draw", "-d", "chess")
