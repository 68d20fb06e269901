"""Commands that write: the whole entry or nothing, and nothing at all when refused."""
import os
import subprocess
import sys
import tomllib

import pytest

from nardrating.replay.loader import load_club

from .conftest import make_club

PLAYERS = '# our club\n[[player]]\nid = "anna"   # founder\nname = "Анна"\n\n[[player]]\nid = "boris"\n'


@pytest.fixture
def club(tmp_path):
    return make_club(tmp_path / "club", PLAYERS)


def journal_bytes(club):
    return (club / "journal.toml").read_bytes()


def test_add_match_appends_and_keeps_every_byte(cli, club):
    before = journal_bytes(club)
    result = cli("add-match", "anna", "boris", "--winner", "anna", "--date", "2009-01-15", "--club", club)
    assert result.exit_code == 0, result.output
    # 1200 v 1200, K 20: +10 / −10.
    assert "anna 1200.00 +10.00 → 1210.00" in result.stdout
    assert "boris 1200.00 -10.00 → 1190.00" in result.stdout
    after = journal_bytes(club)
    assert after.startswith(before)
    data = tomllib.loads(after.decode())
    assert data["match"] == [{"id": "m0001", "date": __import__("datetime").date(2009, 1, 15),
                              "players": ["anna", "boris"], "winner": "anna", "discipline": "chess"}]


@pytest.mark.parametrize("written", [
    'players = ["anna", "boris"]\nwinner = "boris"',   # plain TOML (read in one pass): the other winner
    "players = ['anna', 'boris']\nwinner = 'boris'",   # literal strings: read by tomllib, as the reader would
    'players = ["anna", "boris"]\nwinner = "anna',     # no TOML at all
])
def test_a_new_entry_that_would_not_read_back_as_written_is_not_written(cli, club, monkeypatch, written):
    # The block is read back as the journal's reader reads it before it is appended; one that gives
    # another entry (here anna's win read as boris's) or none is refused, and nothing is written.
    import nardrating.journal.actions.write as write

    made = write.entry_block
    monkeypatch.setattr(write, "entry_block", lambda kind, fields: made(kind, fields).replace(
        'players = ["anna", "boris"]\nwinner = "anna"', written))
    before = journal_bytes(club)
    result = cli("add-match", "anna", "boris", "--winner", "anna", "--date", "2009-01-15", "--club", club)
    assert result.exit_code == 1 and "would not read back as written" in result.output, result.output
    assert journal_bytes(club) == before


def test_a_new_entry_written_in_other_toml_reads_back_through_tomllib(cli, club, monkeypatch):
    # Literal strings are TOML the one-pass reader leaves to tomllib; the same match so written
    # reads back as written, and is appended.
    import nardrating.journal.actions.write as write

    made = write.entry_block
    monkeypatch.setattr(write, "entry_block", lambda kind, fields: made(kind, fields).replace(
        'players = ["anna", "boris"]\nwinner = "anna"', "players = ['anna', 'boris']\nwinner = 'anna'"))
    result = cli("add-match", "anna", "boris", "--winner", "anna", "--date", "2009-01-15", "--club", club)
    assert result.exit_code == 0, result.output
    assert "winner = 'anna'" in journal_bytes(club).decode()
    assert tomllib.loads(journal_bytes(club).decode())["match"][0]["winner"] == "anna"


def test_dry_run_writes_nothing(cli, club):
    before = journal_bytes(club)
    result = cli("add-match", "anna", "boris", "--result", "0-1", "--date", "2009-01-15", "--dry-run", "--club", club)
    assert result.exit_code == 0
    assert "would add match m0001" in result.stdout and "boris 1200.00 +10.00 → 1210.00" in result.stdout
    assert journal_bytes(club) == before


@pytest.mark.parametrize("args, message", [
    (["anna", "borsi", "--winner", "anna"], "unknown player 'borsi' (did you mean \"boris\"?)"),
    (["anna", "anna", "--winner", "anna"], "two different players"),
    (["anna", "boris"], "say who won"),
    (["anna", "boris", "--winner", "vera"], "--winner 'vera' is neither"),
    (["anna", "boris", "--result", "3-0"], "--result '3-0' is not a result"),
    (["anna", "boris", "--winner", "anna", "--length", "0"], "--length: 0 is not a match length; write a whole number of points from 1 to 1000"),
    (["anna", "boris", "--winner", "anna", "--tournament", "cup"], "unknown tournament 'cup'"),
    (["anna", "boris", "--winner", "anna", "--score", "7:x"], "--score '7:x' must be two whole numbers"),
])
def test_refused_add_match_leaves_journal_unchanged(cli, club, args, message):
    before = journal_bytes(club)
    result = cli("add-match", *args, "--club", club)
    assert result.exit_code == 1
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert journal_bytes(club) == before


def test_bad_date_is_a_usage_error(cli, club):
    before = journal_bytes(club)
    result = cli("add-match", "anna", "boris", "--winner", "anna", "--date", "15.01.2009", "--club", club)
    assert result.exit_code == 2
    assert journal_bytes(club) == before


def test_add_match_refused_when_journal_invalid(cli, club):
    (club / "journal.toml").write_text(PLAYERS + '[[match]]\ndate = 2009-01-01\nplayers = ["anna", "x"]\nwinner = "anna"\n')
    before = journal_bytes(club)
    result = cli("add-match", "anna", "boris", "--winner", "anna", "--club", club)
    assert result.exit_code == 1 and "unknown player 'x'" in result.stderr
    assert journal_bytes(club) == before


