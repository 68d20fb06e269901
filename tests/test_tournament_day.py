"""A tournament day as the director lives it: the entries typed or saved on the day, on a copy of the
sample club, each refusal leaving the journal byte for byte."""
import json
import shutil

import pytest

from .conftest import SAMPLES


@pytest.fixture
def club(tmp_path):
    folder = tmp_path / "club"
    shutil.copytree(SAMPLES / "club-swiss", folder)
    return folder


def journal(club):
    return (club / "journal.toml").read_bytes()


def test_a_results_file_saved_by_a_windows_editor_with_a_bom_and_crlf_is_read(cli, club, tmp_path):
    # Notepad saves "UTF-8" with a byte order mark first and CRLF line ends. Round 4 of the spring
    # open has five boards (the sample's round-4.txt); the same five lines, so saved, enter five results.
    lines = ["anna gleb 1/2-1/2", "zoya dina 0-1", "boris vera 1-0", "kira egor 1-0", "ivan lev 1-0"]
    saved = tmp_path / "round-4.txt"
    saved.write_bytes("\ufeff".encode() + "\r\n".join(lines).encode() + b"\r\n")
    result = cli("results", "spring-open", saved, "--club", club)
    assert result.exit_code == 0, result.output
    matches = json.loads(cli("matches", "--tournament", "spring-open", "--club", club, "-f", "json").stdout)
    round_4 = [m for m in matches if m["date"] == "2025-03-22"]
    # each line's WHITE BLACK RESULT, as written: anna-gleb drawn, zoya lost to dina, the rest won by white
    assert [(m["players"], m["result"]) for m in round_4] == [
        (["anna", "gleb"], "1/2-1/2"), (["zoya", "dina"], "0-1"), (["boris", "vera"], "1-0"),
        (["kira", "egor"], "1-0"), (["ivan", "lev"], "1-0")]


def test_a_dutch_swiss_without_its_number_of_rounds_is_refused_when_entered(cli, club):
    # The Dutch system cannot pair a round without the event's number of rounds (C.04.3 pairs the last
    # round by rules of its own), and the journal is append-only: a [[tournament]] written without
    # rounds could never be paired. add-tournament refuses it and writes nothing.
    before = journal(club)
    result = cli("add-tournament", "autumn", "--name", "Autumn", "--system", "swiss", "--start", "2025-09-01",
                 "--end", "2025-09-30", "--pairing", "dutch", "--players", "anna,boris,vera", "--club", club)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    # (in the command line's words: the entry model's speak of the journal's keys, rounds = 5)
    assert "autumn: --pairing dutch needs --rounds" in result.stderr and "e.g. --rounds 5" in result.stderr
    assert journal(club) == before
    for extra, said in ((["--pairing", "losses"], "--pairing losses needs --max-losses, the losses that end a "
                                                   "player's event (e.g. --max-losses 3)"),
                        (["--max-losses", "3"], "--max-losses is for --pairing losses; leave it out or give that "
                                                "pairing")):
        result = cli("add-tournament", "autumn", "--name", "Autumn", "--system", "swiss", "--start", "2025-09-01",
                     "--end", "2025-09-30", *extra, "--players", "anna,boris,vera", "--club", club)
        assert result.exit_code == 1 and said in result.stderr, result.output
    assert journal(club) == before
    result = cli("add-tournament", "autumn", "--name", "Autumn", "--system", "swiss", "--start", "2025-09-01",
                 "--end", "2025-09-30", "--pairing", "dutch", "--rounds", "3", "--players", "anna,boris,vera",
                 "--club", club)
    assert result.exit_code == 0, result.output


def test_check_names_the_line_of_a_hand_written_dutch_swiss_without_rounds(cli, club):
    text = journal(club).decode()
    line = text.count("\n") + 2   # the [[tournament]] header below, after a blank line
    (club / "journal.toml").write_text(text + '\n[[tournament]]\nid = "autumn"\nname = "Autumn"\nsystem = "swiss"\n'
                                       'start = 2025-09-01\nend = 2025-09-30\npairing = "dutch"\n', encoding="utf-8")
    result = cli("check", "--club", club)
    assert result.exit_code == 1
    assert f"journal.toml:{line}: autumn:" in result.output and 'pairing = "dutch" needs rounds' in result.output


