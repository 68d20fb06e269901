"""edit-player: an appended [[edit-player]] changes a player's record from then on, through the one
entry model, the writers' checks, the cache's snapshot and check."""
import json
import os
import shutil

import pytest

from nardrating.replay.loader import load_club

from .conftest import SAMPLES, make_club


@pytest.fixture
def chess(tmp_path):
    club = tmp_path / "chess-club"
    shutil.copytree(SAMPLES / "chess-club", club)
    return club


def ok(result):
    assert result.exit_code == 0, result.output
    return result


def players(cli, club):
    return {row["player"]: row for row in json.loads(ok(cli("players", "--club", club, "--format", "json")).stdout)}


def test_an_edit_shows_in_players_history_and_check(cli, chess):
    done = ok(cli("edit-player", "anna", "--name", "Анна Петрова", "--title", "WFM", "--alias", "А. П.",
                  "--club", chess))
    assert done.stdout.splitlines()[0] == "edited player anna: name 'Анна' → 'Анна Петрова'; alias (none) → 'А. П.'; " \
                                          "title (none) → 'WFM'"
    text = (chess / "journal.toml").read_text(encoding="utf-8")
    assert '\n[[edit-player]]\nplayer = "anna"\n' in text and 'name = "Анна Петрова"' in text
    for _ in range(2):  # read in full, then from the cache
        row = players(cli, chess)["anna"]
        assert (row["name"], row["alias"], row["title"], row["games"]) == ("Анна Петрова", "А. П.", "WFM", {"chess": 3})
    history = ok(cli("history", "anna", "--club", chess)).stdout
    assert history.startswith("Анна Петрова (anna) · club · chess")
    assert "Анна П" not in ok(cli("leaderboard", "--public", "--club", chess)).stdout.replace("А. П.", "")
    assert "А. П." in ok(cli("leaderboard", "--public", "--club", chess)).stdout
    assert ok(cli("check", "--strict", "--club", chess, env={"NARDRATING_NO_CACHE": "1"})).exit_code == 0
    # the numbers did not move: seed 003's list
    board = json.loads(ok(cli("leaderboard", "--club", chess, "--format", "json")).stdout)
    assert {r["player"]: round(r["rating"], 2) for r in board} == {"vera": 1220.0, "anna": 1199.42, "boris": 1190.58,
                                                                   "gleb": 1190.0}


def test_a_second_edit_and_a_rename(cli, chess):
    ok(cli("edit-player", "boris", "--name", "Борис Б.", "--club", chess))
    ok(cli("edit-player", "boris", "--name", "Борис Борисов", "--joined", "2009-01-01", "--club", chess))
    ok(cli("rename-player", "boris", "borya", "--club", chess))
    ok(cli("edit-player", "borya", "--title", "CM", "--club", chess))
    for cache in ("1", ""):
        row = players(cli, chess) if not cache else None
        ledger = load_club(chess, use_cache=not cache)
        found = ledger.journal.players["borya"]
        assert (found.name, found.joined.isoformat(), found.title) == ("Борис Борисов", "2009-01-01", "CM")
        assert "boris" not in ledger.journal.players
        if row is not None:
            assert row["borya"]["name"] == "Борис Борисов"


@pytest.mark.parametrize("args, message", [
    (["edit-player", "bors", "--name", "x"], "unknown player 'bors' (did you mean \"boris\"?)"),
    (["edit-player", "anna"], "say what changes: --name, --alias, --qualification, --title, --joined"),
    (["edit-player", "anna", "--name", "Анна"], "nothing to change: anna already has name 'Анна'"),
    (["edit-player", "anna", "--name", " Анна "], "nothing to change"),
    (["edit-player", "anna", "--qualification", "GM"], "--qualification: 'GM' is not one of 'MS', 'KMS'"),
    (["edit-player", "anna", "--name", "x\x1b[2J"], "--name: character 2 is a control character"),
    (["edit-player", "anna", "--joined", "2009-02-30"], "--joined"),
])
def test_refused_edits_write_nothing(cli, chess, args, message):
    before = (chess / "journal.toml").read_bytes()
    result = cli(*args, "--club", chess)
    assert result.exit_code in (1, 2) and message in result.output, result.output
    assert (chess / "journal.toml").read_bytes() == before


