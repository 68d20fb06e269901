"""A backgammon or nardy tournament run here plays matches to some number of points: its `length`
(add-tournament --length) is the length of every board that `results` and `add-match` enter, which
the length-dependent lists (chips, fibs) rate. Worked by hand with seed 001's chips: a won match adds
its length in chips, a lost one takes 80 % of it."""
import json

from typer.testing import CliRunner

from nardrating.cli import app

from .conftest import make_club, no_cache

CHIPS = """\
[club]
name = "Backgammon club"
journal = ["journal.toml"]
default_discipline = "backgammon"

[rating.club]
engine = "chips"
"""

PLAYERS = "".join(f'[[player]]\nid = "{p}"\nname = "{p.title()}"\n\n' for p in ("alice", "bob", "carol", "dave"))
TOURNAMENT = ("add-tournament", "rr", "--name", "Round robin", "--system", "round-robin", "--start", "2020-11-01",
              "--end", "2020-11-30", "--pairing", "berger", "--players", "alice,bob,carol,dave")


def _ok(cli, *args):
    result = cli(*args)
    assert result.exit_code == 0, result.output
    return result


def _entries(club):
    import tomllib

    return tomllib.loads((club / "journal.toml").read_text(encoding="utf-8"))


def _history(cli, club, player):
    result = _ok(cli, "history", player, "--club", club, "--format", "json", "--as-of", "2020-11-02")
    return [(row["entry"], round(row["change"], 2)) for row in json.loads(result.stdout)]


def test_a_tournaments_length_is_every_boards(cli, tmp_path):
    club = make_club(tmp_path / "club", PLAYERS, CHIPS)
    _ok(cli, *TOURNAMENT, "--length", "7", "--club", club)
    assert _entries(club)["tournament"][0]["length"] == 7
    # Berger round 1 of four players: 1-4, 2-3.
    _ok(cli, "pair", "rr", "--date", "2020-11-02", "--club", club)
    entered = CliRunner().invoke(app, ["results", "rr", "--club", str(club)], input="alice dave 1-0\n",
                                 env={"COLUMNS": "100", "NARDRATING_CLUB": ""})
    assert entered.exit_code == 0, entered.output
    shown = _ok(cli, "add-match", "bob", "carol", "--winner", "carol", "--tournament", "rr", "--date", "2020-11-02",
                "--club", club).stdout
    assert "bob 0.00 -5.60 → -5.60" in shown and "carol 0.00 +7.00 → 7.00" in shown   # 7 chips, 80 % of 7
    assert [m["length"] for m in _entries(club)["match"]] == [7, 7]
    # The winner of a match to 7 gains 7 chips, the loser loses 5.60; the same from the cache and a full read.
    assert _history(cli, club, "alice") == [("m0001", 7.0)]
    assert _history(cli, club, "dave") == [("m0001", -5.6)]
    with no_cache():
        assert _history(cli, club, "dave") == [("m0001", -5.6)]


def test_a_length_given_to_a_board_is_its_own(cli, tmp_path):
    club = make_club(tmp_path / "club", PLAYERS, CHIPS)
    _ok(cli, *TOURNAMENT, "--length", "7", "--club", club)
    _ok(cli, "pair", "rr", "--date", "2020-11-02", "--club", club)
    _ok(cli, "add-match", "alice", "dave", "--winner", "alice", "--tournament", "rr", "--length", "11",
        "--date", "2020-11-02", "--club", club)
    assert _entries(club)["match"][0]["length"] == 11
    assert _history(cli, club, "dave") == [("m0001", -8.8)]   # 80 % of 11


def test_without_a_length_a_board_is_a_match_to_one_point(cli, tmp_path):
    club = make_club(tmp_path / "club", PLAYERS, CHIPS)
    _ok(cli, *TOURNAMENT, "--club", club)
    _ok(cli, "pair", "rr", "--date", "2020-11-02", "--club", club)
    _ok(cli, "add-match", "alice", "dave", "--winner", "alice", "--tournament", "rr", "--date", "2020-11-02",
        "--club", club)
    assert "length" not in _entries(club)["match"][0]
    assert _history(cli, club, "alice") == [("m0001", 1.0)]


def test_a_recorded_tournament_takes_no_length(cli, tmp_path):
    club = make_club(tmp_path / "club", PLAYERS, CHIPS)
    before = (club / "journal.toml").read_bytes()
    result = cli("add-tournament", "rec", "--name", "Recorded", "--system", "swiss", "--start", "2020-11-01",
                 "--end", "2020-11-30", "--length", "5", "--club", club)
    assert result.exit_code == 1
    assert "--length is for a tournament run here (--pairing)" in result.stderr
    assert (club / "journal.toml").read_bytes() == before
    # Written by hand: check names the line (four players of four lines each, then the tournament: line 17).
    (club / "journal.toml").write_text(PLAYERS + '[[tournament]]\nid = "rec"\nname = "Recorded"\nsystem = "swiss"\n'
                                       'start = 2020-11-01\nend = 2020-11-30\nlength = 5\n', encoding="utf-8")
    checked = cli("check", "--club", club)
    assert checked.exit_code == 1
    assert "journal.toml:17: rec: length is for a tournament run here (with pairing)" in checked.output
    (club / "journal.toml").write_text(PLAYERS + '[[tournament]]\nid = "rr"\nname = "RR"\nsystem = "round-robin"\n'
                                       'start = 2020-11-01\nend = 2020-11-30\npairing = "berger"\n'
                                       'players = ["alice", "bob"]\nlength = 0\n', encoding="utf-8")
    checked = cli("check", "--club", club)
    assert checked.exit_code == 1
    assert "length: 0 is not a match length; write a whole number of points from 1 to 1000" in checked.output
