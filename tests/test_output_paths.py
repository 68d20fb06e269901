"""init and publish where the folder cannot be (a file stands on its path): a plain message naming
the path, exit 1, nothing left behind (it was "failed unexpectedly … This is a bug", exit 2)."""
from __future__ import annotations

import shutil

import pytest

from .conftest import SAMPLES


def test_init_on_a_file_says_it_is_a_file(cli, tmp_path):
    taken = tmp_path / "notes.txt"
    taken.write_text("minutes of the meeting\n", encoding="utf-8")
    result = cli("init", taken, "--engine", "elo")
    assert result.exit_code == 1, result.output
    assert "is a file, not a folder" in result.stderr and "unexpectedly" not in result.output
    assert taken.read_text(encoding="utf-8") == "minutes of the meeting\n"


@pytest.mark.parametrize("below", ["club", "club/deeper"])
def test_init_below_a_file_names_the_path_and_leaves_nothing(cli, tmp_path, below):
    taken = tmp_path / "notes.txt"
    taken.write_text("x\n", encoding="utf-8")
    result = cli("init", taken / below, "--engine", "elo")
    assert result.exit_code == 1, result.output
    assert "cannot make it" in result.stderr and "unexpectedly" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_publish_below_a_file_names_the_file_and_writes_nothing(cli, tmp_path):
    taken = tmp_path / "notes.txt"
    taken.write_text("x\n", encoding="utf-8")
    result = cli("publish", taken / "site", "--club", SAMPLES / "chess-club")
    assert result.exit_code == 1, result.output
    assert f"{taken} is a file, not a folder" in result.stderr and "unexpectedly" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("args", [("freeze-list", "--as-of", "2009-01-29", "--output"), ("history", "anna", "--chart"),
                                  ("leaderboard", "-f", "xlsx", "-o")])
def test_an_output_file_below_a_file_says_that_file_is_no_folder(cli, tmp_path, args):
    # it said "the folder …/notes.txt does not exist", which it does: as a file
    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "chess-club", club)
    taken = tmp_path / "notes.txt"
    taken.write_text("x\n", encoding="utf-8")
    before = (club / "journal.toml").read_bytes()
    result = cli(*args, taken / "out.png" if "--chart" in args else taken / "out.x", "--club", club)
    assert result.exit_code == 1, result.output
    assert f"{taken} is a file, not a folder" in result.stderr
    assert (club / "journal.toml").read_bytes() == before and taken.read_text(encoding="utf-8") == "x\n"


def test_club_naming_the_journal_says_give_the_folder(cli, tmp_path):
    # --club takes the club's folder or its nardrating.toml; given journal.toml, it listed one
    # "unknown table 'match'" a kind of entry, read as a config
    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "chess-club", club)
    result = cli("leaderboard", "--club", club / "journal.toml")
    assert result.exit_code == 1, result.output
    assert "this is a journal, not a club config: give --club the club's folder" in result.stderr
    assert "unknown table" not in result.stderr


def test_the_config_knows_every_kind_of_journal_entry():
    # config.JOURNAL_KINDS tells a journal given as the config by its entries, without importing the
    # entry models: it must name every kind they read, run-here tournaments' too
    from nardrating.config import JOURNAL_KINDS
    from nardrating.journal import playentries  # noqa: F401 - registers [[round]], [[join]], [[withdraw]]
    from nardrating.journal.entries import ENTRY_MODELS

    assert JOURNAL_KINDS == set(ENTRY_MODELS)


def test_a_club_named_by_the_environment_that_is_not_there_says_so(cli, tmp_path):
    # the message told to "give --club", which was not given: NARDRATING_CLUB named the club
    result = cli("leaderboard", env={"NARDRATING_CLUB": str(tmp_path / "gone")})
    assert result.exit_code == 1, result.output
    assert "NARDRATING_CLUB names the club" in result.stderr
