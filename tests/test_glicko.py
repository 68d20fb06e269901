"""The glicko and glicko2 engines against Glickman's own worked examples, and their replay rules.

Sources (both by Mark E. Glickman, Boston University, glicko.net):
- "The Glicko system", section "Example calculation": a player rated 1500, RD 200, plays
  1400/RD 30 (win), 1550/RD 100 (loss), 1700/RD 300 (loss) in one rating period. Printed:
  g = 0.9955, 0.9531, 0.7242; E = 0.639, 0.432, 0.303; d² = 231.67² = 53670.85;
  r' = 1464; RD' = 151.4. Step 1 suggests c from "RD 50 back to 350 after 100 periods": 34.6.
- "Example of the Glicko-2 system", section "Example calculation": the same games, σ = 0.06,
  τ = 0.5. Printed: μ = 0, φ = 1.1513; v = 1.7785; Δ = −0.4834; σ' = 0.05999; φ* = 1.152862;
  φ' = 0.8722; μ' = −0.2069; r' = 1464.06; RD' = 151.52.
The papers compute each step from the previous step's *printed* (rounded) value; the code
keeps full precision. Where that makes the last printed digit differ, the test says so and
bounds the difference by the paper's own rounding.
"""
import math

import pytest

from nardrating.engines.glicko import GlickoEngine, Glicko1Params, expected, g, period_sums
from nardrating.engines.glicko2 import Glicko2Engine, Glicko2Params, new_volatility
from nardrating.replay.loader import load_club

from .conftest import make_club

PLAYERS = "".join(f'[[player]]\nid = "{p}"\n\n' for p in ("a", "b", "c", "d", "e"))
OPPONENTS = [(1400, 30, 1.0), (1550, 100, 0.0), (1700, 300, 0.0)]   # both papers' example


def config(engine: str, **params) -> str:
    lines = "".join(f"{k} = {v!r}\n".replace("'", '"') for k, v in params.items())
    return (f'[club]\njournal = ["journal.toml"]\ndefault_discipline = "chess"\n\n'
            f'[rating.g]\nengine = "{engine}"\n{lines}')


def adjust(day, player, value, **fields):
    extra = "".join(f"{k} = {v}\n" for k, v in fields.items())
    return f'[[adjust]]\ndate = {day}\nplayer = "{player}"\nset = {value}\n{extra}reason = "test"\n\n'


def match(mid, day, a, b, result):
    return f'[[match]]\nid = "{mid}"\ndate = {day}\nplayers = ["{a}", "{b}"]\nresult = "{result}"\n\n'


def example_journal(volatility=False):
    """Glickman's example as a journal: the states set on 1 January, the three games in January."""
    vol = {"volatility": 0.06} if volatility else {}
    return (PLAYERS + adjust("2024-01-01", "a", 1500, rd=200, **vol) + adjust("2024-01-01", "b", 1400, rd=30, **vol)
            + adjust("2024-01-01", "c", 1550, rd=100, **vol) + adjust("2024-01-01", "d", 1700, rd=300, **vol)
            + match("m1", "2024-01-10", "a", "b", "1-0") + match("m2", "2024-01-11", "a", "c", "0-1")
            + match("m3", "2024-01-12", "a", "d", "0-1"))


def run(tmp_path, journal, cfg, **kw):
    return load_club(make_club(tmp_path, journal, cfg)).run("g", **kw)


# --- Glicko-1: "The Glicko system", example calculation ------------------------------

def test_glicko1_papers_g_and_e():
    scale = GlickoEngine.scale
    assert [round(g(rd / scale), 4) for rd in (30, 100, 300)] == [0.9955, 0.9531, 0.7242]
    assert [round(expected(0.0, (r - 1500) / scale, rd / scale), 3) for r, rd, _ in OPPONENTS] == [0.639, 0.432, 0.303]


def test_glicko1_papers_example_in_a_journal(tmp_path):
    result = run(tmp_path, example_journal(), config("glicko"))
    a = result.standings["a"]
    # Printed: r' = 1464, RD' = 151.4 (full precision 1464.106 and 151.399).
    assert round(a.rating) == 1464
    assert round(a.extra["rd"], 1) == 151.4
    # d² = 231.67² is printed from the rounded g and E; at full precision d = 231.70.
    games = [((r - 1500) / GlickoEngine.scale, rd / GlickoEngine.scale, s) for r, rd, s in OPPONENTS]
    v, _, _ = period_sums(0.0, games)
    assert abs(math.sqrt(v) * GlickoEngine.scale - 231.67) < 0.05
    # The history splits the period's change over the three games and ends at the leaderboard's rating.
    events = [e for e in result.history("a") if e.kind == "match"]
    assert [round(e.extra["expected"], 3) for e in events] == [0.639, 0.432, 0.303]
    assert events[-1].after == a.rating
    assert math.isclose(sum(e.change for e in events), a.rating - 1500, abs_tol=1e-9)


