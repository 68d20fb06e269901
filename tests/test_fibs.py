"""The fibs engine: seed 004's published numbers, seed 001's nardy-site preset, config errors."""
import pytest

from nardrating.config import load_config
from nardrating.errors import LedgerError
from nardrating.replay.loader import load_club

from .conftest import make_club

FIBS_CONFIG = """\
[club]
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.fibs]
engine = "fibs"
"""

PLAYERS = "".join(f'[[player]]\nid = "{p}"\n\n' for p in ("a", "b", "c", "d"))


def match(mid, day, a, b, winner, length=1, **extra):
    lines = [f'[[match]]\nid = "{mid}"\ndate = {day}\nplayers = ["{a}", "{b}"]\nwinner = "{winner}"\nlength = {length}']
    lines += [f"{k} = {v}" for k, v in extra.items()]
    return "\n".join(lines) + "\n\n"


def set_rating(day, player, value, rating="fibs"):
    return f'[[adjust]]\ndate = {day}\nplayer = "{player}"\nrating = "{rating}"\nset = {value}\nreason = "test"\n\n'


def run(tmp_path, journal, config=FIBS_CONFIG, **kw):
    return load_club(make_club(tmp_path, PLAYERS + journal, config)).run(**kw)


def last_match_event(result, player):
    return [e for e in result.history(player) if e.kind == "match"][-1]


# --- seed 004's published numbers ------------------------------------------------

@pytest.mark.parametrize("length, published", [(1, 2.00), (5, 4.47), (9, 6.00)])
def test_equal_experienced_players(tmp_path, length, published):
    # Seed 004: two equal players, experience ≥ 400 (boost ×1): 1 point ±2, 9 points ±6;
    # 5 points: 4·√5·0.5 = 4.47. a and b first reach 400 experience in one 400-point match
    # each (against c and d), then are set back to 1500.
    journal = (match("x1", "2024-01-01", "a", "c", "a", 400) + match("x2", "2024-01-01", "b", "d", "d", 400)
               + set_rating("2024-01-02", "a", 1500) + set_rating("2024-01-02", "b", 1500)
               + match("m1", "2024-01-03", "a", "b", "a", length))
    result = run(tmp_path, journal)
    win, loss = last_match_event(result, "a"), last_match_event(result, "b")
    assert (win.extra["experience"], win.extra["boost"], loss.extra["boost"]) == (400, 1.0, 1.0)
    assert round(win.change, 2) == published
    assert round(loss.change, 2) == -published
    assert win.extra["probability"] == 0.5


def test_new_players_five_points(tmp_path):
    # Seed 004 via the issue: two new players (boost ×5), 5 points: 5·4·√5·0.5 = 22.36.
    result = run(tmp_path, match("m1", "2024-01-01", "a", "b", "b", 5))
    assert round(result.standings["b"].rating - 1500, 2) == 22.36
    assert round(result.standings["a"].rating - 1500, 2) == -22.36
    assert last_match_event(result, "a").extra["boost"] == 5.0


def test_weaker_player_wins_one_point_match_almost_four_times_in_ten(tmp_path):
    # Seed 004: a 400-point gap, 1 point: P(weaker) = 1/(1 + 10^(400/2000)) = 1/2.58489 = 0.387.
    # The weaker one wins: base = 4·(1 − 0.38686) = 2.45255; both new (×5): ±12.26.
    journal = set_rating("2024-01-01", "a", 1900) + match("m1", "2024-01-02", "a", "b", "b")
    result = run(tmp_path, journal)
    event = last_match_event(result, "b")
    assert round(event.extra["probability"], 3) == 0.387
    assert round(last_match_event(result, "a").extra["probability"], 3) == 0.613
    assert round(event.extra["base"], 4) == 2.4525
    assert round(event.change, 2) == 12.26
    assert round(result.standings["a"].rating, 2) == 1887.74