def test_a_renamed_entrant_keeps_their_place_rounds_and_results_in_a_tournament_run_here(cli, club, tmp_path):
    # lev is no. 10 of the spring open: round 1 black against dina (no. 5), lost; round 2 white against
    # zoya (no. 7), lost; round 3 the pairing-allocated bye, worth 1 point (bye_points unset: 1).
    # A rename holds for every entry, before and after: the start list, the rounds and the results.
    result = cli("rename-player", "lev", "leo", "--club", club)
    assert result.exit_code == 0, result.output
    assert cli("check", "--club", club).exit_code == 0
    rows = json.loads(cli("crosstable", "spring-open", "--club", club, "-f", "json").stdout)
    leo = next(r for r in rows if r["player"] == "leo")
    assert leo["number"] == 10 and leo["points"] == 1.0
    assert [(c["opponent"], c["colour"], c["result"]) for c in leo["rounds"]][:2] == [(5, "b", "0"), (7, "w", "0")]
    assert leo["rounds"][2]["kind"] == "pairing-allocated"
    assert not any(r["player"] == "lev" for r in rows)
    # round 4's board 5 is ivan (white) v lev: entered by the new id
    saved = tmp_path / "round-4.txt"
    saved.write_text("anna gleb 1/2-1/2\nzoya dina 0-1\nboris vera 1-0\nkira egor 1-0\nivan leo 1-0\n", encoding="utf-8")
    result = cli("results", "spring-open", saved, "--club", club)
    assert result.exit_code == 0, result.output
    assert cli("withdraw", "spring-open", "leo", "--date", "2025-03-22", "--club", club).exit_code == 0


def test_two_entrants_of_one_tournament_run_here_are_not_merged(cli, club):
    # lev and kira are both in the spring open's start list: merged, one player would stand in it twice
    # (and kira would have met kira's own duplicate's opponents twice over). Refused, nothing written.
    before = journal(club)
    result = cli("merge-players", "lev", "kira", "--club", club)
    assert result.exit_code == 1, result.output
    assert "both are entrants of the tournament 'spring-open'" in result.stderr
    assert journal(club) == before
    # oleg plays only the championship: lev's spring open becomes his, at lev's number 10
    result = cli("merge-players", "lev", "oleg", "--club", club)
    assert result.exit_code == 0, result.output
    start = json.loads(cli("entrants", "spring-open", "--club", club, "-f", "json").stdout)
    assert [(e["number"], e["player"]) for e in start][-1] == (10, "oleg")
    assert cli("check", "--club", club).exit_code == 0


def _with_input(cli, args, text):
    from typer.testing import CliRunner

    from nardrating.cli import app

    return CliRunner().invoke(app, [str(a) for a in args], input=text, env={"COLUMNS": "100", "NARDRATING_CLUB": ""})


@pytest.fixture
def knockout(cli, tmp_path):
    """Four players, a knockout paired for its first round: the bracket of 4 is 1 4 2 3, so board 1
    is a (no. 1) v d (no. 4), board 2 b v c (unrated players are numbered by name)."""
    folder = tmp_path / "ko"
    assert cli("init", folder, "--engine", "elo").exit_code == 0
    for p in "abcd":
        assert cli("add-player", p, "--club", folder).exit_code == 0
    assert cli("add-tournament", "ko", "--name", "KO", "--system", "knockout", "--start", "2025-11-01", "--end",
               "2025-11-30", "--pairing", "knockout", "--players", "a,b,c,d", "--club", folder).exit_code == 0
    assert cli("pair", "ko", "--date", "2025-11-01", "--club", folder).exit_code == 0
    return folder


def test_a_drawn_result_on_a_knockout_board_is_refused_at_entry(cli, knockout):
    # A draw decides no knockout tie: entered, it left `pair` unable to pair the next round, and the
    # board already holding a result. results and add-match --tournament refuse it, writing nothing.
    before = journal(knockout)
    result = _with_input(cli, ["results", "ko", "-", "--club", knockout], "a d 1/2-1/2\nb c 1-0\n")
    assert result.exit_code == 1, result.output
    assert "<stdin>:1: board 1 of round 1 (a v d) is a knockout's: a draw decides nothing" in result.stderr
    result = cli("add-match", "d", "a", "--result", "1/2-1/2", "--tournament", "ko", "--date", "2025-11-01",
                 "--club", knockout)
    assert result.exit_code == 1, result.output
    assert "a draw decides nothing" in result.stderr
    assert journal(knockout) == before
    # decided games go in, and round 2 pairs the two winners: d (who beat a) and b (who beat c)
    result = _with_input(cli, ["results", "ko", "-", "--club", knockout], "a d 0-1\nb c 1-0\n")
    assert result.exit_code == 0, result.output
    paired = json.loads(cli("pair", "ko", "--date", "2025-11-02", "--dry-run", "--club", knockout, "-f", "json").stdout)
    assert [{p["white"], p["black"]} for p in paired["pairs"]] == [{"d", "b"}]


