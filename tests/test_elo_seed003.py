"""The chess-club Elo against seed 003's published numbers."""
import pytest

from nardrating.engines.elo import expected, update
from nardrating.replay.loader import load_club

from .conftest import SAMPLES

CLUB = SAMPLES / "chess-club"


def test_example_1_equal_ratings():
    # Seed 003, example 1: both 1200, E = 0.5; Anna wins: 20 × (1 − 0.5) = +10, Boris −10.
    new_a, new_b, e = update(1200, 1200, 1.0, 20)
    assert e == 0.5
    assert (new_a, new_b) == (1210, 1190)


def test_example_2_unexpected_loss():
    # Seed 003, example 2: Anna 1210 vs Vera 1200: E ≈ 0.5144; 20 × (0 − 0.5144) ≈ −10.29.
    assert expected(1210, 1200) == pytest.approx(0.5144, abs=5e-5)
    new_a, new_b, _ = update(1210, 1200, 0.0, 20)
    assert round(new_a, 2) == 1199.71
    assert round(new_b, 2) == 1210.29


# Seed 003's six-game table: after each game, A / B (two decimals).
SEED_TABLE = [
    ("anna", "boris", 1210.00, 1190.00),
    ("vera", "gleb", 1200.00, 1200.00),
    ("anna", "vera", 1199.71, 1210.29),
    ("boris", "gleb", 1200.29, 1189.71),
    ("anna", "gleb", 1199.42, 1190.00),
    ("boris", "vera", 1190.58, 1220.00),
]


def test_six_game_journal_per_game_table():
    result = load_club(CLUB).run("club")
    seen = {p: 0 for p in ("anna", "boris", "vera", "gleb")}
    for number, (a, b, after_a, after_b) in enumerate(SEED_TABLE, start=1):
        entry = f"m{number:04d}"
        for player, published in ((a, after_a), (b, after_b)):
            event = result.history(player)[seen[player]]
            assert event.entry == entry
            assert round(event.after, 2) == published
            seen[player] += 1


def test_final_list():
    # Seed 003's final list: Вера 1220.00, Анна 1199.42, Борис 1190.58, Глеб 1190.00; 3 games, provisional.
    result = load_club(CLUB).run("club")
    order = sorted(result.standings.values(), key=lambda s: -s.rating)
    assert [(s.player, round(s.rating, 2), s.games, s.status) for s in order] == [
        ("vera", 1220.00, 3, "provisional"),
        ("anna", 1199.42, 3, "provisional"),
        ("boris", 1190.58, 3, "provisional"),
        ("gleb", 1190.00, 3, "provisional"),
    ]


def test_leaderboard_json(cli_json):
    rows = cli_json("leaderboard", "--club", CLUB, "--as-of", "2009-12-31")
    assert [r["player"] for r in rows] == ["vera", "anna", "boris", "gleb"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert [round(r["rating"], 2) for r in rows] == [1220.00, 1199.42, 1190.58, 1190.00]
    assert rows[0]["name"] == "Вера" and rows[0]["games"] == 3 and rows[0]["status"] == "provisional"
    assert rows[0]["last_played"] == "2009-01-29"
    # Unrounded in JSON: Anna's rating is not a two-decimal number.
    assert rows[1]["rating"] != round(rows[1]["rating"], 2)


def test_leaderboard_table(cli):
    result = cli("leaderboard", "--club", CLUB, "--as-of", "2009-12-31")
    assert result.exit_code == 0
    for text in ("1220.00", "1199.42", "1190.58", "1190.00", "Вера", "provisional"):
        assert text in result.stdout


def test_history_json(cli_json):
    rows = cli_json("history", "anna", "--club", CLUB)
    assert [(r["entry"], r["opponent"], r["result"]) for r in rows] == [
        ("m0001", "boris", 1.0), ("m0003", "vera", 0.0), ("m0005", "gleb", 0.5)]
    assert [round(r["after"], 2) for r in rows] == [1210.00, 1199.71, 1199.42]
    assert rows[0]["before"] == 1200 and rows[0]["change"] == 10
    assert all(r["kind"] == "match" and r["rated"] is True and r["reason"] is None for r in rows)
    assert rows[0]["date"] == "2009-01-15"


def test_established_after_provisional_games(tmp_path):
    # provisional_games = 2: after two rated games a player is "established".
    from .conftest import ELO_CONFIG, make_club

    journal = """
[[player]]
id = "a"
[[player]]
id = "b"
[[player]]
id = "c"
[[match]]
date = 2009-01-01
players = ["a", "b"]
winner = "a"
[[match]]
date = 2009-01-02
players = ["a", "c"]
winner = "a"
"""
    club = make_club(tmp_path, journal, ELO_CONFIG.replace("provisional_games = 5", "provisional_games = 2"))
    standings = load_club(club).run().standings
    assert standings["a"].status == "established"
    assert standings["b"].status == "provisional"
