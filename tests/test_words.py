"""Words on the screen: wrapping on a terminal, help texts, plurals, empty lists, UTF-8, completion."""
import os
import pty
import re
import subprocess
import sys

import pytest

from nardrating.commands import complete
from nardrating.commands.terminal import wrap_line

from .conftest import ROOT, SAMPLES, make_club

FEDERATION = SAMPLES / "federation-2009"
CHESS = SAMPLES / "chess-club"
LONG = ("journal.toml:31: m5: the match is dated 2009-01-16, outside its tournament 'cup-2009' "
        "(2009-02-01 to 2009-02-03); give --new-discipline or --date 2009-02-02")


def test_wrapped_at_spaces_never_inside_a_word_or_a_date():
    for width in (24, 40, 61, 80):
        lines = wrap_line(LONG, width).split("\n")
        assert len(lines) > 1
        assert all(len(line) <= width for line in lines)
        assert all(line.startswith("  ") for line in lines[1:])  # the further lines indented
        # the words, each whole: the dates, the file:line, the option and its hyphens unbroken
        assert " ".join(line.strip() for line in lines).split() == LONG.split()
    assert wrap_line(LONG, len(LONG)) == LONG  # a line that fits is left as it is
    assert wrap_line(LONG, None) == LONG       # no terminal: never wrapped
    word = "x" * 50
    assert wrap_line(f"a {word} b", 30).split("\n") == ["a", f"  {word}", "  b"]  # too long: kept whole


def run_in_terminal(*args, columns=40):
    """The command with stdout and stderr on a terminal (a pseudo-terminal) of `columns` columns."""
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS=str(columns), NARDRATING_CLUB="")
    proc = subprocess.Popen([sys.executable, "-m", "nardrating", *map(str, args)], stdin=subprocess.DEVNULL,
                            stdout=slave, stderr=slave, env=env, cwd=ROOT)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    proc.wait(timeout=60)
    return proc.returncode, re.sub(r"\x1b\[[0-9;]*m", "", out.decode("utf-8")).replace("\r\n", "\n")


def test_messages_wrap_on_a_terminal_and_not_in_a_pipe(tmp_path):
    code, shown = run_in_terminal("check", "--club", FEDERATION, columns=40)
    assert code == 0
    lines = shown.rstrip("\n").split("\n")
    assert len(lines) > 2 and all(len(line) <= 40 for line in lines)
    assert "2011-06-11" in shown  # the date whole, on one line
    piped = subprocess.run([sys.executable, "-m", "nardrating", "check", "--club", FEDERATION], capture_output=True,
                           text=True, env=dict(os.environ, COLUMNS="40"), cwd=ROOT)
    assert len(piped.stdout.strip().split("\n")) == 1  # piped: the one line, as scripts read it


def test_errors_wrap_on_a_terminal_too():
    code, shown = run_in_terminal("leaderboard", "--as-of", "2009-13-01", "--club", CHESS, columns=40)
    assert code == 2
    assert all(len(line) <= 40 for line in shown.split("\n"))
    assert "'2009-13-01'" in shown and "YYYY-MM-DD" in shown


def test_help_lists_every_summary_whole(cli):
    from nardrating.cli import COMMANDS

    shown = cli("--help", env={"COLUMNS": "80"}).stdout
    assert "..." not in shown.split("Commands:")[1]  # click cuts a summary with "..."
    flat = " ".join(shown.split())
    for name, command in COMMANDS:
        summary = " ".join(command.__doc__.strip().split("\n\n")[0].split())
        assert f"{name} {summary}" in flat, name
    assert "--install-completion" in shown and "--show-completion" in shown
    export = cli("export", "--help", env={"COLUMNS": "80"}).stdout
    assert "..." not in export.split("Commands:")[1]


def test_each_format_help_lists_what_the_command_takes(cli):
    board = " ".join(cli("leaderboard", "--help", env={"COLUMNS": "200"}).stdout.split())
    assert "table, csv, json, md, fide-list" in board and "xlsx" in board
    players = cli("players", "--help", env={"COLUMNS": "200"}).stdout
    assert "table, csv, json or md." in players and "xlsx" not in players
    refused = cli("players", "-f", "fide-list", "--club", CHESS)
    assert refused.exit_code == 2 and "is not one of table, csv, json, md" in refused.output
    typo = cli("leaderboard", "-f", "jsn", "--club", CHESS)
    assert typo.exit_code == 2 and 'did you mean "json"' in typo.output


def test_publish_help_agrees_with_itself(cli):
    shown = " ".join(cli("publish", "--help", env={"COLUMNS": "200"}).stdout.split())
    assert "Without --rating, every rating list of the club" in shown
    assert "Only this rating list (default: every list of the club)." in shown
    assert "the first in the config" not in shown


def test_import_hint_is_not_format_csv(cli, tmp_path):
    club = make_club(tmp_path / "club")
    (tmp_path / "r.csv").write_text("date,player_a,player_b,result\n2009-01-01,anna-long-name,boris-long-name,1-0\n",
                                    encoding="utf-8")
    shown = cli("import", tmp_path / "r.csv", "--dry-run", "--club", club, env={"COLUMNS": "30"}).stdout
    assert "not shown at 30 columns" in shown
    assert "--format" not in shown and "a wider terminal shows them" in " ".join(shown.split())


PLAYERS = '[[player]]\nid = "anna"\n\n[[player]]\nid = "annа"\n\n'  # the second with a Cyrillic а: a warning