def test_one_result_entered_names_its_one_match(cli, knockout):
    # the first match of an empty journal is m0001: one board, one match, no range "m0001 to m0001"
    result = _with_input(cli, ["results", "ko", "-", "--dry-run", "--club", knockout], "a d 1-0\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "would add 1 result of round 1 of ko (m0001)"


def test_amend_of_a_board_naming_its_players_the_other_way_round_keeps_the_colours(cli, club, tmp_path):
    # Round 4's board 1 is anna (white) v gleb (black), entered drawn. The arbiter corrects it as
    # "gleb won": amend m0020 gleb anna --result 1-0, from gleb's side, as add-match takes it. The
    # board keeps its colours: anna v gleb, 0-1. (It was refused, in the journal's words.)
    saved = tmp_path / "round-4.txt"
    saved.write_text("anna gleb 1/2-1/2\nzoya dina 0-1\nboris vera 1-0\nkira egor 1-0\nivan lev 1-0\n", encoding="utf-8")
    assert cli("results", "spring-open", saved, "--club", club).exit_code == 0
    result = cli("amend", "m0020", "gleb", "anna", "--result", "1-0", "--club", club)
    assert result.exit_code == 0, result.output
    rows = json.loads(cli("crosstable", "spring-open", "--club", club, "-f", "json").stdout)
    cell = {r["player"]: r["rounds"][3] for r in rows}
    # anna is no. 1, gleb no. 4
    assert (cell["anna"]["opponent"], cell["anna"]["colour"], cell["anna"]["result"]) == (4, "w", "0")
    assert (cell["gleb"]["opponent"], cell["gleb"]["colour"], cell["gleb"]["result"]) == (1, "b", "1")
    matches = json.loads(cli("matches", "--tournament", "spring-open", "--club", club, "-f", "json").stdout)
    corrected = next(m for m in matches if m["id"] == "m0025")
    assert (corrected["players"], corrected["result"]) == (["anna", "gleb"], "0-1")


@pytest.mark.parametrize("players", [[], ["--players", "anna"], ["--players", ","]])
def test_a_tournament_run_here_without_a_start_list_is_refused_when_entered(cli, club, players):
    # pair needs the start list ("add players = [...] to its [[tournament]] entry") and join refuses a
    # tournament without one: entered so, it could never be paired. One player is no field either.
    before = journal(club)
    result = cli("add-tournament", "autumn", "--name", "Autumn", "--system", "round-robin", "--start", "2025-09-01",
                 "--end", "2025-09-30", "--pairing", "berger", *players, "--club", club)
    assert result.exit_code == 1, result.output
    assert "needs its start list, at least two players: --players" in result.stderr
    assert journal(club) == before


def test_a_round_robin_given_more_rounds_than_its_table_is_refused_and_ends_with_the_table(cli, club):
    # A Berger table of 4 players has 3 rounds (n − 1, C.05 Annex 1). add-tournament refuses --rounds 10;
    # written by hand, the 4th pair said "failed unexpectedly … a bug" and now says the event is finished.
    base = ["--name", "Autumn", "--system", "round-robin", "--start", "2025-09-01", "--end", "2025-09-30",
            "--pairing", "berger", "--players", "anna,boris,vera,gleb", "--club", club]
    before = journal(club)
    result = cli("add-tournament", "autumn", *base, "--rounds", "10")
    assert result.exit_code == 1, result.output
    assert "--rounds 10: a berger event of 4 players has 3 rounds" in result.stderr
    assert journal(club) == before
    text = journal(club).decode() + ('\n[[tournament]]\nid = "autumn"\nname = "Autumn"\nsystem = "round-robin"\n'
                                    'start = 2025-09-01\nend = 2025-09-30\npairing = "berger"\nrounds = 10\n'
                                    'players = ["anna", "boris", "vera", "gleb"]\n')
    (club / "journal.toml").write_text(text, encoding="utf-8")
    for day in ("2025-09-01", "2025-09-02", "2025-09-03"):
        paired = cli("pair", "autumn", "--date", day, "--club", club, "-f", "json")
        assert paired.exit_code == 0, paired.output
        lines = "".join(f"{p['white']} {p['black']} 1-0\n" for p in json.loads(paired.stdout)["pairs"])
        assert _with_input(cli, ["results", "autumn", "-", "--club", club], lines).exit_code == 0
    result = cli("pair", "autumn", "--date", "2025-09-04", "--club", club)
    assert result.exit_code == 1, result.output
    assert "is finished: all 3 rounds are paired" in result.stderr and "unexpectedly" not in result.output


def test_a_late_entry_into_a_round_robin_is_refused_when_entered(cli, club):
    # The Berger table is drawn for the whole field: pair refuses any late entry, and a [[join]] can
    # only be followed by a withdrawal, which does not take it back. So the join that was accepted
    # left the championship (six players, two rounds played) unpairable for good.
    before = journal(club)
    result = cli("join", "club-championship", "zoya", "--date", "2025-04-20", "--club", club)
    assert result.exit_code == 1, result.output
    assert "a round-robin's table is drawn for the whole field" in result.stderr
    assert journal(club) == before
    assert cli("pair", "club-championship", "--date", "2025-04-19", "--dry-run", "--club", club).exit_code == 0


def test_a_late_entry_after_the_last_round_is_refused(cli, club):
    # the spring open has 5 rounds (rounds = 5): a join from round 9 would never be paired
    before = journal(club)
    result = cli("join", "spring-open", "oleg", "--round", "9", "--date", "2025-03-20", "--club", club)
    assert result.exit_code == 1, result.output
    assert "--round 9: tournament 'spring-open' is planned for rounds 1 to 5" in result.stderr
    assert journal(club) == before
    assert cli("join", "spring-open", "oleg", "--round", "5", "--date", "2025-03-20", "--club", club).exit_code == 0
