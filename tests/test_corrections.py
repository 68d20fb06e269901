"""Corrections in one step: amend, undo, rename-player, merge-players, and what each changes.

Numbers are seed 003's chess club (start 1200, K = 20), worked by hand in the comments:
E = 1 / (1 + 10^(−d/400)); a 10-point edge gives E = 0.51439, so ±20·0.51439 = ±10.29.
"""
import json
import os
import shutil
import subprocess
import sys
import tomllib

import pytest

from .conftest import SAMPLES


@pytest.fixture
def chess(tmp_path):
    club = tmp_path / "chess-club"
    shutil.copytree(SAMPLES / "chess-club", club)
    return club


def journal(club):
    return tomllib.loads((club / "journal.toml").read_text(encoding="utf-8"))


def ratings(cli, club, *extra):
    result = cli("leaderboard", "--club", club, "--format", "json", *extra)
    assert result.exit_code == 0, result.output
    return {row["player"]: round(row["rating"], 2) for row in json.loads(result.stdout)}


# The six games as published: anna 1199.42, boris 1190.58, gleb 1190.00, vera 1220.00.
PUBLISHED = {"anna": 1199.42, "boris": 1190.58, "gleb": 1190.0, "vera": 1220.0}


def test_amend_voids_and_reenters_in_one_write_and_shows_every_change(cli, chess):
    # m0003 was anna 0-1 vera; amended to 1-0 the replay is:
    #   m1 anna 1210, boris 1190; m2 vera = gleb = 1200;
    #   m3 anna 1210 beats vera 1200: +20·(1 − 0.51439) = +9.71 → anna 1219.71, vera 1190.29;
    #   m4 boris 1190 beats gleb 1200: +10.29 → boris 1200.29, gleb 1189.71;
    #   m5 anna 1219.71 draws gleb 1189.71 (d = 30, E = 0.54311): −0.86 → anna 1218.85, gleb 1190.57;
    #   m6 vera 1190.29 beats boris 1200.29: +10.29 → vera 1200.58, boris 1190.00.
    result = cli("amend", "m0003", "--result", "1-0", "--club", chess)
    assert result.exit_code == 0, result.output
    assert "voided match m0003 (amended by m0007)" in result.stdout
    assert "added match m0007 on 2009-01-22, amends m0003" in result.stdout
    for line in ("anna 1199.42 → 1218.85", "boris 1190.58 → 1190.00", "gleb 1190.00 → 1190.57",
                 "vera 1220.00 → 1200.58"):
        assert line in result.stdout, result.stdout
    data = journal(chess)
    assert data["void"] == [{"match": "m0003", "date": data["void"][0]["date"], "reason": "amended by m0007"}]
    new = data["match"][-1]
    assert (new["id"], str(new["date"]), new["players"], new["result"], new["amends"]) == \
        ("m0007", "2009-01-22", ["anna", "vera"], "1-0", "m0003")
    assert ratings(cli, chess) == {"anna": 1218.85, "boris": 1190.0, "gleb": 1190.57, "vera": 1200.58}
    assert cli("check", "--club", chess, "--strict").exit_code == 0


def test_amend_takes_what_is_not_given_from_the_match(cli, chess):
    result = cli("amend", "m0001", "--note", "re-scored", "--reason", "note added", "--club", chess)
    assert result.exit_code == 0, result.output
    assert "no rating in the current lists changes" in result.stdout
    data = journal(chess)
    assert data["void"][0]["reason"] == "note added"
    new = data["match"][-1]
    assert (new["players"], new["winner"], new["note"], str(new["date"])) == \
        (["anna", "boris"], "anna", "re-scored", "2009-01-15")


@pytest.mark.parametrize("args, message", [
    (["m0009", "--result", "1-0"], 'unknown match \'m0009\' (did you mean "m0006"'),
    (["m0003", "--discipline", "shess"], 'did you mean "chess"'),
    (["m0003", "--winner", "anna", "--result", "1-0"], "not both"),
    (["m0003", "anna", "bors"], 'unknown player \'bors\' (did you mean "boris"?)'),
])
def test_a_refused_amend_writes_nothing(cli, chess, args, message):
    before = (chess / "journal.toml").read_bytes()
    result = cli("amend", *args, "--club", chess)
    assert result.exit_code == 1, result.output
    assert message in result.stderr
    assert (chess / "journal.toml").read_bytes() == before