# --- Glicko-2: "Example of the Glicko-2 system" ---------------------------------------

def test_glicko2_papers_steps():
    scale = Glicko2Engine.scale
    phi = 200 / scale
    assert round(phi, 4) == 1.1513                                   # step 2
    games = [((r - 1500) / scale, rd / scale, s) for r, rd, s in OPPONENTS]
    v, terms, _ = period_sums(0.0, games)
    delta = v * sum(terms)
    # Printed v = 1.7785 and Δ = −0.4834 come from g and E rounded to 4 and 3 decimals;
    # at full precision 1.7790 and −0.4839: within the paper's rounding.
    assert abs(v - 1.7785) < 0.001 and abs(delta - -0.4834) < 0.001
    # Step 5 from the paper's own v and Δ: σ' = 0.0599960; the paper prints 0.05999 (five
    # decimals, cut rather than rounded).
    sigma = new_volatility(0.06, phi, 1.7785, -0.4834, 0.5)
    assert 0.05999 <= sigma < 0.06000
    # Step 6: φ* = 1.152862 printed, from the rounded φ = 1.1513 (the exact φ is 1.1512880).
    assert abs(math.sqrt(phi * phi + sigma * sigma) - 1.152862) < 0.00002


@pytest.mark.parametrize("phi, v, delta", [
    (200 / 173.7178, 1.7785, -0.4834),   # the paper's example: σ' hardly moves
    (50 / 173.7178, 0.9, 2.5),           # a big surprise (Δ² > φ² + v, the paper's first branch): σ' grows
    (1.5, 3.0, 0.1),                     # a dull period: σ' shrinks
])
def test_glicko2_new_volatility_solves_the_papers_equation(phi, v, delta):
    # Step 5 defines σ' = e^(A/2) where A solves f(x) = 0,
    # f(x) = e^x(Δ² − φ² − v − e^x) / (2(φ² + v + e^x)²) − (x − ln σ²)/τ²; σ = 0.06, τ = 0.5.
    sigma, tau = 0.06, 0.5
    x = math.log(new_volatility(sigma, phi, v, delta, tau) ** 2)
    f = (math.exp(x) * (delta ** 2 - phi ** 2 - v - math.exp(x)) / (2 * (phi ** 2 + v + math.exp(x)) ** 2)
         - (x - math.log(sigma ** 2)) / tau ** 2)
    assert abs(f) < 1e-5


def test_glicko2_papers_example_in_a_journal(tmp_path):
    result = run(tmp_path, example_journal(volatility=True), config("glicko2"))
    a = result.standings["a"]
    scale = Glicko2Engine.scale
    assert round((a.rating - 1500) / scale, 4) == -0.2069           # step 7: μ'
    assert round(a.extra["rd"] / scale, 4) == 0.8722                # step 7: φ'
    assert round(a.extra["rd"], 2) == 151.52                        # step 8: RD'
    # Step 8 prints r' = 173.7178 × (−0.2069) + 1500 = 1464.06 from the rounded μ';
    # at full precision r' = 1464.0507: within the rounding of μ' (173.7178 × 0.00005 = 0.009).
    assert abs(a.rating - 1464.06) < 0.01
    assert 0.05999 <= a.extra["volatility"] < 0.06000               # σ' = 0.05999 (see above)
    assert [e for e in result.history("a") if e.kind == "match"][-1].after == a.rating


def test_glicko2_leaderboard_json_has_rd_and_volatility(tmp_path, cli_json):
    club = make_club(tmp_path, example_journal(volatility=True), config("glicko2"))
    rows = cli_json("leaderboard", "--club", club, "--as-of", "2024-01-31")
    row = next(r for r in rows if r["player"] == "a")
    assert round(row["rd"], 2) == 151.52 and 0.05999 <= row["volatility"] < 0.06


def test_glicko1_leaderboard_json_has_rd(tmp_path, cli_json):
    club = make_club(tmp_path, example_journal(), config("glicko"))
    rows = cli_json("leaderboard", "--club", club, "--as-of", "2024-01-31")
    assert round(next(r for r in rows if r["player"] == "a")["rd"], 1) == 151.4
    assert "volatility" not in rows[0]


# --- deviation growth over idle periods, worked by hand --------------------------------

