"""What check would flag later is refused or warned of at entry: a score that contradicts the result
(refused), a date after today (a warning that needs --yes without a terminal), a new player whose
name equals another's (a warning that says "equal"); and init's default discipline."""
import json
import os
import shutil
import subprocess
import sys
import tomllib
from datetime import date, timedelta

import pytest

from .conftest import SAMPLES, make_club

LATER = (date.today() + timedelta(days=30)).isoformat()


@pytest.fixture
def chess(tmp_path):
    club = tmp_path / "chess-club"
    shutil.copytree(SAMPLES / "chess-club", club)
    return club


def journal_bytes(club):
    return (club / "journal.toml").read_bytes()


def refused(cli, club, *args):
    before = journal_bytes(club)
    result = cli(*args, "--club", club)
    assert result.exit_code == 1, result.output
    assert journal_bytes(club) == before
    return result


def ok(cli, club, *args):
    result = cli(*args, "--club", club)
    assert result.exit_code == 0, result.output
    assert cli("check", "--club", club, env={"NARDRATING_NO_CACHE": "1"}).exit_code == 0
    return result


# --- a score against the result: refused -----------------------------------------------

@pytest.mark.parametrize("args, message", [
    # A won (1-0) but has fewer points: the score the wrong way round
    (["add-match", "anna", "boris", "--result", "1-0", "--score", "3-5"],
     "--score 3-5 contradicts the result (the first player won); give the first player's points first: --score 5-3"),
    (["add-match", "anna", "boris", "--winner", "boris", "--score", "4-4"],
     "--score 4-4 contradicts the result (the second player won); the winner needs more points than the loser"),
    (["add-match", "anna", "boris", "--result", "1/2-1/2", "--score", "1-0"],
     "--score 1-0 contradicts the result (a draw); a draw needs equal points"),
])
def test_add_match_refuses_a_score_that_contradicts_the_result(cli, chess, args, message):
    assert message in refused(cli, chess, *args).stderr


def test_amend_refuses_a_result_that_contradicts_the_kept_score(cli, chess):
    ok(cli, chess, "add-match", "anna", "boris", "--result", "1-0", "--score", "5-3", "--date", "2009-02-05")
    # the result turned round, the score kept from the match: refused, and the message says how
    result = refused(cli, chess, "amend", "m0007", "--result", "0-1")
    assert "--score 5-3 contradicts the result (the second player won); give the first player's points first: " \
           "--score 3-5" in result.stderr
    ok(cli, chess, "amend", "m0007", "--result", "0-1", "--score", "3-5")


def test_import_refuses_a_score_that_contradicts_the_result(cli, chess, tmp_path):
    sheet = tmp_path / "games.csv"
    sheet.write_text("date,player_a,player_b,result,score\n2009-02-05,anna,boris,1-0,2-5\n", encoding="utf-8")
    result = refused(cli, chess, "import", sheet)
    assert "games.csv:2: score 2-5 contradicts the result 1-0" in result.stderr


def test_check_still_warns_of_one_written_by_hand(cli, chess):
    with open(chess / "journal.toml", "a", encoding="utf-8") as f:
        f.write('\n[[match]]\nid = "m9"\ndate = 2009-02-05\nplayers = ["anna", "boris"]\nresult = "1-0"\nscore = [3, 5]\n')
    result = cli("check", "--club", chess)
    assert result.exit_code == 0 and "m9: warning: score 3-5 contradicts the result (the first player won)" in result.stdout


# --- a date after today: a warning, --yes in scripts -------------------------------------

@pytest.mark.parametrize("args", [
    ["add-match", "anna", "boris", "--winner", "anna", "--date", LATER],
    ["amend", "m0001", "--date", LATER],
    ["add-player", "dima", "--joined", LATER],
    ["edit-player", "anna", "--joined", LATER],
])
def test_a_date_after_today_needs_yes_without_a_terminal(cli, chess, args):
    result = refused(cli, chess, *args)  # CliRunner's stdin is no terminal
    option = "--joined" if "--joined" in args else "--date"
    assert f"warning: {option} {LATER} is after today ({date.today()}); a typo of the year?" in result.stderr
    assert "run the command again with --yes" in result.stderr
    done = ok(cli, chess, *args, "--yes")
    assert f"warning: {option} {LATER} is after today" in done.stderr
    check = cli("check", "--club", chess)  # and check says so ever after
    assert "after today" in check.stdout and check.exit_code == 0


def test_a_date_after_today_in_a_dry_run_is_only_said(cli, chess):
    before = journal_bytes(chess)
    result = cli("add-match", "anna", "boris", "--winner", "anna", "--date", LATER, "--dry-run", "--club", chess)
    assert result.exit_code == 0 and "after today" in result.stderr and "would add match" in result.stdout
    assert journal_bytes(chess) == before


def test_a_date_after_today_in_a_real_process_without_a_terminal(chess):
    before = journal_bytes(chess)
    env = {**os.environ, "NARDRATING_CLUB": ""}
    done = subprocess.run([sys.executable, "-m", "nardrating", "add-match", "anna", "boris", "--winner", "anna",
                           "--date", LATER, "--club", str(chess)], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60, env=env)
    assert done.returncode == 1 and "--yes" in done.stderr
    assert journal_bytes(chess) == before


