"""Issue 10, item 1: without --as-of, leaderboard, history and players mean the date of the journal's
last entry (club.as_of = "today": today), say so in the title, and agree with each other."""
import shutil
from datetime import date

import pytest

from nardrating.replay.loader import load_club

from .conftest import SAMPLES, make_club

# The last entry of each sample journal, read from the files by hand:
LAST_ENTRY = {
    "chess-club": "2009-01-29",        # m0005 and m0006
    "federation-2009": "2011-06-11",   # m0142, demidov–mamedov (after the adjust of 2011-05-21)
    "fide-club": "2025-03-09",         # the single match of 2025-03-09, after cup ending that day
    "nardy-club": "2025-03-30",        # the last two matches, 2025-03-30
}


@pytest.mark.parametrize("club", sorted(LAST_ENTRY))
def test_default_date_is_the_last_entry_and_the_title_says_so(cli, club):
    result = cli("leaderboard", "--club", SAMPLES / club)
    assert result.exit_code == 0, result.output
    assert f"as of {LAST_ENTRY[club]}, the journal's last entry" in result.stdout.splitlines()[0]


def test_federation_lists_its_players_without_as_of(cli_json):
    # Before: as of today nobody was listed ("20 player(s) not shown (excluded)").
    rows = cli_json("leaderboard", "--club", SAMPLES / "federation-2009")
    # On 2011-06-11 the longest break is khalilov's, since 2010-03-20: 14 months, not the 24 that
    # exclude; romanov was reinstated on 2011-05-21. So all 20 players are listed.
    assert len(rows) == 20
    assert all(row["status"] != "excluded" for row in rows)


def test_club_as_of_today(cli, tmp_path):
    config = (SAMPLES / "chess-club" / "nardrating.toml").read_text(encoding="utf-8")
    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "chess-club", club)
    (club / "nardrating.toml").write_text(config.replace('default_discipline = "chess"',
                                                         'default_discipline = "chess"\nas_of = "today"'),
                                          encoding="utf-8")
    for command in (["leaderboard"], ["history", "anna"], ["players"]):
        result = cli(*command, "--club", club)
        assert result.exit_code == 0, result.output
        assert f"as of {date.today()}, today" in result.stdout.splitlines()[0]


def test_club_as_of_must_be_one_of_two_words(cli, tmp_path):
    config = (SAMPLES / "chess-club" / "nardrating.toml").read_text(encoding="utf-8")
    club = make_club(tmp_path / "club", config=config.replace('default_discipline = "chess"',
                                                                'default_discipline = "chess"\nas_of = "yesterday"'))
    result = cli("leaderboard", "--club", club)
    assert result.exit_code == 1
    assert "as_of" in result.output and "nardrating.toml" in result.output


def test_explicit_as_of_title_has_no_note(cli):
    result = cli("leaderboard", "--club", SAMPLES / "chess-club", "--as-of", "2009-12-31")
    assert result.stdout.splitlines()[0] == "club · chess · as of 2009-12-31"


def test_an_empty_journal_means_today(cli, tmp_path):
    club = make_club(tmp_path / "club")
    result = cli("leaderboard", "--club", club)
    assert result.exit_code == 0, result.output
    assert f"as of {date.today()}, today" in result.stdout


def test_last_entry_counts_adjustments_and_tournament_ends(cli, tmp_path):
    # The last match is on 2009-01-15; an adjustment on 2009-02-01 and a tournament ending
    # 2009-03-01 (with no matches) come later: the default date is the tournament's end.
    journal = """
[[player]]
id = "a"
[[player]]
id = "b"
[[match]]
date = 2009-01-15
players = ["a", "b"]
result = "1-0"
[[adjust]]
date = 2009-02-01
player = "a"
delta = 5
reason = "commission"
[[tournament]]
id = "cup"
name = "Cup"
system = "swiss"
start = 2009-02-28
end = 2009-03-01
"""
    club = make_club(tmp_path / "club", journal)
    result = cli("leaderboard", "--club", club)
    assert "as of 2009-03-01, the journal's last entry" in result.stdout


def _every_list():
    for club in sorted(LAST_ENTRY):
        ledger = load_club(SAMPLES / club)
        for rating in ledger.config.ratings.values():
            for discipline in ledger.disciplines(rating):
                yield club, rating.name, discipline


def assert_history_ends_at_rating(row: dict, events: list[dict]) -> None:
    """The leaderboard row's rating is where the player's history ends.

    mfsnb publishes ratings on lists: what happened after the last list (competitions, an
    adjustment) is pending, shown by the leaderboard in `pending` and by history as events
    after the last `list` event, whose changes add up to it.
    """
    if "pending" in row:
        lists = [k for k, e in enumerate(events) if e["kind"] == "list"]
        assert row["rating"] == (events[lists[-1]]["after"] if lists else None), row["player"]
        later = [e["change"] for e in events[lists[-1] + 1 if lists else 0:] if e["change"] is not None]
        assert (row["pending"] or 0) == sum(later), row["player"]
        return
    shown = [e["after"] for e in events if e["after"] is not None]
    assert row["rating"] == (shown[-1] if shown else None), row["player"]