def test_an_amended_match_cannot_be_amended_again(cli, chess):
    assert cli("amend", "m0003", "--result", "1-0", "--club", chess).exit_code == 0
    result = cli("amend", "m0003", "--result", "1/2-1/2", "--club", chess)
    assert result.exit_code == 1 and "already voided" in result.stderr


def test_amends_must_name_a_voided_match(cli, chess):
    with open(chess / "journal.toml", "a", encoding="utf-8") as f:
        f.write('\n[[match]]\nid = "m0100"\ndate = 2009-01-29\nplayers = ["anna", "vera"]\n'
                'result = "1-0"\namends = "m0003"\n')
    result = cli("check", "--club", chess)
    assert result.exit_code == 1
    assert "m0100: amends = 'm0003': that match is not voided" in result.stderr


def test_void_shows_what_changed(cli, chess):
    # Without m0001: m3 anna 1200 loses to vera 1200 → 1190, vera 1210; m4 boris 1200 beats gleb → 1210,
    # gleb 1190; m5 anna 1190 draws gleb 1190 → no change; m6 vera 1210 beats boris 1210 → vera 1220, boris 1200.
    result = cli("void", "m0001", "--reason", "a mistake", "--club", chess)
    assert result.exit_code == 0, result.output
    assert "anna 1199.42 → 1190.00" in result.stdout and "boris 1190.58 → 1200.00" in result.stdout
    assert "gleb" not in result.stdout and "vera" not in result.stdout  # unchanged: 1190.00 and 1220.00


def test_a_back_dated_match_shows_the_other_players_moving(cli, chess):
    # anna beats boris on 2009-01-22 (after m3, m4): anna 1199.71 vs boris 1200.29, E = 0.49917, +10.02
    # → 1209.73, boris 1190.27; m5 anna draws gleb 1189.71 (d = 20.02, E = 0.52877): gleb +0.58 → 1190.29;
    # m6 vera 1210.29 beats boris 1190.27 (E_boris = 0.47123): vera +9.42 → 1219.71.
    result = cli("add-match", "anna", "boris", "--winner", "anna", "--date", "2009-01-22", "--club", chess)
    assert result.exit_code == 0, result.output
    assert "gleb 1190.00 → 1190.29" in result.stdout and "vera 1220.00 → 1219.71" in result.stdout
    fresh = cli("add-match", "anna", "boris", "--winner", "anna", "--date", "2009-02-05", "--club", chess)
    assert "current lists" not in fresh.stdout  # not back-dated: only the two players' changes


# --- undo --------------------------------------------------------------------------

def test_undo_voids_the_last_match(cli, chess):
    assert cli("add-match", "anna", "boris", "--winner", "boris", "--date", "2009-02-05", "--club", chess).exit_code == 0
    result = cli("undo", "--yes", "--club", chess)
    assert result.exit_code == 0, result.output
    assert 'id = "m0007"' in result.stdout and "voided match m0007" in result.stdout
    assert journal(chess)["void"][-1]["match"] == "m0007"
    assert ratings(cli, chess, "--as-of", "2009-01-29") == PUBLISHED


def test_undo_of_an_amend_restores_the_original(cli, chess):
    assert cli("amend", "m0003", "--result", "1-0", "--club", chess).exit_code == 0
    result = cli("undo", "--yes", "--club", chess)
    assert result.exit_code == 0, result.output
    last = journal(chess)["match"][-1]
    assert (last["id"], last["players"], last["winner"], last["amends"]) == ("m0008", ["anna", "vera"], "vera", "m0003")
    assert ratings(cli, chess) == PUBLISHED


def test_undo_without_yes_and_without_a_terminal_writes_nothing(cli, chess):
    before = (chess / "journal.toml").read_bytes()
    result = cli("undo", "--club", chess)  # CliRunner's stdin is no terminal
    assert result.exit_code == 1
    assert (chess / "journal.toml").read_bytes() == before


