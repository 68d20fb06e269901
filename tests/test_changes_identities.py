"""changes --since-list follows a rename or merge added since the list was frozen, as verify does:
the frozen row is the player's under the id they have now, not a player who left the list and a
new one who joined it. The frozen rows are seed 000's 2009-Q1 list (Авакян 4th, 2354, 9 games)."""
from __future__ import annotations

import json
import shutil

from .conftest import SAMPLES

LIST = "lists/federation-long-nardy-2009-03-31.json"


def rows(cli, club):
    result = cli("changes", "--since-list", club / LIST, "--club", club, "-f", "json")
    assert result.exit_code == 0, result.output
    return {row["player"]: row for row in json.loads(result.stdout)}


def test_a_player_renamed_since_the_list_keeps_their_frozen_rank_rating_and_games(cli, tmp_path):
    club = tmp_path / "federation"
    shutil.copytree(SAMPLES / "federation-2009", club)
    unrenamed = rows(cli, club)["avakyan"]
    assert cli("rename-player", "avakyan", "avakian", "--club", club).exit_code == 0
    now = rows(cli, club)
    assert "avakyan" not in now
    row = now["avakian"]
    # the frozen row: 4th, 2354 (seed 000: 2337 + 17), 9 games in the quarter
    assert (row["rank_before"], row["rating_before"]) == (4, 2354)
    # the rename moves no number: the games added and the rating now are those before the rename
    assert (row["games_added"], row["rating_after"], row["rank_after"]) == (
        unrenamed["games_added"], unrenamed["rating_after"], unrenamed["rank_after"])
    assert [e["kind"] for e in row["entries"]].count("rename") == 1


def test_a_merge_since_the_list_counts_both_frozen_rows_games(cli, tmp_path):
    club = tmp_path / "federation"
    shutil.copytree(SAMPLES / "federation-2009", club)
    listed = {r["player"]: r for r in json.loads((club / LIST).read_text(encoding="utf-8"))["rows"]}
    now_before = rows(cli, club)
    assert cli("merge-players", "sidorov", "petrosyan", "--club", club).exit_code == 0
    row = rows(cli, club)["petrosyan"]
    # petrosyan's own frozen row (12th, 2150); the games he has now are his and sidorov's
    assert (row["rank_before"], row["rating_before"]) == (listed["petrosyan"]["rank"], listed["petrosyan"]["rating"])
    games_now = row["games_added"] + listed["petrosyan"]["games"] + listed["sidorov"]["games"]
    assert games_now == (listed["petrosyan"]["games"] + now_before["petrosyan"]["games_added"]
                         + listed["sidorov"]["games"] + now_before["sidorov"]["games_added"])
    assert "sidorov" not in rows(cli, club)


def test_a_report_asked_for_an_old_id_names_the_id_it_is_known_by_now(cli, tmp_path):
    # It said "unknown player 'sidorov' (did you mean "fedorov" or "orlov"?)": two other people.
    club = tmp_path / "federation"
    shutil.copytree(SAMPLES / "federation-2009", club)
    assert cli("rename-player", "avakyan", "avakian", "--club", club).exit_code == 0
    assert cli("merge-players", "sidorov", "petrosyan", "--club", club).exit_code == 0
    lines = (club / "journal.toml").read_text(encoding="utf-8").splitlines()
    rename_at = lines.index("[[rename]]") + 1
    merge_at = lines.index("[[merge]]") + 1
    result = cli("history", "avakyan", "--club", club)
    assert result.exit_code == 1
    assert f"'avakyan' was renamed 'avakian' at {club / 'journal.toml'}:{rename_at}" in result.stderr
    assert "did you mean 'avakian'?" in result.stderr
    result = cli("player", "sidorov", "--club", club)
    assert result.exit_code == 1
    assert f"'sidorov' was merged into 'petrosyan' at {club / 'journal.toml'}:{merge_at}" in result.stderr
    assert "fedorov" not in result.stderr