def test_an_import_of_games_after_today(cli, chess, tmp_path):
    sheet = tmp_path / "games.csv"
    sheet.write_text(f"date,player_a,player_b,result\n{LATER},anna,boris,1-0\n", encoding="utf-8")
    result = refused(cli, chess, "import", sheet)
    assert f"games.csv:2: the game is dated {LATER}, after today" in result.stderr
    done = ok(cli, chess, "import", sheet, "--yes")
    assert "added 0 players, 0 tournaments, 1 match to" in done.stdout


def test_today_needs_no_confirmation(cli, chess):
    ok(cli, chess, "add-match", "anna", "boris", "--winner", "anna", "--date", date.today().isoformat())


# --- a new player's name equal to another's: a warning, in the right words ----------------

def test_a_name_equal_to_another_is_a_warning(cli, chess):
    done = ok(cli, chess, "add-player", "vera2", "--name", "Вера")
    assert "warning: player names 'Вера' (vera2) and 'Вера' (vera) are equal" in done.stderr
    assert "differ" not in done.stderr
    check = cli("check", "--club", chess).stdout
    assert "player names 'Вера' (vera2) and 'Вера' (vera) are equal" in check


def test_names_and_ids_alike_are_warnings_too(cli, chess):
    done = ok(cli, chess, "add-player", "borsi", "--name", "борис")
    assert "warning: player ids 'borsi' and 'boris' one letter apart" in done.stderr
    assert "warning: player names 'борис' (borsi) and 'Борис' (boris) differ only in case, ё/е or look-alike " \
           "letters" in done.stderr
    edited = ok(cli, chess, "edit-player", "gleb", "--name", "Анна")
    assert "warning: player names 'Анна' (gleb) and 'Анна' (anna) are equal" in edited.stderr
    assert "ids" not in edited.stderr  # gleb's id was there before


def test_a_new_name_unlike_any_other_is_no_warning(cli, chess):
    assert ok(cli, chess, "add-player", "dima", "--name", "Дмитрий").stderr == ""


# --- init --discipline -------------------------------------------------------------------

def test_init_takes_the_clubs_discipline(cli, tmp_path):
    folder = tmp_path / "bg"
    result = cli("init", folder, "--engine", "fibs", "--discipline", "backgammon")
    assert result.exit_code == 0, result.output
    config = tomllib.loads((folder / "nardrating.toml").read_text(encoding="utf-8"))
    assert config["club"]["default_discipline"] == "backgammon"
    assert '# disciplines = ["backgammon"]' in (folder / "nardrating.toml").read_text(encoding="utf-8")
    for player in ("anna", "boris"):
        assert cli("add-player", player, "--club", folder).exit_code == 0
    added = cli("add-match", "anna", "boris", "--winner", "anna", "--club", folder)
    assert added.exit_code == 0 and "club (backgammon): anna 1500.00 +" in added.stdout
    board = cli("leaderboard", "--club", folder)
    assert board.stdout.startswith("club · backgammon")


def test_init_without_a_discipline_takes_the_engines(cli, tmp_path):
    for engine, discipline in (("fibs", "long-nardy"), ("elo", "chess")):
        assert cli("init", tmp_path / engine, "--engine", engine).exit_code == 0
        config = tomllib.loads((tmp_path / engine / "nardrating.toml").read_text(encoding="utf-8"))
        assert config["club"]["default_discipline"] == discipline


def test_init_refuses_a_discipline_that_is_no_id(cli, tmp_path):
    result = cli("init", tmp_path / "x", "--discipline", "long nardy")
    assert result.exit_code == 1 and "--discipline: 'long nardy' is not an id" in result.stderr
    assert not (tmp_path / "x").exists()


def test_check_warns_of_a_match_after_today_written_by_hand(cli, tmp_path):
    journal = ('[[player]]\nid = "a"\n\n[[player]]\nid = "b"\n\n[[match]]\nid = "m1"\n'
               f'date = {LATER}\nplayers = ["a", "b"]\nwinner = "a"\n')
    club = make_club(tmp_path / "club", journal)
    result = cli("check", "--club", club, "--format", "json")
    found = json.loads(result.stdout)
    assert [(w["line"], w["entry"], w["severity"]) for w in found] == [(7, "m1", "warning")]
    assert found[0]["message"] == f"the match is dated {LATER}, after today ({date.today()}); a typo of the year?"


@pytest.mark.parametrize("answer, written", [("y\n", True), ("n\n", False), ("\n", False)])
def test_on_a_terminal_a_date_after_today_is_asked(chess, monkeypatch, answer, written):
    from typer.testing import CliRunner

    from nardrating.cli import app

    monkeypatch.setattr("nardrating.commands.common.stdin_is_terminal", lambda: True)
    before = journal_bytes(chess)
    result = CliRunner().invoke(app, ["add-match", "anna", "boris", "--winner", "anna", "--date", LATER,
                                      "--club", str(chess)], input=answer, env={"NARDRATING_CLUB": ""})
    assert "write it anyway?" in result.output
    assert result.exit_code == (0 if written else 1), result.output
    assert (journal_bytes(chess) != before) == written