def test_three_matches_with_boosts(tmp_path):
    # Worked by hand (start 1500, factor 4, scale 2000, experience in points):
    # M1 (1 pt) a beats b: P = 0.5, base = 4·1·0.5 = 2, both ×5 → a 1510, b 1490. Exp a 1, b 1.
    # M2 (3 pts) a 1510 beats c 1500: exponent −10·√3/2000 = −0.0086603, 10^that = 0.980257,
    #   P(a) = 1/1.980257 = 0.504985; base = 4·√3·0.495015 = 3.429564;
    #   a ×4.99 (5 − 1/100) = +17.11352 → 1527.1135; c ×5 = −17.14782 → 1482.8522. Exp a 4, c 3.
    # M3 (5 pts) c 1482.8522 beats b 1490: exponent (1490 − 1482.8522)·√5/2000 = 0.0079915,
    #   P(c) = 1/(1 + 10^0.0079915) = 1/2.018570 = 0.495400; base = 4·√5·0.504600 = 4.513281;
    #   c ×4.97 (exp 3) = +22.43101 → 1505.2832; b ×4.99 (exp 1) = −22.52127 → 1467.4787.
    journal = (match("m1", "2024-01-01", "a", "b", "a", 1) + match("m2", "2024-01-02", "a", "c", "a", 3)
               + match("m3", "2024-01-03", "c", "b", "c", 5))
    result = run(tmp_path, journal)
    s = result.standings
    assert round(s["a"].rating, 2) == 1527.11
    assert round(s["c"].rating, 2) == 1505.28
    assert round(s["b"].rating, 2) == 1467.48
    m3 = last_match_event(result, "c")
    assert (round(m3.extra["probability"], 4), round(m3.extra["base"], 4)) == (0.4954, 4.5133)
    assert (m3.extra["boost"], m3.extra["opponent_boost"], m3.extra["experience"]) == (4.97, 4.99, 3)
    # Experience: a 1 + 3 = 4, b 1 + 5 = 6, c 3 + 5 = 8, all below 10: provisional.
    assert {p: st.status for p, st in s.items() if p != "d"} == {p: "provisional" for p in "abc"}
    assert [s[p].games for p in "abc"] == [2, 2, 2]


def test_experience_in_games_and_no_boost(tmp_path):
    # experience_unit = "games": two 7-point matches give 2 experience, not 14; boost off: ×1.
    # M1 a beats b (7 pts), equal: base = 4·√7·0.5 = 5.29150 → a 1505.2915, b 1494.7085.
    config = FIBS_CONFIG + 'experience_unit = "games"\nboost = false\nleaderboard_min_experience = 2\n'
    result = run(tmp_path, match("m1", "2024-01-01", "a", "b", "a", 7)
                 + match("m2", "2024-01-02", "a", "c", "c", 7), config)
    first = result.history("a")[0]
    assert round(first.change, 4) == 5.2915 and first.extra["boost"] == 1.0
    assert result.standings["a"].status == "established"   # 2 games ≥ 2
    assert result.standings["b"].status == "provisional"   # 1 game


def test_adjust_set_and_delta_and_pair_limit(tmp_path):
    # a set to 1600, then +10 → 1610. Pair limit 1: the second a–b match of the day is unrated.
    config = FIBS_CONFIG + "pair_limit_per_day = 1\n"
    journal = (set_rating("2024-01-01", "a", 1600)
               + '[[adjust]]\ndate = 2024-01-01\nplayer = "a"\nrating = "fibs"\ndelta = 10\n\n'
               + match("m1", "2024-01-02", "a", "b", "b") + match("m2", "2024-01-02", "a", "b", "b"))
    events = run(tmp_path, journal, config).history("a")
    assert [(e.kind, e.after) for e in events[:2]] == [("adjust", 1600), ("adjust", 1610)]
    assert [(e.entry, e.rated) for e in events[2:]] == [("m1", True), ("m2", False)]
    assert events[3].reason.startswith("pair limit")


# --- seed 001's nardy-site Elo as a preset -----------------------------------------

SITE_CONFIG = FIBS_CONFIG.replace('engine = "fibs"', 'engine = "fibs"\npreset = "nardy-site"')


