"""Every command that takes --as-of means, without it, what its help says and the leaderboard means:
the date of the journal's last entry (reports.as_of), or today with club.as_of = "today".

The federation sample (seed 000's lists) shows the difference: its last entry is 2011-06-11, and
by today every player has years of break, so the inactivity penalties (25, 50, 75, 100, 150 points
for breaks of 3 to 18 months) have lowered every rating. Авакян: 2296 on the list as of
2011-06-11 (the leaderboard), 2146 = 2296 − 150 (the 18-month penalty) as of today.
"""
import json
import shutil
from datetime import date

import pytest

from .conftest import SAMPLES

LAST = "2011-06-11"
TODAY = date.today().isoformat()


@pytest.fixture
def federation(tmp_path):
    club = tmp_path / "federation"
    shutil.copytree(SAMPLES / "federation-2009", club)
    return club


def today_club(club):
    """The same club with club.as_of = "today"."""
    config = club / "nardrating.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('default_discipline = "long-nardy"',
                                   'default_discipline = "long-nardy"\nas_of = "today"'), encoding="utf-8")
    return club


def run(cli, *args):
    result = cli(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def as_json(cli, *args):
    return json.loads(run(cli, *args, "--format", "json"))


def test_predict_means_the_journals_last_entry(cli, federation):
    # as the leaderboard: Авакян 2296 as of 2011-06-11, not 2146 (today's, after the penalties)
    board = {row["player"]: row["rating"] for row in as_json(cli, "leaderboard", "--club", federation)}
    assert board["avakyan"] == 2296
    found = as_json(cli, "predict", "avakyan", "bagirov", "--club", federation)
    assert (found["as_of"], found["a"]["rating"], found["b"]["rating"]) == (LAST, 2296, board["bagirov"])
    assert found == as_json(cli, "predict", "avakyan", "bagirov", "--club", federation, "--as-of", LAST)
    title = run(cli, "predict", "avakyan", "bagirov", "--club", federation).splitlines()[0]
    assert f"as of {LAST}, the journal's last entry" in title
    today = as_json(cli, "predict", "avakyan", "bagirov", "--club", today_club(federation))
    assert (today["as_of"], today["a"]["rating"]) == (TODAY, 2146)


def test_leaderboard(cli, federation):
    default = as_json(cli, "leaderboard", "--club", federation)
    assert default == as_json(cli, "leaderboard", "--club", federation, "--as-of", LAST)
    assert f"as of {LAST}, the journal's last entry" in run(cli, "leaderboard", "--club", federation)
    today = as_json(cli, "leaderboard", "--club", today_club(federation))
    assert today == as_json(cli, "leaderboard", "--club", federation, "--as-of", TODAY) != default


def test_history(cli, federation):
    default = as_json(cli, "history", "avakyan", "--club", federation)
    assert default == as_json(cli, "history", "avakyan", "--club", federation, "--as-of", LAST)
    assert default[-1]["after"] == 2296
    today = as_json(cli, "history", "avakyan", "--club", today_club(federation))
    assert today[-1]["after"] == 2146


def test_player(cli, federation):
    default = as_json(cli, "player", "avakyan", "--club", federation)
    assert default == as_json(cli, "player", "avakyan", "--club", federation, "--as-of", LAST)
    assert default["current_rating"] == 2296
    assert as_json(cli, "player", "avakyan", "--club", today_club(federation))["current_rating"] == 2146


def test_head_to_head(cli, federation):
    # Nothing of a head-to-head moves with the date after the last entry; the default is that date
    # all the same: the same answer as --as-of LAST, and today's with club.as_of = "today".
    default = as_json(cli, "head-to-head", "avakyan", "bagirov", "--club", federation)
    assert default == as_json(cli, "head-to-head", "avakyan", "bagirov", "--club", federation, "--as-of", LAST)
    assert default["record"]["games"] > 0
    assert as_json(cli, "head-to-head", "avakyan", "bagirov", "--club", today_club(federation)) == \
        as_json(cli, "head-to-head", "avakyan", "bagirov", "--club", federation, "--as-of", TODAY)


def test_players(cli, federation):
    default = run(cli, "players", "--club", federation)
    assert default.splitlines()[0] == f"Players · as of {LAST}, the journal's last entry"
    assert as_json(cli, "players", "--club", federation) == \
        as_json(cli, "players", "--club", federation, "--as-of", LAST)
    assert run(cli, "players", "--club", today_club(federation)).splitlines()[0] == f"Players · as of {TODAY}, today"


def test_explain(cli, federation):
    # The 18-month penalty of Авакян (last game 2011-02-20) falls on a list after 2011-06-11: not
    # there yet as of the last entry, explained as of today.
    history = as_json(cli, "history", "avakyan", "--club", federation, "--as-of", TODAY)
    penalty = next(e for e in history if e["kind"] == "list" and e["date"] > LAST and e["penalty"])
    entry = f"avakyan@{penalty['date']}"
    refused = cli("explain", entry, "--club", federation)
    assert refused.exit_code == 1 and f"as of {LAST}" in refused.stderr
    explained = as_json(cli, "explain", entry, "--club", today_club(federation))
    assert explained == as_json(cli, "explain", entry, "--club", federation, "--as-of", TODAY)
    assert explained["players"][0]["change"] == penalty["change"]


def test_publish(cli, federation, tmp_path):
    run(cli, "publish", tmp_path / "site", "--club", federation)
    page = words(tmp_path / "site" / "index.html")
    assert f"as of {LAST}, the journal&#39;s last entry" in page
    run(cli, "publish", tmp_path / "site-today", "--club", today_club(federation))
    assert f"as of {TODAY}, today" in words(tmp_path / "site-today" / "index.html")


def words(page):
    """A page's text with the spans that keep a date on one line taken out."""
    return page.read_text(encoding="utf-8").replace('<span class="w">', "").replace("</span>", "")


def test_every_command_with_as_of_is_tested_here():
    # A command that gains --as-of gains a test here.
    from typer.main import get_command

    from nardrating.cli import app

    group = get_command(app)
    with_as_of = sorted(name for name, command in group.commands.items()
                        if any("--as-of" in p.opts for p in command.params))
    tested = {"predict", "leaderboard", "history", "player", "head-to-head", "players", "explain", "publish"}
    # freeze-list has no default date: it refuses to run without --period or --as-of (tests/test_lists.py).
    required = {"freeze-list"}
    assert set(with_as_of) == tested | required