def test_undo_without_a_terminal_refuses_in_a_real_process(chess):
    before = (chess / "journal.toml").read_bytes()
    env = {**os.environ, "NARDRATING_CLUB": ""}
    done = subprocess.run([sys.executable, "-m", "nardrating", "undo", "--club", str(chess)], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 1, done.stderr
    assert "--yes" in done.stderr and 'id = "m0006"' in done.stdout
    assert (chess / "journal.toml").read_bytes() == before


def test_undo_of_a_player_says_what_to_do_instead(cli, chess):
    assert cli("add-player", "borsi", "--club", chess).exit_code == 0
    before = (chess / "journal.toml").read_bytes()
    result = cli("undo", "--yes", "--club", chess)
    assert result.exit_code == 1
    assert "rename-player" in result.stderr and "merge-players" in result.stderr
    assert (chess / "journal.toml").read_bytes() == before


# --- rename and merge -----------------------------------------------------------------

def test_rename_follows_every_command(cli, chess):
    result = cli("rename-player", "boris", "borya", "--club", chess)
    assert result.exit_code == 0, result.output
    assert journal(chess)["rename"][0]["to"] == "borya"
    expected = {**PUBLISHED, "borya": PUBLISHED["boris"]}
    del expected["boris"]
    assert ratings(cli, chess) == expected
    assert ratings(cli, chess) == expected  # from the cache
    assert ratings(cli, chess, "--as-of", "2009-01-29") == expected
    history = cli("history", "borya", "--club", chess, "--format", "json")
    assert [(e["entry"], e["opponent"]) for e in json.loads(history.stdout)] == \
        [("m0001", "anna"), ("m0004", "gleb"), ("m0006", "vera")]
    assert "borya" in cli("players", "--club", chess).stdout
    refused = cli("history", "boris", "--club", chess)
    assert refused.exit_code == 1 and "did you mean" in refused.stderr
    # later matches use the new id; the old one is refused with the nearest known
    assert cli("add-match", "borya", "anna", "--winner", "borya", "--date", "2009-02-01", "--club", chess).exit_code == 0
    os.environ["NARDRATING_NO_CACHE"] = "1"
    try:
        uncached = ratings(cli, chess)
    finally:
        del os.environ["NARDRATING_NO_CACHE"]
    assert uncached == ratings(cli, chess)


def test_rename_to_an_existing_player_is_refused(cli, chess):
    before = (chess / "journal.toml").read_bytes()
    result = cli("rename-player", "boris", "anna", "--club", chess)
    assert result.exit_code == 1 and "merge-players boris anna" in result.stderr
    assert cli("rename-player", "bors", "x", "--club", chess).exit_code == 1
    # The same id twice: said as it is, not "'anna' is already a player; … merge-players anna anna".
    result = cli("rename-player", "anna", "anna", "--club", chess)
    assert result.exit_code == 1 and "rename-player needs a new id: 'anna' is the one it has" in result.stderr
    result = cli("merge-players", "anna", "anna", "--club", chess)
    assert result.exit_code == 1 and "merge-players needs two different players, not 'anna' into themself" in result.stderr
    assert (chess / "journal.toml").read_bytes() == before


def test_merge_moves_the_games_and_refuses_a_self_match(cli, chess):
    assert cli("add-player", "gleb2", "--club", chess).exit_code == 0
    assert cli("add-match", "gleb2", "vera", "--winner", "vera", "--date", "2009-02-02", "--club", chess).exit_code == 0
    before = (chess / "journal.toml").read_bytes()
    refused = cli("merge-players", "anna", "gleb", "--club", chess)
    assert refused.exit_code == 1 and "played each other (m0005)" in refused.stderr
    assert (chess / "journal.toml").read_bytes() == before
    result = cli("merge-players", "gleb2", "into-nobody", "--club", chess)
    assert result.exit_code == 1
    result = cli("merge-players", "gleb2", "gleb", "--club", chess)
    assert result.exit_code == 0, result.output
    # gleb 1190.00 now loses m0008 to vera 1220.00: E = 1/(1 + 10^(30/400)) = 0.45689 → −9.14 → 1180.86;
    # vera +9.14 → 1229.14.
    assert "gleb 1190.00 → 1180.86" in result.stdout and "gleb2 1190.58 → (none)" in result.stdout
    board = cli("leaderboard", "--club", chess, "--format", "json")
    rows = {row["player"]: row for row in json.loads(board.stdout)}
    assert "gleb2" not in rows and rows["gleb"]["games"] == 4 and round(rows["gleb"]["rating"], 2) == 1180.86
    assert round(rows["vera"]["rating"], 2) == 1229.14
    assert cli("check", "--club", chess).exit_code == 0


# --- typos -------------------------------------------------------------------------

@pytest.mark.parametrize("args, hint", [
    (["leaderboard", "--rating", "clb"], '"club"'),
    (["leaderboard", "--discipline", "chss"], '"chess"'),
    (["history", "anna", "--rating", "clb"], '"club"'),
    (["history", "anna", "--discipline", "chss"], '"chess"'),
    (["history", "ana"], '"anna"'),
    (["history", "anna", "--opponent", "bors"], '"boris"'),
    (["report", "-p", "2009-Q1", "--rating", "clb"], '"club"'),
    (["report", "-p", "2009-Q1", "--discipline", "chss"], '"chess"'),
    (["report", "-p", "2009-Q1", "--player", "ana"], '"anna"'),
    (["report", "-p", "2009-Q5"], '"2009-Q4"'),
    (["report", "-p", "2009-q1x"], '"2009-Q1"'),
    (["players", "--rating", "clb"], '"club"'),
    (["predict", "anna", "bors"], '"boris"'),
    (["predict", "ana", "boris"], '"anna"'),
    (["predict", "anna", "boris", "--rating", "clb"], '"club"'),
    (["predict", "anna", "boris", "--discipline", "chss"], '"chess"'),
    (["add-match", "anna", "bors", "--winner", "anna", "--dry-run"], '"boris"'),
    (["add-match", "anna", "boris", "--winner", "anna", "--discipline", "shess", "--dry-run"], '"chess"'),
    (["void", "m0009", "--reason", "x", "--dry-run"], '"m0006"'),
    (["amend", "m0009", "--dry-run"], '"m0006"'),
    (["rename-player", "bors", "boris2", "--dry-run"], '"boris"'),
    (["merge-players", "bors", "anna", "--dry-run"], '"boris"'),
])
def test_typos_in_any_option_exit_1_with_the_nearest(cli, args, hint):
    result = cli(*args, "--club", SAMPLES / "chess-club")
    assert result.exit_code == 1, result.output
    assert f"(did you mean {hint}" in result.stderr


def test_a_discipline_for_a_list_of_every_discipline_is_still_checked(cli, tmp_path):
    from .conftest import make_club

    club = make_club(tmp_path / "c", '[[player]]\nid = "anna"\n[[player]]\nid = "boris"\n')
    result = cli("leaderboard", "--discipline", "chss", "--club", club)
    assert result.exit_code == 1 and '(did you mean "chess"' in result.stderr
    # a list that rates every discipline still refuses one the club has never seen
    result = cli("add-match", "anna", "boris", "--winner", "anna", "--discipline", "shess", "--club", club)
    assert result.exit_code == 1 and "--new-discipline" in result.stderr


def test_new_discipline_starts_one_on_purpose_and_check_warns(cli, tmp_path):
    club = tmp_path / "nardy"
    shutil.copytree(SAMPLES / "nardy-club", club)
    refused = cli("add-match", "aslan", "bella", "--winner", "aslan", "--discipline", "long-nardi", "--club", club)
    assert refused.exit_code == 1 and '(did you mean "long-nardy"' in refused.stderr
    done = cli("add-match", "aslan", "bella", "--winner", "aslan", "--discipline", "long-nardi", "--new-discipline",
               "--club", club)
    assert done.exit_code == 0, done.output
    check = cli("check", "--club", club)
    assert check.exit_code == 0
    assert "warning: discipline 'long-nardi' is rated by no list" in check.stdout
    assert cli("check", "--strict", "--club", club).exit_code == 1
    listed = json.loads(cli("check", "--format", "json", "--club", club).stdout)
    assert [(w["severity"], w["message"].split(" is ")[0]) for w in listed] == [("warning", "discipline 'long-nardi'")]
    assert set(listed[0]) == {"file", "line", "entry", "severity", "message"} and listed[0]["line"] > 1


def test_check_json_lists_errors(cli, chess):
    with open(chess / "journal.toml", "a", encoding="utf-8") as f:
        f.write('\n[[match]]\nid = "m0100"\ndate = 2009-01-29\nplayers = ["anna", "bors"]\nwinner = "anna"\n')
    result = cli("check", "--format", "json", "--club", chess)
    assert result.exit_code == 1
    [error] = json.loads(result.stdout)
    assert error["severity"] == "error" and error["entry"] == "m0100" and "unknown player 'bors'" in error["message"]


def test_a_default_discipline_breaking_the_id_rule_is_a_config_error(cli, chess):
    config = chess / "nardrating.toml"
    config.write_text(config.read_text().replace('default_discipline = "chess"', 'default_discipline = "long nardy"'))
    result = cli("check", "--club", chess)
    assert result.exit_code == 1
    assert "nardrating.toml:5: default_discipline: 'long nardy' is not an id" in result.stderr