def test_nardy_site_preset_values_and_override(tmp_path):
    params = load_config(make_club(tmp_path, "", SITE_CONFIG) / "nardrating.toml").ratings["fibs"].params
    assert (params.factor, params.scale, params.experience_unit, params.start) == (10, 400, "games", 1500)
    overridden = SITE_CONFIG + "factor = 8\n"
    params = load_config(make_club(tmp_path / "o", "", overridden) / "nardrating.toml").ratings["fibs"].params
    assert (params.factor, params.scale) == (8, 400)


def test_nardy_site_weaker_loser_loses_little(tmp_path):
    # Seed 001: E = R·10·√L/(1 + 10^(D·√L/400)), D read from the winner's side.
    # Winner a 1600, loser b 1400, L = 1, both new (R = (500 − 0)/100 = 5):
    # E = 10/(1 + 10^(200/400)) = 10/4.16228 = 2.40253; ×5 = 12.01 gained by a and lost by b.
    # Equal players would move 5·10/2 = 25: the weaker player who loses loses little.
    journal = (set_rating("2024-01-01", "a", 1600) + set_rating("2024-01-01", "b", 1400)
               + match("m1", "2024-01-02", "a", "b", "a"))
    result = run(tmp_path, journal, SITE_CONFIG)
    assert round(last_match_event(result, "a").change, 2) == 12.01
    assert round(last_match_event(result, "b").change, 2) == -12.01


def test_nardy_site_boost_counts_games(tmp_path):
    # R = (500 − G)/100 with G in games: after one 7-point match G = 1, R = 4.99 (points would give 4.93).
    journal = match("m1", "2024-01-01", "a", "b", "a", 7) + match("m2", "2024-01-02", "a", "c", "a", 1)
    assert last_match_event(run(tmp_path, journal, SITE_CONFIG), "a").extra["boost"] == 4.99


# --- journal and config errors ---------------------------------------------------

def test_draw_is_a_journal_error_with_file_and_line(tmp_path, cli):
    journal = PLAYERS + '[[match]]\nid = "m1"\ndate = 2024-01-01\nplayers = ["a", "b"]\nresult = "1/2-1/2"\n'
    club = make_club(tmp_path, journal, FIBS_CONFIG)
    result = cli("check", "--club", club)
    assert result.exit_code == 1
    # The [[match]] header is on line 13 (four players take 3 lines each).
    assert "journal.toml:13: m1: a draw in 'long-nardy'" in result.stderr


def test_the_check_sees_draws_through_the_view_from_the_first_new_match_on(tmp_path):
    # An elo club (chess) may hold draws; FIBS's check, asked of the same journal, refuses those it rates.
    # Lines: four players take 1-12; each match takes 5 lines and a blank, so m1..m4 start on 13, 19,
    # 25, 31; m3 is voided. From row 2 on (an append after m1, m2) only m4 is new.
    from nardrating.engines.fibs import FibsEngine
    from nardrating.journal.validate import JournalCheck

    def entry(mid, result):
        return f'[[match]]\nid = "{mid}"\ndate = 2024-01-01\nplayers = ["a", "b"]\nresult = "{result}"\n\n'

    journal = (PLAYERS + entry("m1", "1-0") + entry("m2", "1/2-1/2") + entry("m3", "1/2-1/2")
               + entry("m4", "1/2-1/2") + '[[void]]\nmatch = "m3"\ndate = 2024-01-02\nreason = "typo"\n')
    entries = JournalCheck(load_club(make_club(tmp_path, journal)).journal)
    assert [(d.entry, d.line) for d in entries.draws(0)] == [("m2", 19), ("m4", 31)]
    assert [(d.entry, d.line) for d in entries.draws(2)] == [("m4", 31)]
    fibs = load_config(make_club(tmp_path / "f", "", FIBS_CONFIG) / "nardrating.toml").ratings["fibs"]
    problems = FibsEngine.check(fibs, entries, 2)
    assert [(p.line, p.entry) for p in problems] == [(31, "m4")] and "a draw in 'chess'" in problems[0].message


