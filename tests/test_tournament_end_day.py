"""A tournament's end is an entry of the journal: the day its places are awarded (placement), its
games rated (mfsnb). Two things follow, both checked here against numbers worked out by hand.

- A date asked for between a club's last match and a tournament's end is before that entry: the list
  as of it has not awarded the tournament, from the cache as from a full read.
- A tournament entered ahead of its end (announced, or being played) ends on a day still to come:
  commands without --as-of mean the journal's last entry that has happened, not that day, so a
  decaying list is not shown decayed up to it.
"""
import json
from datetime import date, timedelta

import pytest

from .conftest import make_club, no_cache

PLACEMENT = """\
[club]
name = "Placement club"
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.club]
engine = "placement"
"""

CHIPS = """\
[club]
name = "Chips club"
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.club]
engine = "chips"
"""

PLAYERS = "".join(f'[[player]]\nid = "{p}"\nname = "{p.title()}"\n\n' for p in ("alice", "bob", "carol", "dave"))


def _match(mid, a, b, day, tournament=None, length=None):
    text = f'[[match]]\nid = "{mid}"\ndate = {day}\nplayers = ["{a}", "{b}"]\nwinner = "{a}"\n'
    text += f'tournament = "{tournament}"\n' if tournament else ""
    text += f"length = {length}\n" if length else ""
    return text + "\n"


def _tournament(start, end):
    return (f'[[tournament]]\nid = "cup"\nname = "Cup"\nsystem = "swiss"\nstart = {start}\nend = {end}\n'
            'players = ["alice", "bob", "carol", "dave"]\n\n')


def _board(cli, club, *args):
    result = cli("leaderboard", "--all", "--club", club, "--format", "json", *args)
    assert result.exit_code == 0, result.output
    return {row["player"]: (round(row["rating"], 2), row["status"]) for row in json.loads(result.stdout)}


@pytest.fixture
def placement_club(tmp_path):
    # Cup, 2020-11-01 to 2020-11-20, its last game on 2020-11-09: alice 2 points, carol 1, bob and dave 0.
    journal = PLAYERS + _tournament("2020-11-01", "2020-11-20") + "".join((
        _match("m1", "alice", "bob", "2020-11-02", "cup"), _match("m2", "carol", "dave", "2020-11-02", "cup"),
        _match("m3", "alice", "carol", "2020-11-09", "cup")))
    return make_club(tmp_path / "placement", journal, PLACEMENT)


def test_a_day_before_a_tournaments_end_is_before_its_places_from_the_cache_too(cli, placement_club):
    # Seed 001: 10·log2(N)/M for place M of N = 4 (log2 4 = 2): alice first 20, carol second 10,
    # bob and dave share places 3 and 4: 20 / 3.5 = 5.71.
    awarded = {"alice": (20.0, "ranked"), "carol": (10.0, "ranked"), "bob": (5.71, "ranked"), "dave": (5.71, "ranked")}
    nobody = {p: (0.0, "no tournament") for p in awarded}
    assert _board(cli, placement_club) == awarded                 # as of 2020-11-20: the cache keeps this replay
    assert _board(cli, placement_club, "--as-of", "2020-11-09") == nobody   # the last game's day: no place yet
    assert _board(cli, placement_club, "--as-of", "2020-11-19") == nobody
    assert _board(cli, placement_club, "--as-of", "2020-11-20") == awarded
    with no_cache():
        assert _board(cli, placement_club, "--as-of", "2020-11-09") == nobody


def test_a_tournament_still_to_end_is_not_the_journals_last_entry(cli, tmp_path):
    # Seed 001's chips: a won match to 5 adds 5, a lost one takes 80 % of it (4); every rating × 0.95 a day.
    today = date.today()
    played, start, end = today - timedelta(2), today - timedelta(3), today + timedelta(10)
    journal = PLAYERS + _tournament(start, end) + _match("m1", "alice", "bob", played, "cup", length=5)
    club = make_club(tmp_path / "chips", journal, CHIPS)
    # As of the game's day, not decayed twelve days on to the cup's end (5 × 0.95^12 = 2.70).
    assert _board(cli, club) == {"alice": (5.0, "active"), "bob": (-4.0, "active")}
    title = cli("leaderboard", "--club", club).stdout.splitlines()[0]
    assert f"as of {played}, the journal's last entry" in title
    assert f"last entry {played} (the date commands mean" in cli("check", "--club", club).stdout
    # A tournament that has ended counts: as of its end, the day before today, one day's decay:
    # 5 × 0.95 = 4.75 and −4 × 0.95 = −3.80.
    ended = make_club(tmp_path / "ended", PLAYERS + _tournament(start, today - timedelta(1))
                      + _match("m1", "alice", "bob", played, "cup", length=5), CHIPS)
    assert _board(cli, ended) == {"alice": (4.75, "active"), "bob": (-3.8, "active")}