def test_add_player_tournament_void(cli, club):
    assert cli("add-player", "vera", "--name", "Вера", "--alias", "В.", "--qualification", "KMS", "--club", club).exit_code == 0
    assert cli("add-tournament", "cup-1", "--name", "Кубок", "--system", "swiss", "--start", "2009-02-01",
               "--end", "2009-02-03", "--club", club).exit_code == 0
    assert cli("add-match", "anna", "vera", "--winner", "vera", "--date", "2009-02-02", "--tournament", "cup-1",
               "--club", club).exit_code == 0
    assert cli("void", "m0001", "--reason", "wrong", "--date", "2009-02-05", "--club", club).exit_code == 0
    ledger = load_club(club)
    assert ledger.journal.players["vera"].qualification == "KMS"
    assert ledger.journal.tournaments["cup-1"].system == "swiss"
    assert ledger.journal.match_by_id("m0001").tournament == "cup-1"
    assert [e.reason for e in ledger.run().history("vera")] == ["voided"]
    # Refusals: duplicate player, duplicate tournament, void twice, void of an unknown match.
    for args, message in ((["add-player", "vera"], "already used"),
                          (["add-player", "bad id", "--name", "Bad"],
                           "ID: 'bad id' is not an id: character 4, ' ' (U+0020), is not allowed"),
                          # a full name typed for the id, without --name: the command to write instead
                          (["add-player", "Анна Петрова"], "'Анна Петрова' is a name, not an id: an id is one word, the "
                           "one commands use; give the name with --name: nardrating add-player анна-петрова --name "
                           '"Анна Петрова"'),
                          (["add-tournament", "cup-1", "--name", "x", "--system", "swiss", "--start", "2009-01-01",
                            "--end", "2009-01-01"], "already used"),
                          (["add-tournament", "cup-2", "--name", "x", "--system", "league", "--start", "2009-01-01",
                            "--end", "2009-01-01"], "--system: 'league' is not one of 'swiss', 'round-robin', 'knockout' or 'match'"),
                          (["void", "m0001", "--reason", "again"], "already voided"),
                          (["void", "m0009", "--reason", "x"], "unknown match 'm0009'")):
        before = journal_bytes(club)
        result = cli(*args, "--club", club)
        assert result.exit_code == 1 and message in result.stderr, (args, result.output)
        assert journal_bytes(club) == before


def test_read_only_journal(cli, club):
    os.chmod(club / "journal.toml", 0o444)
    before = journal_bytes(club)
    result = cli("add-player", "vera", "--club", club)
    assert result.exit_code == 1 and "read-only" in result.stderr
    assert journal_bytes(club) == before


def test_init_creates_and_refuses_to_overwrite(cli, tmp_path):
    folder = tmp_path / "new"
    assert cli("init", folder, "--name", "Клуб").exit_code == 0
    ledger = load_club(folder)
    assert ledger.config.club.name == "Клуб" and list(ledger.config.ratings) == ["club"]
    before = (folder / "nardrating.toml").read_bytes()
    result = cli("init", folder)
    assert result.exit_code == 1 and "already exists" in result.stderr
    assert (folder / "nardrating.toml").read_bytes() == before


def test_club_found_by_env_and_upward(cli, club, monkeypatch):
    assert cli("players", "--format", "json", env={"NARDRATING_CLUB": str(club)}).exit_code == 0
    inner = club / "sub" / "deeper"
    inner.mkdir(parents=True)
    monkeypatch.chdir(inner)
    result = cli("players", "--format", "json")
    assert result.exit_code == 0 and '"anna"' in result.stdout


@pytest.mark.slow
def test_concurrent_add_match_processes(club):
    # Ten writers at once: ten whole entries, ten distinct ids.
    env = {**os.environ, "NARDRATING_CLUB": str(club)}
    procs = [subprocess.Popen([sys.executable, "-m", "nardrating", "add-match", "anna", "boris",
                               "--winner", "anna", "--date", "2009-01-15", "--unrated"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(10)]
    for p in procs:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0, err.decode()
    data = tomllib.loads((club / "journal.toml").read_text())
    ids = [m["id"] for m in data["match"]]
    assert len(ids) == 10 and len(set(ids)) == 10


@pytest.mark.slow
def test_concurrent_add_player_with_one_id_lands_once(club):
    # Both writers may check before either writes; the check under the lock lets one through.
    env = {**os.environ, "NARDRATING_CLUB": str(club)}
    procs = [subprocess.Popen([sys.executable, "-m", "nardrating", "add-player", "vera"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(6)]
    codes = [p.wait(timeout=60) for p in procs]
    assert sorted(codes) == [0, 1, 1, 1, 1, 1]
    assert [p["id"] for p in tomllib.loads((club / "journal.toml").read_text())["player"]].count("vera") == 1
    load_club(club)  # still a valid journal


def test_the_evenings_games_entered_after_midnight_take_date_yesterday(cli, club):
    # An evening that ran past midnight: --date yesterday (вчера) writes the day before today, as a date;
    # today (сегодня) is today. The journal holds the date itself, never the word.
    from datetime import date, timedelta

    yesterday = date.today() - timedelta(days=1)
    assert cli("add-match", "anna", "boris", "--winner", "anna", "--date", "yesterday", "--club", club).exit_code == 0
    result = cli("add-match", "boris", "anna", "--winner", "boris", "--date", "вчера", "--club", club,
                 env={"LANG": "ru_RU.UTF-8"})
    assert result.exit_code == 0 and f"от {yesterday}" in result.stdout, result.output
    text = journal_bytes(club).decode()
    assert text.count(f"date = {yesterday}\n") == 2 and "yesterday" not in text and "вчера" not in text
    shown = cli("leaderboard", "--as-of", "Today", "--club", club)
    assert shown.exit_code == 0 and f"as of {date.today()}" in shown.stdout