def test_voided_draw_is_allowed(tmp_path, cli):
    journal = (PLAYERS + '[[match]]\nid = "m1"\ndate = 2024-01-01\nplayers = ["a", "b"]\nresult = "1/2-1/2"\n\n'
               '[[void]]\nmatch = "m1"\ndate = 2024-01-02\nreason = "typo"\n')
    assert cli("check", "--club", make_club(tmp_path, journal, FIBS_CONFIG)).exit_code == 0


def test_draw_outside_the_lists_disciplines_is_fine(tmp_path, cli):
    config = FIBS_CONFIG + 'disciplines = ["long-nardy"]\n'
    journal = (PLAYERS + '[[match]]\nid = "m1"\ndate = 2024-01-01\nplayers = ["a", "b"]\n'
               'result = "1/2-1/2"\ndiscipline = "chess"\n')
    assert cli("check", "--club", make_club(tmp_path, journal, config)).exit_code == 0


@pytest.mark.parametrize("line, key, words", [
    ("factor = -4", "factor", "greater than 0"),
    ("scale = 0", "scale", "greater than 0"),
    ('experience_unit = "moves"', "experience_unit", "'points' or 'games'"),
    ('preset = "fide"', "preset", "unknown preset 'fide'"),
])
def test_bad_params_name_file_and_key(tmp_path, line, key, words):
    club = make_club(tmp_path, "", FIBS_CONFIG + line + "\n")
    with pytest.raises(LedgerError) as caught:
        load_config(club / "nardrating.toml")
    message = str(caught.value)
    # The offending key is on line 7 of the config.
    assert f"nardrating.toml:7: [rating.fibs] {key}:" in message
    assert words in message


# --- the CLI and the JSON interface -------------------------------------------------

def test_leaderboard_hides_provisional_and_keeps_json_keys(tmp_path, cli_json):
    # a: 7 + 5 = 12 experience (established); b 7, c 5: provisional, shown only with --all.
    club = make_club(tmp_path, PLAYERS + match("m1", "2024-01-01", "a", "b", "a", 7)
                     + match("m2", "2024-01-02", "a", "c", "c", 5), FIBS_CONFIG)
    rows = cli_json("leaderboard", "--club", club, "--as-of", "2024-02-01")
    assert [r["player"] for r in rows] == ["a"]
    assert set(rows[0]) == {"rank", "player", "name", "rating", "games", "status", "last_played"}
    everyone = cli_json("leaderboard", "--club", club, "--as-of", "2024-02-01", "--all")
    assert sorted(r["player"] for r in everyone) == ["a", "b", "c"]
    history = cli_json("history", "b", "--club", club)
    assert set(history[0]) >= {"date", "entry", "kind", "opponent", "result", "before", "change", "after",
                               "rated", "reason", "probability", "base", "boost", "opponent_boost", "experience"}


def test_standings_of_a_cached_replay_leave_the_match_columns_unread(tmp_path):
    # The result keeps the view's match columns as a function: a leaderboard of a cached replay
    # reads the state alone; history reads the columns when it is first asked for.
    journal = "".join(match(f"m{k}", f"2024-01-0{k + 1}", "a", "b", "a") for k in range(3))
    club = make_club(tmp_path, PLAYERS + journal, FIBS_CONFIG)
    load_club(club).run()  # writes the cache: the journal and the replay's state
    ledger = load_club(club)
    result = ledger.run()
    assert ledger.journal._load_matches is not None  # the columns not loaded yet
    assert [e.entry for e in result.history("a")] == ["m0", "m1", "m2"]
    assert ledger.journal._load_matches is None


def test_a_result_holds_no_view(tmp_path):
    # A result outlives its view: it keeps the view's match_columns function, which holds the journal only.
    import gc
    import weakref

    from nardrating.engines.fibs import FibsEngine
    from nardrating.replay.view import build_view

    ledger = load_club(make_club(tmp_path, PLAYERS + match("m1", "2024-01-01", "a", "b", "a"), FIBS_CONFIG))
    view = build_view(ledger, ledger.rating("fibs"), "long-nardy", None)
    result, gone = FibsEngine().run(view), weakref.ref(view)
    del view
    gc.collect()
    assert gone() is None and [e.entry for e in result.history("b")] == ["m1"]
