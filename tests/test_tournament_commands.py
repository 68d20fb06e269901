"""The tournament director's commands on a copy of the sample club: JSON keys, what they write, and
every refusal leaving the journal byte for byte."""
import json
import shutil

import pytest

from nardrating.replay.loader import load_club
from nardrating.tournaments.fromjournal import tournament_state

from .conftest import SAMPLES

SAMPLE = SAMPLES / "club-swiss"


@pytest.fixture
def club(tmp_path):
    folder = tmp_path / "club"
    shutil.copytree(SAMPLE, folder)
    return folder


def journal(club):
    return (club / "journal.toml").read_bytes()


def run(cli, club, *args):
    return cli(*args, "--club", club)


def json_of(cli, club, *args):
    result = run(cli, club, *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def refused(cli, club, *args, stdin=None):
    """exit 1, a plain message, and the journal as it was."""
    before = journal(club)
    result = cli(*args, "--club", club) if stdin is None else _with_input(cli, club, args, stdin)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "unexpectedly" not in result.output
    assert journal(club) == before
    return result.stderr


def _with_input(cli, club, args, text):
    from typer.testing import CliRunner

    from nardrating.cli import app

    return CliRunner().invoke(app, [*map(str, args), "--club", str(club)], input=text,
                              env={"COLUMNS": "100", "NARDRATING_CLUB": ""})


def test_json_keys_of_every_report(cli, club):
    [spring, championship] = json_of(cli, club, "tournaments")
    assert list(spring) == ["id", "name", "system", "pairing", "start", "end", "rounds", "players"]
    assert (spring["pairing"], spring["rounds"], spring["players"]) == ("dutch", 5, 10)
    assert (championship["pairing"], championship["rounds"]) == ("berger", 5)   # the 6-player table's 5 rounds
    entrants = json_of(cli, club, "entrants", "spring-open")
    assert list(entrants[0]) == ["number", "player", "name", "rating"]
    assert [e["player"] for e in entrants][:3] == ["anna", "boris", "vera"]  # by rating (2105, 2050, 1990)
    standings = json_of(cli, club, "standings", "spring-open")
    assert list(standings[0]) == ["rank", "player", "name", "points", "tiebreaks"]
    assert list(standings[0]["tiebreaks"]) == ["buchholz-cut1", "buchholz", "sonneborn-berger"]
    rows = json_of(cli, club, "crosstable", "spring-open")
    assert list(rows[0]) == ["rank", "number", "player", "name", "rating", "rounds", "points", "tiebreaks"]
    assert list(rows[0]["rounds"][0]) == ["round", "opponent", "colour", "result", "kind"]
    paired = json_of(cli, club, "pair", "club-championship", "--date", "2025-04-19", "--dry-run")
    assert list(paired) == ["tournament", "round", "pairs", "byes"]
    assert paired["round"] == 3 and list(paired["pairs"][0]) == ["board", "white", "black"]


def test_standings_worked_by_hand(cli, club):
    # Round 1 of the spring open: anna-egor 1-0, zoya-boris 0-1, vera-ivan ½, kira-gleb 0-1, dina-lev 1-0.
    after_one = json_of(cli, club, "standings", "spring-open", "--after-round", "1")
    points = {row["player"]: row["points"] for row in after_one}
    assert points == {"anna": 1, "boris": 1, "gleb": 1, "dina": 1, "vera": 0.5, "ivan": 0.5, "egor": 0, "zoya": 0,
                      "kira": 0, "lev": 0}
    # anna's Buchholz after round 1: egor's 0; boris's: zoya's 0 …; vera's: ivan's ½.
    assert {row["player"]: row["tiebreaks"]["buchholz"] for row in after_one}["vera"] == 0.5


def test_pair_writes_the_round_and_refuses_what_it_must(cli, club):
    assert "round 4 has no result on board 1, 2, 3, 4, 5" in refused(cli, club, "pair", "spring-open", "--date",
                                                                       "2025-03-29")
    assert run(cli, club, "add-tournament", "plain", "--name", "Plain", "--system", "swiss", "--start", "2025-06-01",
               "--end", "2025-06-02").exit_code == 0
    assert "tournament 'plain' has no pairing system; add pairing = one of berger" in refused(
        cli, club, "pair", "plain", "--date", "2025-06-01")
    assert "unknown tournament 'spring-opne'" in refused(cli, club, "pair", "spring-opne")
    assert ("--date 2025-06-01: tournament 'club-championship' runs from 2025-04-05 to 2025-05-10"
            in refused(cli, club, "pair", "club-championship", "--date", "2025-06-01"))
    # round 2 of the championship is dated 2025-04-12 (the sample's journal): round 3 cannot come before it;
    # the check of the whole journal said only "round 3 is dated …, before round 2", without the option to give
    assert refused(cli, club, "pair", "club-championship", "--date", "2025-04-05").strip() == (
        "--date 2025-04-05 is before round 2 of 'club-championship' (2025-04-12); give --date 2025-04-12 or later")
    assert "--absent: a berger event pairs every player" in refused(cli, club, "pair", "club-championship",
                                                                    "--date", "2025-04-19", "--absent", "anna")
    result = run(cli, club, "pair", "club-championship", "--date", "2025-04-19")
    assert result.exit_code == 0, result.output
    state = tournament_state(load_club(club, use_cache=False).journal, "club-championship")
    # The 6-player Berger table's round 3: 2-6, 3-1, 4-5 (C.05 Annex 1), by pairing number.
    numbers = {e.player: e.number for e in state.entrants}
    assert [(numbers[b.white], numbers[b.black]) for b in state.rounds[2].boards] == [(2, 6), (3, 1), (4, 5)]
    assert run(cli, club, "check").exit_code == 0


def test_results_enter_a_round_checked_against_its_pairing(cli, club):
    lines = "anna gleb 1/2-1/2\nzoya dina 0-1\nboris vera 1-0\nkira egor 1-0\nivan lev 1-0\n"
    assert "board 1 is anna (white) v gleb (black); write 'anna gleb RESULT'" in refused(
        cli, club, "results", "spring-open", "-", stdin="gleb anna 1-0\n")
    assert "zz v anna is not a board of round 4" in refused(cli, club, "results", "spring-open", stdin="zz anna 1-0\n")
    assert "<stdin>:1: 'anna gleb 2-0' is not WHITE BLACK RESULT" in refused(cli, club, "results", "spring-open",
                                                                           stdin="anna gleb 2-0\n")
    assert "<stdin>: no results in it" in refused(cli, club, "results", "spring-open", stdin="# nothing\n")
    assert "--round 9: tournament 'spring-open' has rounds 1 to 4" in refused(
        cli, club, "results", "spring-open", "--round", "9", stdin=lines)
    assert "board 1 of round 3 has its result already" in refused(cli, club, "results", "spring-open", "--round", "3",
                                                                  stdin="dina anna 1-0\n")
    result = run(cli, club, "results", "spring-open", SAMPLE / "round-4.txt")
    assert result.exit_code == 0, result.output
    assert "added 5 results of round 4 of spring-open (m0020 to m0024)" in result.stdout
    full = load_club(club, use_cache=False).journal
    m = full.match_by_id("m0021")
    assert (m.players, m.score_a, m.round, m.tournament, str(m.date)) == (("zoya", "dina"), 0.0, 4, "spring-open",
                                                                         "2025-03-22")
    assert run(cli, club, "check").exit_code == 0


def test_results_read_a_result_as_a_match_reads_it_and_name_every_wrong_line(cli, club):
    # round-4.txt's boards with the results written the other ways a [[match]]'s result takes (1:0, 0.5-0.5,
    # ½:½, as Russian score sheets write them): the same matches as the file's 1-0 and 1/2-1/2
    lines = "anna gleb 0.5-0.5\nzoya dina 0:1\nboris vera 1:0\nkira egor 1-0\nivan lev 1-0\n"
    assert refused(cli, club, "results", "spring-open", stdin="anna gleb 1-O\nzoya dina 0:1\nboris vera\n").splitlines() == [
        "<stdin>:1: 'anna gleb 1-O' is not WHITE BLACK RESULT; the result is one of 1-0, 0-1, 1/2-1/2 (or ½-½, =, 1:0, "
        "0:1, as a [[match]]'s result), +- or -+ (a forfeit won by white or by black)",
        "<stdin>:3: 'boris vera' is not WHITE BLACK RESULT; the result is one of 1-0, 0-1, 1/2-1/2 (or ½-½, =, 1:0, "
        "0:1, as a [[match]]'s result), +- or -+ (a forfeit won by white or by black)"]
    before = journal(club).decode()
    result = _with_input(cli, club, ("results", "spring-open"), lines)
    assert result.exit_code == 0, result.output
    full = load_club(club, use_cache=False).journal
    assert [(full.match_by_id(m).players, full.match_by_id(m).score_a) for m in ("m0020", "m0021", "m0022")] == [
        (("anna", "gleb"), 0.5), (("zoya", "dina"), 0.0), (("boris", "vera"), 1.0)]
    written = journal(club).decode().removeprefix(before)   # in the journal's own forms
    assert [line for line in written.splitlines() if line.startswith("result")][:3] == [
        'result = "1/2-1/2"', 'result = "0-1"', 'result = "1-0"']


def test_add_match_fills_in_the_round_and_the_colours(cli, club):
    # Board 2 of round 4 is zoya (white) v dina; entered the other way round, dina winning:
    result = run(cli, club, "add-match", "dina", "zoya", "--result", "1-0", "--date", "2025-03-22",
                 "--tournament", "spring-open")
    assert result.exit_code == 0, result.output
    m = load_club(club, use_cache=False).journal.match_by_id("m0020")
    assert (m.players, m.score_a, m.round) == (("zoya", "dina"), 0.0, 4)
    assert "not an open board of tournament 'spring-open'" in refused(
        cli, club, "add-match", "anna", "boris", "--winner", "anna", "--date", "2025-03-22", "--tournament", "spring-open")


def test_join_and_withdraw(cli, club):
    result = run(cli, club, "withdraw", "spring-open", "lev", "--date", "2025-03-23", "--reason", "moved away")
    assert result.exit_code == 0 and "withdrew lev from spring-open from round 5 on" in result.stdout
    assert "'lev' has already withdrawn" in refused(cli, club, "withdraw", "spring-open", "lev", "--date", "2025-03-23")
    assert run(cli, club, "results", "spring-open", SAMPLE / "round-4.txt").exit_code == 0
    assert "--absent lev: 'lev' is not in round 5 (withdrawn or not yet entered)" in refused(
        cli, club, "pair", "spring-open", "--date", "2025-03-29", "--absent", "lev")
    assert "--half-bye zed: 'zed' is not an entrant of 'spring-open'" in refused(
        cli, club, "pair", "spring-open", "--date", "2025-03-29", "--half-bye", "zed")
    assert "'anna' is already an entrant" in refused(cli, club, "join", "spring-open", "anna", "--date", "2025-03-23")
    result = run(cli, club, "join", "spring-open", "mila", "--date", "2025-03-23")
    assert result.exit_code == 0 and "added mila to spring-open from round 5" in result.stdout, result.output
    entrants = json_of(cli, club, "entrants", "spring-open")
    assert entrants[-1]["number"] == 11 and entrants[-1]["player"] == "mila"
    assert "unknown player 'zed'" in refused(cli, club, "join", "spring-open", "zed", "--date", "2025-03-23")


def test_standings_refuse_a_round_not_complete(cli, club):
    assert "--after-round 4: tournament 'spring-open' has 3 rounds with every result" in refused(
        cli, club, "standings", "spring-open", "--after-round", "4")


def test_results_from_a_fifo_or_a_folder_are_refused_at_once(cli, club, tmp_path):
    import os

    fifo = tmp_path / "results.fifo"
    os.mkfifo(fifo)
    assert "is a named pipe (FIFO), not a regular file" in refused(cli, club, "results", "spring-open", fifo)
    assert "is a folder, not a regular file" in refused(cli, club, "results", "spring-open", tmp_path)
    (tmp_path / "cp1251.txt").write_bytes("анна".encode("cp1251"))
    assert "not UTF-8 text" in refused(cli, club, "results", "spring-open", tmp_path / "cp1251.txt")


def test_every_format_of_the_standings_and_the_crosstable(cli, club):
    csv = run(cli, club, "standings", "spring-open", "--format", "csv")
    assert csv.stdout.splitlines()[:2] == ["rank,player,name,points,buchholz-cut1,buchholz,sonneborn-berger",
                                           "1,anna,Анна Петрова,2.5,4.0,5.0,4.0"]
    md = run(cli, club, "crosstable", "spring-open", "--format", "md")
    assert "| 1 | 1 | anna | Анна Петрова | 2105.00 | 6w1 | 2b½ | 5b1 | 2.5 | 4.0 | 5.0 | 4.00 |" in md.stdout


def test_the_published_page_of_a_tournament_run_here(cli, club, tmp_path):
    pytest.importorskip("jinja2")
    text = (club / "journal.toml").read_text(encoding="utf-8").replace('name = "Анна Петрова"',
                                                                      'name = "<script>alert(1)</script>"')
    (club / "journal.toml").write_text(text, encoding="utf-8")
    assert run(cli, club, "publish", tmp_path / "site").exit_code == 0
    page = (tmp_path / "site" / "tournaments" / "spring-open.html").read_text(encoding="utf-8")
    assert "Sonneborn-Berger" in page and ">6w1<" in page and ">2b½<" in page   # anna's round 1 and 2 cells
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "http" not in page.split("<body", 1)[1].replace("http://www.w3.org/2000/svg", "")  # nothing fetched


def test_a_pairing_program_named_in_the_config(cli, club, tmp_path):
    # [club] pairing_command replaces py4swiss for a Dutch event: TRF in, a pairs file out. A stand-in
    # for bbpPairings pairs the start numbers in order (1-2, 3-4, …).
    import sys

    engine = tmp_path / "engine.py"
    engine.write_text("""import sys
rows = [line.rstrip() for line in open(sys.argv[1]) if line.startswith("001")]
cells = {int(row[4:8]): (len(row) - 89) // 10 for row in rows}
numbers = [n for n in sorted(cells) if cells[n] == min(cells.values())]   # no cell yet for the round
pairs = list(zip(numbers[::2], numbers[1::2]))
open(sys.argv[2], "w").write(f"{len(pairs)}\\n" + "".join(f"{w} {b}\\n" for w, b in pairs))
""", encoding="utf-8")
    config = (club / "nardrating.toml").read_text(encoding="utf-8")
    command = json.dumps([sys.executable, str(engine), "{trf}", "{pairs}"])
    (club / "nardrating.toml").write_text(config.replace('default_discipline = "chess"',
                                                         f'default_discipline = "chess"\npairing_command = {command}'),
                                          encoding="utf-8")
    assert run(cli, club, "results", "spring-open", SAMPLE / "round-4.txt").exit_code == 0
    made = json_of(cli, club, "pair", "spring-open", "--date", "2025-03-29")
    assert [(p["white"], p["black"]) for p in made["pairs"]] == [("anna", "boris"), ("vera", "gleb"),
                                                                  ("dina", "egor"), ("zoya", "ivan"), ("kira", "lev")]
    assert run(cli, club, "check").exit_code == 0


def test_a_round_entered_wrong_is_voided_in_one_write_and_entered_again(cli, club, tmp_path):
    # Round 4's results read from the wrong file: `void` takes the five matches at once (one write), their
    # boards are open again, and the right results entered then give the standings and ratings of the
    # club that entered them right the first time.
    right = shutil.copytree(club, tmp_path / "right")
    assert run(cli, right, "results", "spring-open", SAMPLE / "round-4.txt").exit_code == 0
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("anna gleb 0-1\nzoya dina 1-0\nboris vera 0-1\nkira egor 0-1\nivan lev 0-1\n", encoding="utf-8")
    assert run(cli, club, "results", "spring-open", wrong).exit_code == 0
    ids = ["m0020", "m0021", "m0022", "m0023", "m0024"]
    assert "match 'm0021' is given twice" in refused(cli, club, "void", *ids, "m0021", "--reason", "wrong file")
    assert "unknown match 'm0099'" in refused(cli, club, "void", *ids, "m0099", "--reason", "wrong file")
    result = run(cli, club, "void", *ids, "--reason", "round 4 from the wrong file")
    assert result.exit_code == 0, result.output
    assert "voided matches m0020, m0021, m0022, m0023, m0024" in result.stdout
    assert [v["match"] for v in kinds_of(club)["void"]][-5:] == ids
    assert run(cli, club, "results", "spring-open", SAMPLE / "round-4.txt").exit_code == 0
    for args in (("standings", "spring-open"), ("leaderboard",)):
        assert json_of(cli, club, *args) == json_of(cli, right, *args)


def kinds_of(club):
    import tomllib

    return tomllib.loads((club / "journal.toml").read_text(encoding="utf-8"))


def test_undo_of_a_rounds_last_result_names_the_rounds_other_results(cli, club):
    # undo voids the last match alone; where it is a board of a round, it names the round's other
    # results (not voided) and the one `void` that takes them all.
    assert run(cli, club, "results", "spring-open", SAMPLE / "round-4.txt").exit_code == 0
    result = run(cli, club, "undo", "--yes")
    assert result.exit_code == 0, result.output
    assert ("round 4 of spring-open has other results: m0020, m0021, m0022, m0023; if the round was entered wrong, "
            'void them in one write: nardrating void m0020 m0021 m0022 m0023 --reason "..."') in result.stdout
    assert run(cli, club, "void", "m0020", "m0021", "m0022", "m0023", "--reason", "wrong file").exit_code == 0
    # A match of no round: no such line.
    assert run(cli, club, "add-match", "anna", "boris", "--winner", "anna", "--date", "2025-03-29").exit_code == 0
    result = run(cli, club, "undo", "--yes")
    assert result.exit_code == 0 and "has other results" not in result.stdout


def test_lang_gives_the_hall_s_sheets_in_the_club_s_language(cli, club):
    """--lang on the sheets a director posts (start list, pairing, standings, crosstable): the words
    change, the numbers' symbols with them; md follows club.language; JSON never changes."""
    ru = run(cli, club, "standings", "spring-open", "--lang", "ru")
    assert ru.exit_code == 0, ru.output
    assert "Весенний open · таблица после тура 3" in ru.stdout and "Бухгольц" in ru.stdout
    assert "│" not in ru.stdout and " 2,5 " in ru.stdout   # anna's 2½ points, with the Russian decimal comma
    cross = run(cli, club, "crosstable", "spring-open", "--lang", "ru", "--format", "md").stdout
    assert "турнирная таблица" in cross and "победа или поражение без игры" in cross
    assert "стартовый список" in run(cli, club, "entrants", "club-championship", "--lang", "ru").stdout
    assert "Доска" in run(cli, club, "pair", "club-championship", "--date", "2025-04-19", "--dry-run", "--lang",
                          "ru").stdout
    assert "Турниры" in run(cli, club, "tournaments", "--lang", "ru").stdout
    config = club / "nardrating.toml"
    config.write_text(config.read_text(encoding="utf-8").replace("[club]\n", '[club]\nlanguage = "ru"\n', 1),
                      encoding="utf-8")
    assert "турнирная таблица" in run(cli, club, "crosstable", "spring-open", "--format", "md").stdout
    assert json_of(cli, club, "standings", "spring-open", "--lang", "ru")[0]["tiebreaks"] == {
        "buchholz-cut1": 4.0, "buchholz": 5.0, "sonneborn-berger": 4.0}   # anna's, worked in docs/tournaments.md
    assert "'de' is not a language nardrating speaks" in run(cli, club, "crosstable", "spring-open", "--lang",
                                                              "de").output


def test_crosstable_legend_tells_a_forfeit_from_a_withdrawal(cli, club):
    # egor lost round 3 to zoya by forfeit: his cell is 7b- (zoya's number, black, lost); a lone "-" is
    # a withdrawn round. The legend says both.
    table = run(cli, club, "crosstable", "spring-open").stdout
    assert "7b-" in table
    assert "(+ or - a forfeit won or lost)" in " ".join(table.split()) and "- alone withdrawn" in table
