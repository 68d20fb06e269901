"""join and withdraw: a date outside the tournament is said of --date (its default: today), as pair
says it, not as a problem of a journal line that does not exist."""
import shutil

import pytest

from .conftest import SAMPLES


@pytest.mark.parametrize("command, player, what", [("join", "oleg", "late entry"), ("withdraw", "anna", "withdrawal")])
def test_a_date_outside_the_tournament(cli, tmp_path, command, player, what):
    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "club-swiss", club)
    before = (club / "journal.toml").read_bytes()
    # spring-open runs from 2025-03-01 to 2025-03-29 (docs/tournaments.md); the 1st of April is after it
    result = cli(command, "spring-open", player, "--date", "2025-04-01", "--club", club)
    assert result.exit_code == 1
    assert result.stderr.strip() == ("--date 2025-04-01: tournament 'spring-open' runs from 2025-03-01 to 2025-03-29; "
                                     "give a --date within its dates (or correct them)")
    assert what not in result.stderr and "journal.toml" not in result.stderr
    assert (club / "journal.toml").read_bytes() == before
    # within its dates it is taken
    assert cli(command, "spring-open", player, "--date", "2025-03-28", "--club", club).exit_code == 0


@pytest.mark.parametrize("command, player", [("join", "oleg"), ("withdraw", "anna"), ("pair", None)])
def test_no_date_given_and_today_outside_the_tournament_names_the_option(cli, tmp_path, command, player):
    # No --date: the default, today, is long after spring-open (March 2025). The message says that it
    # is today's date that is outside, and that --date is the fix (the user typed no --date).
    from datetime import date

    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "club-swiss", club)
    before = (club / "journal.toml").read_bytes()
    result = cli(command, "spring-open", *([player] if player else []), "--club", club)
    assert result.exit_code == 1
    assert result.stderr.strip() == (f"today, {date.today()}, is outside tournament 'spring-open', which runs from "
                                     "2025-03-01 to 2025-03-29; give --date YYYY-MM-DD within its dates (or correct them)")
    assert (club / "journal.toml").read_bytes() == before