@pytest.mark.parametrize("club, rating, discipline", list(_every_list()))
def test_leaderboard_agrees_with_the_end_of_every_history(club, rating, discipline):
    """Every sample ledger × list × discipline, every player, at the default date: the tables the
    leaderboard and history commands print (as JSON), built in-process for speed; the same through
    the commands themselves is the slow test below."""
    import json

    from nardrating import reports
    from nardrating.render import to_json

    ledger = load_club(SAMPLES / club)
    day = reports.as_of(ledger, None)
    assert str(day) == f"as of {LAST_ENTRY[club]}, the journal's last entry"
    result = ledger.run(rating, discipline, day.day)
    board = json.loads(to_json(reports.leaderboard(ledger, result, show_all=True, day=day)))
    assert board, "the default date lists somebody"
    for row in board:
        events = json.loads(to_json(reports.history(ledger, result, row["player"], day)))
        assert_history_ends_at_rating(row, events)


@pytest.mark.parametrize("club, rating, player", [
    ("federation-2009", "federation", "avakyan"),   # the example: history 2271, leaderboard 2146
    ("nardy-club", "chips", "irina"),               # last played 6 March: decays to the 30th
    ("nardy-club", "tournament", "vagif"),          # halvings
    ("fide-club", "fide", "lebedev"),               # inactive
])
def test_leaderboard_and_history_commands_agree(cli_json, club, rating, player):
    where = ["--club", SAMPLES / club, "--rating", rating]
    row = next(r for r in cli_json("leaderboard", *where, "--all") if r["player"] == player)
    assert_history_ends_at_rating(row, cli_json("history", player, *where))


@pytest.mark.slow
@pytest.mark.parametrize("club, rating, discipline", list(_every_list()))
def test_leaderboard_agrees_with_every_history_command(cli_json, club, rating, discipline):
    where = ["--club", SAMPLES / club, "--rating", rating, "--discipline", discipline]
    for row in cli_json("leaderboard", *where, "--all"):
        assert_history_ends_at_rating(row, cli_json("history", row["player"], *where))


def four_player_club(folder, rating: str, engine: str, entries: str):
    """Players a, b, c, d and one long-nardy list of the engine."""
    config = f'[club]\ndefault_discipline = "long-nardy"\n[rating.{rating}]\nengine = "{engine}"\n'
    journal = "".join(f'[[player]]\nid = "{p}"\n' for p in "abcd") + entries
    return make_club(folder, journal, config=config)


def test_chips_history_decays_up_to_the_default_date(cli_json, tmp_path):
    # a and b play on 1 March; c and d on 11 March (the last entry). a won 5 chips: 5.
    # On 11 March a has decayed 10 days: 5 × 0.95^10 = 2.9937 (0.95^10 = 0.598737).
    club = four_player_club(tmp_path / "club", "chips", "chips", """
[[match]]
date = 2025-03-01
players = ["a", "b"]
winner = "a"
chips = 5
[[match]]
date = 2025-03-11
players = ["c", "d"]
winner = "c"
chips = 1
""")
    board = {row["player"]: row["rating"] for row in cli_json("leaderboard", "--club", club)}
    assert board["a"] == pytest.approx(2.9937, abs=1e-4)
    history = cli_json("history", "a", "--club", club)
    assert (history[-1]["kind"], history[-1]["date"], history[-1]["days"]) == ("decay", "2025-03-11", 10)
    assert history[-1]["after"] == pytest.approx(2.9937, abs=1e-4)


def test_placement_history_halves_up_to_the_default_date(cli_json, tmp_path):
    # A two-player tournament ends 2025-01-20: the winner gets 10·log2(2)/1 = 10. The last entry
    # is a match on 2025-03-05: halved on 1 February and 1 March, 10 → 5 → 2.5.
    club = four_player_club(tmp_path / "club", "tournament", "placement", """
[[tournament]]
id = "cup"
name = "Cup"
system = "match"
start = 2025-01-20
end = 2025-01-20
[[match]]
date = 2025-01-20
players = ["a", "b"]
winner = "a"
tournament = "cup"
[[match]]
date = 2025-03-05
players = ["c", "d"]
winner = "c"
""")
    board = {row["player"]: row["rating"] for row in cli_json("leaderboard", "--club", club)}
    assert board["a"] == 2.5
    history = cli_json("history", "a", "--club", club)
    assert [(e["kind"], e["date"], e["after"]) for e in history[-2:]] == [
        ("decay", "2025-02-01", 5.0), ("decay", "2025-03-01", 2.5)]


def test_players_count_up_to_the_date(cli_json):
    # Seed 003: by 2009-01-22 anna has played m0001 and m0003: 2 games; by the last entry, 3.
    rows = {r["player"]: r for r in cli_json("players", "--club", SAMPLES / "chess-club", "--as-of", "2009-01-22")}
    assert rows["anna"]["games"] == {"chess": 2}
    rows = {r["player"]: r for r in cli_json("players", "--club", SAMPLES / "chess-club")}
    assert rows["anna"]["games"] == {"chess": 3}


def test_check_names_the_default_date(cli):
    result = cli("check", "--club", SAMPLES / "federation-2009")
    assert result.exit_code == 0
    assert "last entry 2011-06-11 (the date commands mean without --as-of)" in result.stdout