def test_a_dry_run_writes_nothing(cli, chess):
    before = (chess / "journal.toml").read_bytes()
    result = ok(cli("edit-player", "anna", "--name", "Анна П.", "--dry-run", "--club", chess))
    assert result.stdout.startswith("would edit player anna: name 'Анна' → 'Анна П.'")
    assert (chess / "journal.toml").read_bytes() == before


def test_an_edit_by_hand_is_checked_as_any_entry(cli, tmp_path):
    base = (SAMPLES / "chess-club" / "journal.toml").read_text(encoding="utf-8")
    config = (SAMPLES / "chess-club" / "nardrating.toml").read_text(encoding="utf-8")
    club = make_club(tmp_path / "bad", base + '\n[[edit-player]]\nplayer = "ana"\ndate = 2009-02-01\nname = "A"\n', config)
    line = base.count("\n") + 2  # the [[edit-player]] header
    result = cli("check", "--club", club)
    assert result.exit_code == 1
    assert f"journal.toml:{line}: ana: [[edit-player]] of an unknown player 'ana' (did you mean \"anna\"?)" \
        in result.stderr
    club = make_club(tmp_path / "empty", base + '\n[[edit-player]]\nplayer = "anna"\ndate = 2009-02-01\n', config)
    result = cli("check", "--club", club)
    assert result.exit_code == 1 and f"journal.toml:{line}: give at least one of name, alias" in result.stderr
    club = make_club(tmp_path / "good", base + '\n[[edit-player]]\nplayer = "gleb"\ndate = 2009-02-01\n'
                                               'qualification = 1\n', config)
    assert ok(cli("check", "--club", club)).exit_code == 0
    assert players(cli, club)["gleb"]["qualification"] == "1"


def test_an_edit_of_a_qualification_moves_an_mfsnb_first_rating(cli, tmp_path):
    # Seed 000: a player's first rating is by qualification (MS 2000, KMS 1900, 1 1800, 2 1600, 3 1500).
    # An edit is a correction of the record: the first rating follows it, and edit-player shows
    # what changed in the current list.
    config = """[club]
name = "F"
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.federation]
engine = "mfsnb"
"""
    journal = """[[player]]
id = "a"
qualification = "3"

[[player]]
id = "b"
qualification = "3"

[[match]]
id = "m1"
date = 2009-02-01
players = ["a", "b"]
winner = "a"
"""
    club = make_club(tmp_path / "club", journal, config)

    def first_rating(cache):
        os.environ["NARDRATING_NO_CACHE"] = "" if cache else "1"
        try:
            history = load_club(club).run("federation", "long-nardy").history("a")
        finally:
            del os.environ["NARDRATING_NO_CACHE"]
        return next(e.before for e in history if e.kind == "competition")

    assert first_rating(True) == 1500  # 3rd category
    ok(cli("edit-player", "a", "--qualification", "KMS", "--club", club))
    assert first_rating(True) == first_rating(False) == 1900  # KMS


def test_an_edit_of_a_merged_player_changes_nothing_in_the_cache_nor_in_a_full_read(cli, chess):
    ok(cli("add-player", "anna2", "--name", "Анна Вторая", "--club", chess))
    ok(cli("edit-player", "anna2", "--title", "WIM", "--club", chess))
    ok(cli("merge-players", "anna2", "anna", "--club", chess))
    cached, full = load_club(chess).journal.players, load_club(chess, use_cache=False).journal.players
    assert cached == full and "anna2" not in full and full["anna"].title is None


def test_undo_of_an_edit_says_what_to_do(cli, chess):
    ok(cli("edit-player", "anna", "--name", "Анна П.", "--club", chess))
    result = cli("undo", "--yes", "--club", chess)
    assert result.exit_code == 1 and "edit-player with the old values" in result.stderr


def test_the_site_shows_the_new_values(cli, chess, tmp_path):
    pytest.importorskip("jinja2")
    ok(cli("edit-player", "anna", "--name", "Анна Петрова", "--alias", "Аня", "--club", chess))
    ok(cli("publish", tmp_path / "site", "--club", chess))
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Анна Петрова" in page and ">Анна<" not in page
    ok(cli("publish", tmp_path / "public", "--public", "--club", chess))
    assert "Аня" in (tmp_path / "public" / "index.html").read_text(encoding="utf-8")