def test_check_strict_with_warnings_is_not_ok(cli, tmp_path):
    club = make_club(tmp_path, PLAYERS + '[[tournament]]\nid = "t"\nname = "T"\nsystem = "swiss"\n'
                     'start = 2009-01-15\nend = 2009-01-15\n\n'
                     '[[match]]\ndate = 2009-01-15\nplayers = ["anna", "annа"]\nresult = "1-0"\ntournament = "t"\n')
    plain = cli("check", "--club", club)
    assert plain.exit_code == 0
    last = plain.stdout.strip().split("\n")[-1]
    assert last.startswith("ok, with 1 warning: 2 players, 1 match, 1 tournament, 0 voids, 0 adjustments")
    strict = cli("check", "--strict", "--club", club)
    assert strict.exit_code == 1
    last = strict.stdout.strip().split("\n")[-1]
    assert not last.startswith("ok") and last.startswith("failed (--strict): 1 warning; 2 players, 1 match")


def test_an_empty_leaderboard_says_why(cli, tmp_path):
    before = cli("leaderboard", "--as-of", "2009-01-01", "--club", CHESS)
    assert before.exit_code == 0
    # the chess club's first game is on 2009-01-15 (sample_ledgers/chess-club/journal.toml)
    assert before.stdout.strip().split("\n")[-1] == "no rated games as of 2009-01-01: the first in chess is on 2009-01-15"
    empty = cli("leaderboard", "--club", make_club(tmp_path / "new"))
    assert empty.stdout.strip().split("\n")[-1] == "no rated games in chess yet"
    assert cli("leaderboard", "--as-of", "2009-01-01", "--club", CHESS, "-f", "json").stdout.strip() == "[]"


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_json_is_utf8_whatever_the_locale(encoding):
    env = dict(os.environ, PYTHONIOENCODING=encoding, LC_ALL="C", NARDRATING_CLUB="")
    done = subprocess.run([sys.executable, "-m", "nardrating", "player", "avakyan", "-f", "json", "--club", FEDERATION],
                          capture_output=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert '"name": "Ашот Авакян"'.encode("utf-8") in done.stdout
    assert b"\\u04" not in done.stdout


def test_check_json_escapes_control_characters_as_every_json_does(cli, tmp_path):
    club = make_club(tmp_path, '[[player]]\nid = "anna"\nname = "A\\u0085B"\n\n[[player]]\nid = "annа"\n')
    shown = cli("check", "--format", "json", "--club", club).stdout
    assert "\x85" not in shown


def test_completion_reads_the_journal_without_replaying_it(monkeypatch):
    from nardrating.replay import ledger, view

    def no(*args, **kwargs):
        raise AssertionError("completion replayed the journal")

    monkeypatch.setattr(view, "replay", no)
    monkeypatch.setattr(ledger.Ledger, "run", no)

    class Ctx:  # what click hands a completion: the parameters parsed so far
        params = {"club": str(FEDERATION)}
        parent = None

    assert [word for word, _ in complete.players(Ctx, "k")] == ["kerimov", "khalilov"]
    assert dict(complete.players(Ctx, "avak")) == {"avakyan": "Ашот Авакян"}
    assert complete.ratings(Ctx, "") == [("federation", "mfsnb")]
    assert [word for word, _ in complete.tournaments(Ctx, "bg")] == ["bg-cup-2009", "bg-open-2010"]
    assert [word for word, _ in complete.disciplines(Ctx, "")] == ["backgammon", "long-nardy"]

    class Nowhere:
        params = {"club": "/nonexistent/club"}
        parent = None

    assert complete.players(Nowhere, "") == []  # no club: nothing, and no error in the shell's line


def test_shell_completion_end_to_end():
    env = dict(os.environ, _NARDRATING_COMPLETE="complete_bash", COMP_WORDS=f"nardrating history --club {FEDERATION} av",
               COMP_CWORD="4", NARDRATING_CLUB="")
    done = subprocess.run([sys.executable, "-m", "nardrating"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.stdout.split() == ["avakyan"]
    # typer finds the shell among the process's parents (shellingham): run from a bash, as a user
    # would (`; true` keeps bash from exec-ing the command in its place)
    shown = subprocess.run(["bash", "-c", f"'{sys.executable}' -m nardrating --show-completion; true"],
                           capture_output=True, text=True, cwd=ROOT)
    assert "_NARDRATING_COMPLETE" in shown.stdout


def test_streaks_and_summaries_have_their_plurals(cli, tmp_path):
    # anna beats boris, then loses twice: a current run of 2 losses; 3 games, 1 point
    games = "".join(f'[[match]]\ndate = 2009-01-{d}\nplayers = ["anna", "boris"]\nresult = "{r}"\n\n'
                    for d, r in (("15", "1-0"), ("16", "0-1"), ("17", "0-1")))
    club = make_club(tmp_path, '[[player]]\nid = "anna"\n\n[[player]]\nid = "boris"\n\n' + games)
    shown = cli("player", "anna", "--club", club).stdout
    assert "streaks: current 2 losses;" in shown  # not "2 losss"
    history = cli("history", "anna", "--club", club).stdout
    assert "3 games: 1 W, 0 D, 2 L; 1 point;" in history
    one = cli("history", "anna", "--to", "2009-01-15", "--club", club).stdout
    assert "1 game: 1 W, 0 D, 0 L; 1 point;" in one


def test_data_is_never_wrapped_on_a_terminal():
    import json

    code, shown = run_in_terminal("explain", "m0001", "-f", "json", "--club", FEDERATION, columns=30)
    assert code == 0
    assert max(map(len, shown.split("\n"))) > 30 and json.loads(shown)["entry"] == "m0001"  # as written, whole
    code, shown = run_in_terminal("check", "--format", "json", "--club", FEDERATION, columns=30)
    assert code == 0 and json.loads(shown) == []