def test_glicko1_rd_grows_by_c_squared_per_period(tmp_path):
    # RD 50 set in January; as of April (monthly periods) t = 3 periods since:
    # RD = √(50² + 34.6² × 3) = √(2500 + 1197.16 × 3) = √6091.48 = 78.05.
    journal = PLAYERS + adjust("2024-01-15", "a", 1600, rd=50)
    result = run(tmp_path, journal, config("glicko"), as_of=__import__("datetime").date(2024, 4, 10))
    assert round(result.standings["a"].extra["rd"], 2) == 78.05
    assert result.standings["a"].rating == 1600


def test_glicko1_rd_never_above_max_rd(tmp_path):
    # 120 months later √(50² + 1197.16 × 120) = √146159 = 382 > 350: held at max_rd.
    from datetime import date

    result = run(tmp_path, PLAYERS + adjust("2024-01-15", "a", 1600, rd=50), config("glicko"), as_of=date(2034, 1, 1))
    assert result.standings["a"].extra["rd"] == 350


def test_glicko1_weekly_periods_and_own_c(tmp_path):
    # Weeks run Monday to Sunday: 2024-01-03 (Wednesday) and 2024-01-22 (Monday) are 3 weeks apart.
    # RD = √(100² + 20² × 3) = √(10000 + 1200) = √11200 = 105.83.
    from datetime import date

    result = run(tmp_path, PLAYERS + adjust("2024-01-03", "a", 1500, rd=100), config("glicko", period="week", c=20),
                 as_of=date(2024, 1, 22))
    assert round(result.standings["a"].extra["rd"], 2) == 105.83


def test_glicko2_phi_grows_by_sigma_squared_per_idle_period(tmp_path):
    # RD 50, σ 0.06 set in January; as of April, February and March were idle:
    # RD² + 2·σ²·173.7178² = 2500 + 2 × 0.0036 × 30177.87 = 2500 + 217.28 = 2717.28; √ = 52.13.
    from datetime import date

    journal = PLAYERS + adjust("2024-01-15", "a", 1600, rd=50, volatility=0.06)
    result = run(tmp_path, journal, config("glicko2"), as_of=date(2024, 4, 10))
    assert round(result.standings["a"].extra["rd"], 2) == 52.13


def test_glicko1_rd_grows_before_the_next_rated_period(tmp_path):
    # a (1500, RD 200) beats b (1500, RD 200) in January and in April. April's onset RDs:
    # after January both have RD' = 1/√(1/200² + 1/d²); then √(RD'² + 34.6² × 3) (t = 3).
    journal = (PLAYERS + adjust("2024-01-01", "a", 1500, rd=200) + adjust("2024-01-01", "b", 1500, rd=200)
               + match("m1", "2024-01-10", "a", "b", "1-0") + match("m2", "2024-04-10", "a", "b", "1-0"))
    result = run(tmp_path, journal, config("glicko"))
    january, april = [e for e in result.history("a") if e.kind == "match"]
    assert math.isclose(april.extra["rd_before"], math.sqrt(january.extra["rd"] ** 2 + 34.6 ** 2 * 3))


# --- the rating period -------------------------------------------------------------

def test_games_of_one_period_use_the_ratings_at_its_start(tmp_path):
    # Two wins of a over b in one month: both against b's rating at the month's start, so the
    # two games have the same expected score and the same share of the change. With daily
    # periods the second game comes after the first has moved both ratings.
    journal = PLAYERS + match("m1", "2024-01-10", "a", "b", "1-0") + match("m2", "2024-01-20", "a", "b", "1-0")
    monthly = [e for e in run(tmp_path / "m", journal, config("glicko")).history("a") if e.kind == "match"]
    daily = [e for e in run(tmp_path / "d", journal, config("glicko", period="day")).history("a") if e.kind == "match"]
    assert monthly[0].extra["expected"] == monthly[1].extra["expected"] == 0.5
    assert monthly[0].change == monthly[1].change > 0
    assert daily[0].extra["expected"] == 0.5 and daily[1].extra["expected"] > 0.5


def test_draws_forfeits_unrated_and_voided(tmp_path):
    journal = (PLAYERS + match("m1", "2024-01-10", "a", "b", "1/2-1/2")
               + '[[match]]\nid = "m2"\ndate = 2024-01-11\nplayers = ["a", "c"]\nwinner = "a"\nforfeit = true\n\n'
               + '[[match]]\nid = "m3"\ndate = 2024-01-12\nplayers = ["a", "d"]\nwinner = "a"\nrated = false\n\n'
               + match("m4", "2024-01-13", "a", "e", "1-0")
               + '[[void]]\nmatch = "m4"\ndate = 2024-01-14\nreason = "test"\n\n')
    result = run(tmp_path, journal, config("glicko2"))
    events = {e.entry: e for e in result.history("a")}
    # A draw between two new 1500 players: E = ½, S = ½, no change; the RD shrinks.
    assert events["m1"].rated and events["m1"].change == 0 and events["m1"].extra["rd"] < 350
    assert [events[m].rated for m in ("m2", "m3", "m4")] == [False, False, False]
    assert result.standings["a"].games == 1 and result.standings["c"].rating == 1500
    assert result.standings["c"].extra["rd"] == 350


