"""One error boundary: known problems exit 1 with FILE:LINE, usage errors exit 2, and
anything unexpected is one plain paragraph and exit 2, a traceback only with
NARDRATING_DEBUG=1. Dates outside 1900-01-01..2999-12-31 are usage errors."""
import os
import shutil
import subprocess
import sys

import pytest

from nardrating import cli as cli_module
from nardrating.periods import parse_period

from .conftest import SAMPLES, make_club

JOURNAL = '[[player]]\nid = "anna"\n\n[[player]]\nid = "boris"\n'


def _boom(*args, **kwargs):
    raise RuntimeError("deep trouble\nin two lines \x1b[31mred")


def _paragraph(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr  # one paragraph, one line: no traceback, no box
    return lines[0]


def test_an_unexpected_error_is_one_paragraph_and_exit_2(tmp_path, cli, monkeypatch):
    club = make_club(tmp_path / "club", JOURNAL)
    monkeypatch.setattr("nardrating.reports.leaderboard", _boom)
    result = cli("leaderboard", "--club", club, "--as-of", "2020-01-01")
    assert result.exit_code == 2
    text = _paragraph(result.stderr)
    assert text.startswith("nardrating leaderboard failed unexpectedly (RuntimeError: deep trouble in two lines "
                           "\\x1b[31mred). Nothing was written")  # the escape shown, not sent to the terminal
    assert "NARDRATING_DEBUG=1" in text and "NARDRATING_NO_CACHE=1" in text
    assert "Traceback" not in result.output


def test_debug_shows_the_traceback_before_the_paragraph(tmp_path, cli, monkeypatch):
    club = make_club(tmp_path / "club", JOURNAL)
    monkeypatch.setattr("nardrating.reports.leaderboard", _boom)
    result = cli("leaderboard", "--club", club, env={"NARDRATING_DEBUG": "1"})
    assert result.exit_code == 2
    assert result.stderr.startswith("Traceback (most recent call last):")
    assert "in _boom" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("nardrating leaderboard failed unexpectedly")


def test_deep_in_the_journal_reader_and_nothing_is_written(tmp_path, cli, monkeypatch):
    club = make_club(tmp_path / "club", JOURNAL)
    before = (club / "journal.toml").read_bytes()
    monkeypatch.setattr("nardrating.journal.reader.read_toml_journal", _boom)
    result = cli("add-player", "vera", "--club", club, env={"NARDRATING_NO_CACHE": "1"})
    assert result.exit_code == 2
    assert _paragraph(result.stderr).startswith("nardrating add-player failed unexpectedly (RuntimeError")
    assert (club / "journal.toml").read_bytes() == before


def test_a_failure_after_the_write_says_what_was_written(tmp_path, cli, monkeypatch):
    club = make_club(tmp_path / "club", JOURNAL)
    monkeypatch.setattr("nardrating.render.cell_text", _boom)  # the printing after add-match's append
    result = cli("add-match", "anna", "boris", "--winner", "anna", "--date", "2020-01-01", "--club", club)
    assert result.exit_code == 2
    text = _paragraph(result.stderr)
    assert f"Before it failed it had written its entry, whole, to {club / 'journal.toml'}; nothing else" in text
    assert "Nothing was written" not in text
    assert 'id = "m0001"' in (club / "journal.toml").read_text()


def test_main_catches_what_escapes_the_commands(monkeypatch, capsys):
    monkeypatch.setattr("nardrating.collector.one_command_process", lambda: None)  # this process goes on
    monkeypatch.setattr(cli_module, "app", _boom)
    monkeypatch.setattr(sys, "argv", ["nardrating", "leaderboard", "--as-of", "2020-01-01"])
    with pytest.raises(SystemExit) as exit_:
        cli_module.main()
    assert exit_.value.code == 2
    assert _paragraph(capsys.readouterr().err).startswith("nardrating leaderboard failed unexpectedly")


def test_the_installed_command_prints_no_traceback(tmp_path):
    """The whole process: typer's own exception printer never gets to show a traceback."""
    club = make_club(tmp_path / "club", JOURNAL)
    code = ("import sys, nardrating.reports as r\n"
            "def boom(*a, **k): raise KeyError('x')\n"
            "r.leaderboard = boom\n"
            "from nardrating.cli import main\n"
            f"sys.argv = ['nardrating', 'leaderboard', '--club', {str(club)!r}]\n"
            "main()\n")
    env = {**os.environ, "NARDRATING_CLUB": "", "COLUMNS": "100"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert _paragraph(done.stderr).startswith("nardrating leaderboard failed unexpectedly (KeyError: 'x')")
    done = subprocess.run([sys.executable, "-c", code], env={**env, "NARDRATING_DEBUG": "1"},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback (most recent call last)" in done.stderr


def test_known_problems_and_usage_errors_keep_their_codes(tmp_path, cli):
    club = make_club(tmp_path / "club", JOURNAL + '\n[[match]]\ndate = 2020-01-01\nplayers = ["anna", "borsi"]\nresult = "1-0"\n')
    result = cli("check", "--club", club)
    assert result.exit_code == 1
    assert "journal.toml:7: " in result.stderr and "unknown player 'borsi'" in result.stderr
    club = make_club(tmp_path / "valid", JOURNAL)
    result = cli("leaderboard", "--club", club, "--as-of", "2020-13-01")
    assert result.exit_code == 2 and "'2020-13-01' is not a date; write YYYY-MM-DD" in result.stderr
    # a day written as on paper: the day meant, where it is sure (day.month.year as Russian writes
    # it; 12/07/2026 may be the 7th of December or the 12th of July: no guess)
    result = cli("leaderboard", "--club", club, "--as-of", "07.12.2026")
    assert result.exit_code == 2 and "'07.12.2026' is not a date; write YYYY-MM-DD: 2026-12-07" in result.stderr
    result = cli("leaderboard", "--club", club, "--as-of", "12/07/2026")
    assert result.exit_code == 2 and "'12/07/2026' is not a date; write YYYY-MM-DD" in result.stderr
    assert "YYYY-MM-DD:" not in result.stderr
    for written, meant in (("03.2009", "2009-03"), ("15.01.2009", "2009-01-15")):
        result = cli("report", "--club", club, "--period", written)
        assert result.exit_code == 1 and f'(did you mean "{meant}"?)' in result.stderr


@pytest.mark.parametrize("written, meant", [
    ("Q1 2009", "2009-Q1"), ("1 кв. 2009", "2009-Q1"), ("IV квартал 2009", "2009-Q4"), ("1кв2009", "2009-Q1"),
    ("2 полугодие 2009", "2009-H2"), ("март 2009", "2009-03"), ("March 2009", "2009-03"), ("2009 dec", "2009-12"),
    ("2009-01-01 - 2009-03-31", "2009-01-01..2009-03-31"), ("2009-01-01-2009-03-31", "2009-01-01..2009-03-31"),
    ("Q1 2009 – Q2 2009", "2009-Q1..2009-Q2"), ("2009-01-15 по 2009-02-20", "2009-01-15..2009-02-20")])
def test_a_period_written_another_way_is_told_the_form_to_write(tmp_path, cli, written, meant):
    # A quarter, a half or a month as people name them, and a range written with a dash: the one period
    # meant, not the nearest strings (Q1 2009 was told "2009"; 2009-01-01 - 2009-03-31 nothing).
    club = make_club(tmp_path / "club", JOURNAL)
    result = cli("report", "--club", club, "--period", written)
    assert result.exit_code == 1 and result.stderr.strip().endswith(f'(did you mean "{meant}"?)')


# --- dates outside 1900-01-01..2999-12-31 --------------------------------------

OUTSIDE = "is outside the dates nardrating handles (1900-01-01 to 2999-12-31)"


@pytest.fixture
def samples(tmp_path):
    for name in ("federation-2009", "fide-club"):
        shutil.copytree(SAMPLES / name, tmp_path / name)
    return tmp_path


@pytest.mark.parametrize("club", ["federation-2009", "fide-club"])
@pytest.mark.parametrize("args, refused", [
    (("leaderboard", "--as-of", "9999-12-31"), "9999-12-31"),
    (("report", "--period", "9999"), "9999"),
    (("leaderboard", "--as-of", "1899-12-31"), "1899-12-31"),
    (("report", "--period", "2009..3000"), "3000"),
    # The edges compute: the engines step months and days past the last list date, and from
    # 2999-12-31 that is still a date.
    (("leaderboard", "--as-of", "2999-12-31"), None),
    (("report", "--period", "2999"), None),
    (("report", "--period", "1900..2999-12-31"), None),
    (("leaderboard", "--as-of", "1900-01-01"), None),
])
def test_dates_in_options_on_the_period_engines(samples, cli, club, args, refused):
    result = cli(*args, "--club", samples / club)
    if refused is None:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 2, result.output
        assert f"'{refused}' {OUTSIDE}" in result.stderr
        assert "Traceback" not in result.output


@pytest.mark.parametrize("args", [
    ("add-player", "vera", "--joined", "1899-12-31"),
    ("add-match", "anna", "boris", "--winner", "anna", "--date", "3000-01-01"),
    ("add-tournament", "cup", "--name", "Cup", "--system", "swiss", "--start", "9999-01-01", "--end", "9999-01-02"),
    ("add-tournament", "cup", "--name", "Cup", "--system", "swiss", "--start", "2020-01-01", "--end", "9999-01-02"),
    ("void", "m1", "--reason", "x", "--date", "0001-01-01"),
])
def test_writers_refuse_dates_out_of_range_and_write_nothing(tmp_path, cli, args):
    club = make_club(tmp_path / "club", JOURNAL)
    before = (club / "journal.toml").read_bytes()
    result = cli(*args, "--club", club)
    assert result.exit_code == 2, result.output
    assert OUTSIDE in result.stderr
    assert (club / "journal.toml").read_bytes() == before


@pytest.mark.parametrize("text, message", [
    ("9999", f"'9999' {OUTSIDE}"),
    ("0000-Q1", f"'0000-Q1' {OUTSIDE}"),
    ("1899-12", f"'1899-12' {OUTSIDE}"),
    ("2009-01-01..3000-01-01", f"'3000-01-01' {OUTSIDE}"),
    ("2009-13", "'2009-13' is not a period; write 2009, 2009-Q1"),      # not the library's "month must be in 1..12"
    ("2009-02-30", "'2009-02-30' is not a period; write 2009, 2009-Q1"),
])
def test_parse_period_refuses_in_plain_words(text, message):
    with pytest.raises(ValueError) as refused:
        parse_period(text)
    assert str(refused.value).startswith(message)


def test_the_range_itself_parses():
    assert str(parse_period("1900..2999")) == "1900-01-01..2999-12-31"


def test_mfsnb_month_counts_stay_within_the_dates(samples, cli):
    """A break of 100,000,000 months would step past year 9999; 1200 months (100 years) is the most."""
    config = samples / "federation-2009" / "nardrating.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("exclude_after_months = 24 ", "exclude_after_months = 100000000 "), encoding="utf-8")
    result = cli("leaderboard", "--club", config.parent, "--as-of", "2999-12-31")
    assert result.exit_code == 1
    assert "nardrating.toml:21: [rating.federation] exclude_after_months: " in result.stderr
    config.write_text(text.replace("[18, 150]]", "[18, 150], [1300, 200]]"), encoding="utf-8")
    result = cli("leaderboard", "--club", config.parent, "--as-of", "2999-12-31")
    assert result.exit_code == 1
    assert ("nardrating.toml:20: [rating.federation] inactivity: months must be from 1 to 1200 and strictly "
            "increasing") in result.stderr
    longest = text.replace("[18, 150]]", "[18, 150], [1200, 200]]").replace("exclude_after_months = 24 ",
                                                                          "exclude_after_months = 1200 ")
    config.write_text(longest, encoding="utf-8")
    assert cli("leaderboard", "--club", config.parent, "--as-of", "2999-12-31").exit_code == 0
