"""nardrating predict: published and hand-worked expectations, and the changes the engines then make."""
import json
import shutil

import pytest

from nardrating.replay.loader import load_club

from .conftest import SAMPLES, make_club

PLAYERS = "".join(f'[[player]]\nid = "{p}"\n\n' for p in ("anna", "boris", "vera"))
KEYS = {"probability", "expected", "if_a_wins", "if_b_wins", "if_draw", "a", "b", "rating", "engine"}


def config(engine: str, discipline: str = "chess", extra: str = "") -> str:
    return (f'[club]\njournal = ["journal.toml"]\ndefault_discipline = "{discipline}"\n\n'
            f'[rating.r]\nengine = "{engine}"\n{extra}')


def adjust(player, value, day="2024-01-01", **fields):
    extra = "".join(f"{k} = {v}\n" for k, v in fields.items())
    return f'[[adjust]]\ndate = {day}\nplayer = "{player}"\nset = {value}\n{extra}reason = "test"\n\n'


def predict(cli, club, *args):
    result = cli("predict", *args, "--club", club, "--as-of", "2024-01-05", "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def played(club, a, b, winner, length=1):
    """Append the match and replay: the engine's own changes for it."""
    with open(club / "journal.toml", "a", encoding="utf-8") as f:
        f.write(f'[[match]]\nid = "x"\ndate = 2024-01-05\nplayers = ["{a}", "{b}"]\nwinner = "{winner}"\n'
                f'length = {length}\n\n')
    result = load_club(club).run("r")
    return [next(e for e in result.history(p) if e.entry == "x").change for p in (a, b)]


# --- elo: seed 003's formula worked by hand ----------------------------------------

def test_elo_expected_and_changes(tmp_path, cli):
    # E(anna) = 1/(1 + 10^((1400 − 1200)/400)) = 1/(1 + 10^0.5) = 1/4.16228 = 0.2403.
    # K 20: a win +20·(1 − 0.2403) = +15.19, a loss −20·0.2403 = −4.81, a draw 20·(½ − 0.2403) = +5.19.
    club = make_club(tmp_path, PLAYERS + adjust("anna", 1200) + adjust("boris", 1400), config("elo"))
    out = predict(cli, club, "anna", "boris")
    assert KEYS <= out.keys()
    assert round(out["expected"], 4) == 0.2403 and out["probability"] == out["expected"]
    assert (round(out["if_a_wins"]["a"], 2), round(out["if_a_wins"]["b"], 2)) == (15.19, -15.19)
    assert (round(out["if_b_wins"]["a"], 2), round(out["if_b_wins"]["b"], 2)) == (-4.81, 4.81)
    assert (round(out["if_draw"]["a"], 2), round(out["if_draw"]["b"], 2)) == (5.19, -5.19)
    assert (out["a"]["rating"], out["b"]["rating"], out["a"]["k"], out["engine"]) == (1200, 1400, 20, "elo")


# --- fibs: seed 004's published probability ------------------------------------------

def test_fibs_weaker_player_wins_a_one_point_match_with_p_0_387(tmp_path, cli):
    # Seed 004: even 400 points weaker, a player wins a 1-point match almost four times in ten:
    # P = 1/(1 + 10^(400·√1/2000)) = 1/(1 + 10^0.2) = 1/2.58489 = 0.387 (issue 14's figure).
    # Both new (boost ×5): if the weaker wins, base = 4·(1 − 0.38686) = 2.45255, ±12.26;
    # if the stronger wins, base = 4·0.38686 = 1.54745, ±7.74. No draws under FIBS.
    club = make_club(tmp_path, PLAYERS + adjust("anna", 1900), config("fibs", "long-nardy"))
    out = predict(cli, club, "boris", "anna")
    assert round(out["probability"], 3) == 0.387 and out["if_draw"] is None
    assert (round(out["if_a_wins"]["a"], 2), round(out["if_a_wins"]["b"], 2)) == (12.26, -12.26)
    assert (round(out["if_b_wins"]["a"], 2), round(out["if_b_wins"]["b"], 2)) == (-7.74, 7.74)
    assert out["a"]["boost"] == 5.0 and out["a"]["experience"] == 0
    # The engine, when the match is then played, makes exactly the predicted change.
    assert played(club, "boris", "anna", "boris") == [out["if_a_wins"]["a"], out["if_a_wins"]["b"]]


def test_fibs_match_length_matters(tmp_path, cli):
    # 7 points, 400 apart: P(stronger) = 1/(1 + 10^(−400·√7/2000)) = 1/(1 + 10^−0.52915) = 1/1.29576 = 0.7718.
    club = make_club(tmp_path, PLAYERS + adjust("anna", 1900), config("fibs", "long-nardy"))
    out = predict(cli, club, "anna", "boris", "--length", "7")
    assert round(out["probability"], 4) == 0.7718 and out["length"] == 7
    assert played(club, "anna", "boris", "boris", 7) == pytest.approx([out["if_b_wins"]["a"], out["if_b_wins"]["b"]],
                                                                        rel=1e-12)


# --- glicko and glicko2 --------------------------------------------------------------

def test_glicko_expected_outcome_counts_both_deviations(tmp_path, cli):
    # The Glicko paper's expected outcome of a game: 1400/RD 80 against 1500/RD 150:
    # g(√(80² + 150²)) = g(170) = 1/√(1 + 3·q²·170²/π²) = 1/√1.29111 = 0.88008,
    # E = 1/(1 + 10^(0.88008·100/400)) = 1/(1 + 10^0.22002) = 1/2.65965 = 0.376.
    journal = PLAYERS + adjust("anna", 1400, rd=80) + adjust("boris", 1500, rd=150)
    club = make_club(tmp_path, journal, config("glicko"))
    out = predict(cli, club, "anna", "boris")
    assert round(out["expected"], 3) == 0.376
    assert (round(out["a"]["rd"], 9), round(out["b"]["rd"], 9)) == (80, 150)
    assert out["if_draw"] is not None
    # The changes are a rating period holding the one game: what the engine then does.
    assert played(club, "anna", "boris", "anna") == [out["if_a_wins"]["a"], out["if_a_wins"]["b"]]


def test_glicko2_prediction_matches_the_engine(tmp_path, cli):
    journal = PLAYERS + adjust("anna", 1500, rd=200, volatility=0.06) + adjust("boris", 1400, rd=30, volatility=0.06)
    club = make_club(tmp_path, journal, config("glicko2"))
    out = predict(cli, club, "anna", "boris")
    assert out["a"]["volatility"] == 0.06 and round(out["b"]["rd"], 9) == 30
    # Glickman's g and E with both deviations: 200² + 30² = 40900, √ = 202.24;
    # 1 + 3·0.0057565²·40900/π² = 1.41196, √ = 1.18826, g = 0.84157;
    # E = 1/(1 + 10^(−0.84157·100/400)) = 1/(1 + 10^−0.21039) = 1/(1 + 0.61603) = 0.6188.
    assert round(out["expected"], 4) == 0.6188
    assert played(club, "anna", "boris", "boris") == [out["if_b_wins"]["a"], out["if_b_wins"]["b"]]


# --- engines without a single-match prediction, and bad input ------------------------------

def test_fide_gives_the_table_expectation_only(tmp_path, cli):
    # Seed 002's table (b): D = 2255 − 2241 = 14 is the band 11–17: 52 % for the higher-rated.
    club = shutil.copytree(SAMPLES / "fide-club", tmp_path / "club")
    result = cli("predict", "aleksandrov", "belov", "--club", club, "--as-of", "2025-04-01", "-f", "json")
    out = json.loads(result.stdout)
    assert out["expected"] == 0.52
    assert out["if_a_wins"] is None and out["if_b_wins"] is None and out["if_draw"] is None
    # Петров, an FM without a rating, has no row in table (b).
    result = cli("predict", "petrov", "belov", "--club", club, "--as-of", "2025-04-01")
    assert result.exit_code == 1 and "petrov has no published rating in list 'fide'" in result.stderr


@pytest.mark.parametrize("rating, words", [
    ("tournament", "places in tournaments"), ("chips", "chips won and lost")])
def test_engines_without_a_single_match_prediction_say_why(tmp_path, cli, rating, words):
    club = shutil.copytree(SAMPLES / "nardy-club", tmp_path / "club")
    result = cli("predict", "davit", "zaur", "--club", club, "--rating", rating)
    assert result.exit_code == 1 and result.stdout == ""
    assert f"rating list {rating!r} cannot predict a single match" in result.stderr and words in result.stderr


def test_mfsnb_single_match_from_the_seeds_table(tmp_path, cli):
    # After 2009-Q1 (the README's report): Авакян 2354, Багиров 2427, D = −73: seed 000's table gives
    # the stronger 60 % (band 69–76), so Pe(Авакян) = 0.40. A single match is a competition of its own:
    # win 10·(1 − 0.4) = +6, loss 10·(0 − 0.4) = −4, draw 10·(½ − 0.4) = +1; Багиров +4, −6, −1.
    club = shutil.copytree(SAMPLES / "federation-2009", tmp_path / "club")
    result = cli("predict", "avakyan", "bagirov", "--club", club, "--as-of", "2009-04-01", "-f", "json")
    out = json.loads(result.stdout)
    assert (out["a"]["rating"], out["b"]["rating"], out["expected"]) == (2354, 2427, 0.4)
    assert [out[k]["a"] for k in ("if_a_wins", "if_b_wins", "if_draw")] == [6, -4, 1]
    assert [out[k]["b"] for k in ("if_a_wins", "if_b_wins", "if_draw")] == [-6, 4, -1]


@pytest.mark.parametrize("sample, a, b", [("fide-club", "aleksandrov", "belov"),
                                           ("federation-2009", "avakyan", "bagirov")])
def test_a_lists_prediction_after_a_recalc_reads_the_kept_standings_without_a_replay(tmp_path, cli, monkeypatch,
                                                                                      sample, a, b):
    # fide's and mfsnb's predictions read only the two published ratings (the tests above hold their
    # numbers): after a recalc, which keeps the lists' standings beside the snapshot for the
    # leaderboard, the same prediction comes from those, the list not replayed at all.
    from nardrating.engines.fide.engine import FideEngine
    from nardrating.engines.mfsnb.engine import MfsnbEngine

    from .conftest import no_cache

    club = shutil.copytree(SAMPLES / sample, tmp_path / "club")
    with no_cache():
        replayed = cli("predict", a, b, "--club", club, "-f", "json")
    assert replayed.exit_code == 0, replayed.output
    assert cli("recalc", "--club", club).exit_code == 0

    def refused(self, view):
        raise AssertionError("the list was replayed")

    for engine in (FideEngine, MfsnbEngine):
        monkeypatch.setattr(engine, "run", refused)
        monkeypatch.setattr(engine, "run_standings", refused)
    kept = cli("predict", a, b, "--club", club, "-f", "json")
    assert kept.exit_code == 0, kept.output
    assert json.loads(kept.stdout) == json.loads(replayed.stdout)


def test_mfsnb_official_only_says_why(tmp_path, cli):
    club = shutil.copytree(SAMPLES / "federation-2009", tmp_path / "club")
    config_file = club / "nardrating.toml"
    text = config_file.read_text(encoding="utf-8")
    config_file.write_text(text.replace("official_only = false", "official_only = true"), encoding="utf-8")
    result = cli("predict", "avakyan", "bagirov", "--club", club, "--as-of", "2009-04-01")
    assert result.exit_code == 1 and "official tournaments only" in result.stderr


def test_unknown_player_and_same_player(tmp_path, cli):
    club = make_club(tmp_path, PLAYERS, config("elo"))
    result = cli("predict", "anna", "borsi", "--club", club)
    assert result.exit_code == 1 and "unknown player 'borsi' (did you mean \"boris\"?)" in result.stderr
    result = cli("predict", "anna", "anna", "--club", club)
    assert result.exit_code == 1 and "two different players" in result.stderr
    result = cli("predict", "anna", "boris", "--club", club, "--length", "0")
    assert result.exit_code == 1 and "--length 0 must be at least 1" in result.stderr


def test_table_view(tmp_path, cli):
    club = make_club(tmp_path, PLAYERS + adjust("anna", 1200) + adjust("boris", 1400), config("elo"))
    result = cli("predict", "anna", "boris", "--club", club, "--as-of", "2024-01-05")
    assert result.exit_code == 0
    assert "If anna wins" in result.stdout and "If drawn" in result.stdout and "+15.19" in result.stdout


def test_glicko_prediction_uses_the_deviation_grown_to_the_as_of_date(tmp_path, cli):
    # RD 50 set in January 2024; predicted on 5 April: t = 3 monthly periods, c = 34.6:
    # RD = √(50² + 34.6²·3) = √6091.48 = 78.05. Boris, new, keeps RD 350.
    club = make_club(tmp_path, PLAYERS + adjust("anna", 1500, rd=50, day="2024-01-15"), config("glicko"))
    result = cli("predict", "anna", "boris", "--club", club, "--as-of", "2024-04-05", "-f", "json")
    out = json.loads(result.stdout)
    assert round(out["a"]["rd"], 2) == 78.05 and out["b"]["rd"] == 350


def test_nardy_site_preset(tmp_path, cli):
    # Seed 001's Elo (docs/nardy-engines.md): 1600 beats 1400, L = 1, both new: 10/(1 + 10^(200/400)) = 2.40, ×5 = 12.01.
    # P(1600) = 1/(1 + 10^(−200/400)) = 0.7597.
    club = make_club(tmp_path, PLAYERS + adjust("anna", 1600) + adjust("boris", 1400),
                     config("fibs", "long-nardy", 'preset = "nardy-site"\n'))
    out = predict(cli, club, "anna", "boris")
    assert round(out["probability"], 4) == 0.7597
    assert (round(out["if_a_wins"]["a"], 2), round(out["if_a_wins"]["b"], 2)) == (12.01, -12.01)