def test_adjust_in_a_period_with_games_is_the_state_they_are_rated_from(tmp_path):
    # b's set to 1700/RD 30 on the 20th comes before January is rated: a's win of the 10th is
    # scored against 1700/RD 30: E(a) = 1/(1 + 10^(−g(30)·(1500 − 1700)/400)), g(30) = 0.9955:
    # 10^(0.9955·0.5) = 10^0.49775 = 3.1459, E = 1/4.1459 = 0.2412.
    journal = PLAYERS + match("m1", "2024-01-10", "a", "b", "1-0") + adjust("2024-01-20", "b", 1700, rd=30)
    result = run(tmp_path, journal, config("glicko"))
    win = result.history("a")[-1]
    assert round(win.extra["expected"], 4) == 0.2412
    kinds = [e.kind for e in result.history("b")]
    assert kinds == ["adjust", "match"] and result.history("b")[-1].after == result.standings["b"].rating


def test_adjust_rd_on_glicko_and_refused_on_elo(tmp_path, cli):
    club = make_club(tmp_path / "g", PLAYERS + adjust("2024-01-01", "a", 1700, rd=80), config("glicko"))
    assert cli("check", "--club", club).exit_code == 0
    result = load_club(club).run("g")
    assert result.standings["a"].extra["rd"] == 80 and result.standings["a"].rating == 1700
    assert result.history("a")[-1].after == 1700
    elo = make_club(tmp_path / "e", PLAYERS + adjust("2024-01-01", "a", 1700, rd=80), config("elo"))
    refused = cli("check", "--club", elo)
    assert refused.exit_code == 1
    assert "journal.toml:16: rd is not used by rating list 'g' (elo); leave it out" in refused.output
    vol = make_club(tmp_path / "v", PLAYERS + adjust("2024-01-01", "a", 1700, volatility=0.05), config("glicko"))
    refused = cli("check", "--club", vol)
    assert refused.exit_code == 1 and "journal.toml:16: volatility is not used by rating list 'g' (glicko); it takes rd" in refused.output


def test_adjust_rd_above_max_rd_is_an_error(tmp_path, cli):
    club = make_club(tmp_path, PLAYERS + adjust("2024-01-01", "a", 1700, rd=400), config("glicko2"))
    result = cli("check", "--club", club)
    assert result.exit_code == 1
    assert "journal.toml:16: rd 400 is above max_rd 350 of rating list 'g' (glicko2); write rd = 350 or less" in result.output


@pytest.mark.parametrize("line, words", [
    ('period = "year"', "period: Input should be 'day', 'week' or 'month'"),
    ("tau = 0", "tau: Input should be greater than 0"),
    ("rd = 400", "rd 400 is above max_rd 350"),
    ("c = 30", "unknown key 'c'"),
])
def test_bad_params(tmp_path, cli, line, words):
    club = make_club(tmp_path, PLAYERS, config("glicko2") + line + "\n")
    result = cli("check", "--club", club)
    assert result.exit_code == 1 and words in result.output, result.output


def test_engines_params_defaults():
    assert Glicko1Params().c == 34.6 and Glicko1Params().period == "month" and Glicko1Params().max_rd == 350
    p = Glicko2Params()
    assert (p.start, p.rd, p.sigma, p.tau, p.period) == (1500, 350, 0.06, 0.5, "month")


@pytest.mark.parametrize("engine, period", [("glicko", "week"), ("glicko2", "month"), ("glicko2", "day")])
def test_leaderboard_is_the_last_after_of_every_history(tmp_path, engine, period):
    # The nardy club's three months of matches (with a voided one) under both engines.
    import shutil

    from .conftest import SAMPLES

    shutil.copy(SAMPLES / "nardy-club" / "journal.toml", tmp_path / "journal.toml")
    (tmp_path / "nardrating.toml").write_text(config(engine, period=period).replace('"chess"', '"long-nardy"'))
    result = load_club(tmp_path).run("g")
    assert len(result.standings) == 12
    for player, standing in result.standings.items():
        events = result.history(player)
        assert events[-1].after == standing.rating
        rated = [e for e in events if e.rated]
        assert all(math.isclose(e.before + e.change, e.after) for e in rated)
        assert all(b.before == a.after for a, b in zip(events, events[1:]))
        assert standing.games == sum(e.kind == "match" for e in rated)
