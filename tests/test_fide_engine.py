"""The fide engine on small clubs, each case worked by hand in its comments."""
from __future__ import annotations

from datetime import date
from fractions import Fraction

from nardrating.replay.loader import load_club
from tests.conftest import make_club


def config(**params) -> str:
    lines = [f"{k} = {v!r}".replace("'", '"') for k, v in params.items()]
    return ("[club]\nname = \"Test\"\njournal = [\"journal.toml\"]\ndefault_discipline = \"chess\"\n\n"
            "[rating.fide]\nengine = \"fide\"\n" + "\n".join(lines) + "\n")


class Journal:
    """Builds a journal's TOML text."""

    def __init__(self):
        self.parts: list[str] = []
        self.n = 0

    def players(self, *ids, title=None):
        for pid in ids:
            self.parts.append(f'[[player]]\nid = "{pid}"\n' + (f'title = "{title}"\n' if title else ""))
        return self

    def rated(self, day, **ratings):
        for pid, r in ratings.items():
            self.players(pid)
            self.parts.append(f'[[adjust]]\ndate = {day}\nplayer = "{pid}"\nset = {r}\nreason = "import"\n')
        return self

    def tournament(self, tid, start, end, system="swiss", official=False):
        self.parts.append(f'[[tournament]]\nid = "{tid}"\nsystem = "{system}"\nstart = {start}\nend = {end}\n'
                          + ("official = true\n" if official else ""))
        return self

    def games(self, day, *games, tournament=None):
        """games: (a, b, result) with result "1-0", "0-1" or "1/2-1/2"."""
        for a, b, result in games:
            self.n += 1
            self.parts.append(f'[[match]]\nid = "m{self.n:03d}"\ndate = {day}\nplayers = ["{a}", "{b}"]\n'
                              f'result = "{result}"\n' + (f'tournament = "{tournament}"\n' if tournament else ""))
        return self

    def text(self):
        return "\n".join(self.parts)


def run(tmp_path, journal: Journal, as_of=None, **params):
    ledger = load_club(make_club(tmp_path, journal.text(), config(**params)))
    return ledger.run(None, None, as_of)


def seed_8_3_4() -> Journal:
    # Opponents only ever play the newcomer, and games against an unrated player change no
    # rated player's rating, so every opponent keeps the imported rating.
    j = Journal().rated("2024-01-01", a1=2200, a2=2220, a3=2240, b1=2100, b2=2125, b3=2150, b4=2175, b5=2200,
                        c1=2150, c2=2180, c3=2220, c4=2250).players("new")
    j.tournament("t1", "2024-02-03", "2024-02-04")     # ends 4 Feb → list of 1 March
    j.games("2024-02-03", ("new", "a1", "1-0"), ("new", "a2", "0-1"), ("new", "a3", "0-1"), tournament="t1")
    j.tournament("t2", "2024-03-09", "2024-03-10")     # → list of 1 April
    j.games("2024-03-09", ("new", "b1", "1-0"), ("new", "b2", "0-1"), ("new", "b3", "1-0"),
            ("new", "b4", "1/2-1/2"), ("new", "b5", "1/2-1/2"), tournament="t2")
    j.tournament("t3", "2024-04-13", "2024-04-14")     # → list of 1 May
    j.games("2024-04-13", ("new", "c1", "1-0"), ("new", "c2", "1/2-1/2"), ("new", "c3", "1-0"),
            ("new", "c4", "0-1"), tournament="t3")
    return j


def test_seed_example_8_3_4(tmp_path):
    j = seed_8_3_4()
    # List of 1 March: 1 of 3 against a mean of (2200+2220+2240)/3 = 2220; 3 games < 9: nothing published.
    # The pool would give 2220 + dp(.33) = 2220 − 125 = 2095.
    s = run(tmp_path / "1", j, date(2024, 3, 1)).standings["new"]
    assert (s.rating, s.status, s.games, s.extra["pool_rating"]) == (None, "provisional", 3, 2095)
    # List of 1 April: 4 of 8 against (6660 + 10750)/8 = 2176.25: 8 games < 9, still nothing.
    s = run(tmp_path / "2", j, date(2024, 4, 1)).standings["new"]
    assert (s.rating, s.status, s.games, s.extra["pool_rating"]) == (None, "provisional", 8, 2176)
    # List of 1 May: 6½ of 12 against 26210/12 = 2184.17, half a point above 50%: 2184.17 + 15 → 2199.
    s = run(tmp_path / "3", j, date(2024, 5, 1)).standings["new"]
    assert (s.rating, s.status, s.games) == (2199, "rated", 12)
    # The opponents never moved: their games were against an unrated player.
    assert run(tmp_path / "3", j, date(2024, 5, 1)).standings["c4"].rating == 2250


def test_closing_dates(tmp_path):
    # Lists on the 1st of each month. x beats y (both 2000, P_D .50): +20·.5 = +10 / −10.
    def one(folder, end, official, as_of):
        j = Journal().rated("2024-01-01", x=2000, y=2000)
        j.tournament("t", end, end, official=official).games(end, ("x", "y", "1-0"), tournament="t")
        return run(tmp_path / folder, j, as_of).standings["x"].rating

    # Ending 28 April, 3 days before the list of 1 May: on it.
    assert one("a", "2024-04-28", False, date(2024, 5, 1)) == 2010
    # Ending 29 April, 2 days before: not on 1 May, on 1 June.
    assert one("b", "2024-04-29", False, date(2024, 5, 1)) == 2000
    assert one("c", "2024-04-29", False, date(2024, 6, 1)) == 2010
    # Official, ending 30 April, the day before: on 1 May.
    assert one("d", "2024-04-30", True, date(2024, 5, 1)) == 2010
    # The same tournament not official: 1 June.
    assert one("e", "2024-04-30", False, date(2024, 5, 1)) == 2000


def test_single_match_is_an_event_of_its_own(tmp_path):
    # A rated match outside any tournament on 28 April reaches 1 May as an event of one game.
    j = Journal().rated("2024-01-01", x=2000, y=2000).games("2024-04-28", ("x", "y", "1/2-1/2"), ("x", "y", "1-0"))
    res = run(tmp_path, j, date(2024, 5, 1))
    # Each is rounded on its own: ½ − .50 = 0 → 0; 1 − .50 = .5 → +10.
    assert res.standings["x"].rating == 2010
    tournaments = [e for e in res.history("x") if e.kind == "tournament"]
    assert [e.change for e in tournaments] == [0.0, 10.0]
    # Each event's performance Rc + dp: 2000 + dp(50%) = 2000 + 0, 2000 + dp(100%) = 2000 + 800;
    # y's: 2000 + 0 and 2000 − 800. P_D of a difference of 0: .50 each time.
    assert [(e.extra["performance"], e.extra["expected"]) for e in tournaments] == [(2000, 0.5), (2800, 0.5)]
    assert [e.extra["performance"] for e in res.history("y") if e.kind == "tournament"] == [2000, 1200]


def test_single_matches_over_400_apart_say_so(tmp_path):
    # §8.3.1 of fide-2024: low (2000) beats weaker (1500), D = 500 counted as 400 (P_D .92):
    # 20·(1 − .92) = +1.6 → +2 (the period rounded once); performance 1500 + 800 = 2300.
    j = Journal().rated("2024-01-01", low=2000, weaker=1500).games("2024-02-10", ("low", "weaker", "1-0"))
    res = run(tmp_path / "a", j, date(2024, 3, 1), ruleset="fide-2024")
    (event,) = res.lists["low"][-1].events
    assert (event.performance, event.expected, event.difference_rule) == (
        2300, Fraction(92, 100), "1 game over 400 apart counted as 400 (§8.3.1)")
    assert res.standings["low"].rating == 2002
    # fide-2025, from 1 October 2025: top (2700, 2650 or more) plays at the real difference,
    # D = 500 (P_D .96); weak (2200) still counts it as 400 (P_D .08).
    j = Journal().rated("2025-01-01", top=2700, weak=2200).games("2025-10-15", ("top", "weak", "1/2-1/2"))
    res = run(tmp_path / "b", j, date(2025, 12, 1), ruleset="fide-2025")
    (top,), (weak,) = res.lists["top"][-1].events, res.lists["weak"][-1].events
    assert (top.expected, top.difference_rule) == (Fraction(96, 100), "1 game over 400 apart at the real "
                                                   "difference, rated 2650 or more (§8.3.1 from 1 October 2025)")
    assert (weak.expected, weak.difference_rule) == (Fraction(8, 100), "1 game over 400 apart counted as 400 (§8.3.1)")


def test_a_single_match_named_like_a_tournament_is_an_event_of_its_own(tmp_path):
    # Match ids and tournament ids are apart: tournament "m003" (x beats y twice, 10-11 February)
    # and match m003 outside it (y beats x, 20 February) are two events, both on the list of
    # 1 March, x and y both 2000 (D = 0, P_D .50, K 20). The tournament: x 2 − 1 = +1, ×20 = +20;
    # the match: x 0 − .50 = −.5, ×20 = −10. x: 2000 + 20 − 10 = 2010; y: 2000 − 20 + 10 = 1990.
    j = Journal().rated("2024-01-01", x=2000, y=2000).tournament("m003", "2024-02-10", "2024-02-11")
    j.games("2024-02-10", ("x", "y", "1-0"), ("x", "y", "1-0"), tournament="m003")
    j.games("2024-02-20", ("y", "x", "1-0"))       # the journal's third match: m003
    res = run(tmp_path, j, date(2024, 3, 1))
    assert (res.standings["x"].rating, res.standings["y"].rating) == (2010, 1990)
    assert [(e.extra["event"], e.change) for e in res.history("x") if e.kind == "tournament"] == [
        ("m003", 20.0), ("m003", -10.0)]
    assert [e.games for e in res.lists["x"][-1].events] == [2, 1]


def three_2000s(j: Journal) -> Journal:
    return j.rated("2024-01-01", r1=2000, r2=2000, r3=2000)


def test_first_tournament_with_half_a_point_is_ignored(tmp_path):
    j = three_2000s(Journal()).players("new")
    j.tournament("t1", "2024-02-03", "2024-02-04").games(
        "2024-02-03", ("new", "r1", "1/2-1/2"), ("new", "r2", "0-1"), ("new", "r3", "0-1"), tournament="t1")
    j.tournament("t2", "2024-03-09", "2024-03-10").games(
        "2024-03-09", *[("new", r, res) for r in ("r1", "r2", "r3") for res in ("1-0", "0-1", "1/2-1/2")],
        tournament="t2")
    res = run(tmp_path, j, date(2024, 4, 1))
    # t1: ½ point in the first tournament < 1: ignored. t2: 4½ of 9 against 2000 = 50% → Ru = 2000.
    # (Counting t1 would give 5 of 12 = .42 → dp −57 → 1943.)
    s = res.standings["new"]
    assert (s.rating, s.games) == (2000, 9)
    row = next(r for r in res.report(date(2024, 3, 1), date(2024, 4, 1)) if r.player == "new")
    assert row.extra["ignored"] == ["t1: first rated tournament with 0.5 points; 1 needed (8.2)"]
    assert row.extra["tournaments"] == ["t2"]


def test_two_games_against_rated_players_are_ignored(tmp_path):
    j = three_2000s(Journal()).players("new", "other")
    j.tournament("t1", "2024-02-03", "2024-02-04").games(
        "2024-02-03", ("new", "r1", "1-0"), ("new", "r2", "1-0"), ("new", "other", "1-0"), tournament="t1")
    j.tournament("t2", "2024-03-09", "2024-03-10").games(
        "2024-03-09", *[("new", r, res) for r in ("r1", "r2", "r3") for res in ("1-0", "0-1", "1/2-1/2")],
        tournament="t2")
    res = run(tmp_path, j, date(2024, 4, 1))
    # t1 has 2 games against rated players (< 3): ignored, whatever the score. t2 alone: 4½ of 9 → 2000.
    # (Counting t1's two wins: 6½ of 11, 1 point = 2 half-points above 5½ → 2030.)
    assert res.standings["new"].rating == 2000
    row = next(r for r in res.report(date(2024, 3, 1), date(2024, 3, 1)) if r.player == "new")
    assert row.extra["ignored"] == ["t1: 2 games against rated opponents; 3 needed (8.2)"]


def test_pool_older_than_26_months(tmp_path):
    def with_first_event(folder, end):
        j = Journal().rated("2021-12-01", r1=2000, r2=2000, s1=2100, s2=2100, s3=2100).players("new")
        j.tournament("old", end, end).games(
            end, ("new", "r1", "1-0"), ("new", "r2", "0-1"), ("new", "r1", "1-0"), ("new", "r2", "0-1"),
            tournament="old")
        j.tournament("new-t", "2024-03-20", "2024-03-20").games(
            "2024-03-20", ("new", "s1", "1-0"), ("new", "s2", "0-1"), ("new", "s3", "1/2-1/2"),
            ("new", "s1", "1-0"), ("new", "s2", "0-1"), tournament="new-t")
        return run(tmp_path / folder, j, date(2024, 4, 1)).standings["new"]

    # "old" ends 20 Jan 2022 → list of 1 Feb 2022, rating period January 2022. "new-t" → list of
    # 1 April 2024 (period March 2024). January 2022 … March 2024 is 27 months > 26: dropped.
    # Left: 2½ of 5 against 2100 → would give 2100, but 5 games < 9: not published.
    s = with_first_event("a", "2022-01-20")
    assert (s.rating, s.status, s.extra["pool_games"], s.extra["pool_rating"]) == (None, "provisional", 5, 2100)
    # One month later (period February 2022, 26 months) it stays: 4½ of 9 against
    # (4·2000 + 5·2100)/9 = 18500/9 = 2055.56 → 2056.
    s = with_first_event("b", "2022-02-20")
    assert (s.rating, s.status, s.games) == (2056, "rated", 9)


def test_fall_below_the_floor(tmp_path):
    j = Journal().rated("2024-01-01", weak=1010, strong=1110)
    # weak loses 4 games to a player 100 above: P_D(L) .36 each; 20·4·(0 − .36) = −28.8 → −29 → 981 < 1000.
    # strong: 20·4·(1 − .64) = 28.8 → +29 → 1139.
    j.tournament("t1", "2024-02-10", "2024-02-10").games("2024-02-10", *[("strong", "weak", "1-0")] * 4,
                                                         tournament="t1")
    # Then weak is unrated: 1 of 3 against strong (1139) counts for weak's pool only:
    # 1139 + dp(.33) = 1139 − 125 = 1014; strong's games against an unrated player do not count.
    j.tournament("t2", "2024-03-20", "2024-03-20").games(
        "2024-03-20", ("weak", "strong", "1-0"), ("weak", "strong", "0-1"), ("weak", "strong", "0-1"),
        tournament="t2")
    res = run(tmp_path / "a", j, date(2024, 3, 1))
    assert (res.standings["weak"].rating, res.standings["weak"].status) == (None, "excluded")
    assert res.standings["strong"].rating == 1139
    res = run(tmp_path / "b", j, date(2024, 4, 1))
    weak = res.standings["weak"]
    assert (weak.status, weak.extra["pool_games"], weak.extra["pool_rating"]) == ("provisional", 3, 1014)
    assert res.standings["strong"].rating == 1139


def test_a_year_without_games_then_one_game(tmp_path):
    j = Journal().rated("2023-01-01", a=2000, b=2000).rated("2024-01-01", c=1900)
    j.games("2023-02-10", ("a", "b", "1/2-1/2"))    # → list of 1 March 2023; draw between equals: 0
    j.games("2024-03-15", ("c", "a", "1-0"))        # → list of 1 April 2024
    # On 1 Feb 2024 the year looks back to 1 Feb 2023: a and b played on 10 Feb 2023 — rated.
    res = run(tmp_path / "a", j, date(2024, 2, 1))
    assert res.standings["a"].status == "rated"
    # On 1 March 2024 it looks back to 1 March 2023: no game since — inactive, rating kept.
    res = run(tmp_path / "b", j, date(2024, 3, 1))
    assert (res.standings["a"].status, res.standings["a"].rating) == ("inactive", 2000)
    # 20 March: a has played, but the game is on no list yet — still inactive.
    res = run(tmp_path / "c", j, date(2024, 3, 20))
    assert res.standings["a"].status == "inactive"
    # 1 April: the game is on the list; a is active again. a's kept rating 2000 counts for c:
    # c: 20·(1 − P_D(−100) .36) = 12.8 → +13 → 1913; a: 20·(0 − .64) = −12.8 → −13 → 1987.
    res = run(tmp_path / "d", j, date(2024, 4, 1))
    assert (res.standings["a"].status, res.standings["a"].rating) == ("rated", 1987)
    assert res.standings["c"].rating == 1913
    assert res.standings["b"].status == "inactive"
    notes = [(e.date, e.reason) for e in res.history("a") if e.kind == "list"]
    assert notes == [(date(2024, 3, 1), "inactive: no rated game since 2023-02-10"),
                     (date(2024, 4, 1), "active again")]


def test_round_robin_with_two_unrated_players(tmp_path):
    j = Journal().rated("2024-01-01", r1=2000, r2=1900, r3=1800).players("u1", "u2")
    j.tournament("rr", "2024-02-01", "2024-02-05", system="round-robin")
    j.games("2024-02-01",
            ("r1", "r2", "1-0"), ("r1", "r3", "1-0"), ("r1", "u1", "1-0"), ("r1", "u2", "1-0"),
            ("r2", "r3", "1/2-1/2"), ("r2", "u1", "1-0"), ("r2", "u2", "1-0"),
            ("r3", "u1", "1/2-1/2"), ("r3", "u2", "0-1"), ("u1", "u2", "1-0"), tournament="rr")
    res = run(tmp_path, j, date(2024, 3, 1))
    # Rated players' scores against everyone: r1 4/4 (dp +800), r2 2½/4 = .63 (+95), r3 1/4 = .25 (−193).
    # Rar = 1900, dpa = 702/3 = 234, n = 4 opponents: Ra = 1900 − 234·4/5 = 1712.8 (8.2.1b).
    # u1 1½ of 4 = .38 → −87; below 50% in a round-robin: 1712.8 − 87·4/5 = 1643.2 → 1643.
    # u2 1 of 4 = .25 → −193: 1712.8 − 154.4 = 1558.4 → 1558. Four games each: not published.
    u1, u2 = res.standings["u1"], res.standings["u2"]
    assert (u1.status, u1.extra["pool_rating"], u1.extra["pool_games"]) == ("provisional", 1643, 4)
    assert (u2.status, u2.extra["pool_rating"]) == ("provisional", 1558)
    # Rated players count only rated opponents. r1: (1 − .64) + (1 − .76) = .60 → +12 → 2012.
    # r2: (0 − .36) + (½ − .64) = −.50 → −10 → 1890. r3: (0 − .24) + (½ − .36) = −.10 → −2 → 1798.
    assert [res.standings[p].rating for p in ("r1", "r2", "r3")] == [2012, 1890, 1798]
    # Performance Ra + dp: u1 1712.8 − 87 = 1625.8 → 1626; u2 1712.8 − 193 = 1519.8 → 1520.
    rows = {r.player: r for r in res.report(date(2024, 3, 1), date(2024, 3, 31))}
    assert rows["u1"].extra["performance"] == {"rr": 1626}
    assert rows["u2"].extra["performance"] == {"rr": 1520}
    # r1's performance: opponents r2, r3 (mean 1850), 2 of 2 → +800 → 2650.
    assert rows["r1"].extra["performance"] == {"rr": 2650}
    assert (rows["r1"].before, rows["r1"].change, rows["r1"].after, rows["r1"].expected) == (2000, 12, 2012, 1.4)


def test_published_before_a_tournament_is_rated(tmp_path):
    # new: 4½ of 9 against 2000 in t1 (ends 21 Jan → list of 1 Feb): first rating 2000.
    # t2 began on 27 Jan, while new was unrated, and reaches 1 March. new is rated in it with 2000:
    # a win against r1 (2000): 20·(1 − .50) = +10 → 2010. For r1, new was unrated: r1 stays 2000.
    j = three_2000s(Journal()).players("new")
    j.tournament("t1", "2024-01-20", "2024-01-21").games(
        "2024-01-20", *[("new", r, res) for r in ("r1", "r2", "r3") for res in ("1-0", "0-1", "1/2-1/2")],
        tournament="t1")
    j.tournament("t2", "2024-01-27", "2024-02-03").games("2024-02-03", ("new", "r1", "1-0"), tournament="t2")
    res = run(tmp_path, j, date(2024, 3, 1))
    assert res.standings["new"].rating == 2010
    assert res.standings["r1"].rating == 2000


def test_titled_player_without_rating_is_listed_apart(tmp_path):
    j = three_2000s(Journal()).players("fm", title="FM").games("2024-02-10", ("fm", "r1", "1-0"))
    res = run(tmp_path, j, date(2024, 3, 1))
    assert res.standings["fm"].status == "titled-unrated"
    assert ("titled-unrated", "Titled players without a rating") in res.sections


def test_fide_2024_k_and_difference_cap(tmp_path):
    j = Journal().rated("2024-01-01", top=2400, below=2399, opp=2400, low=2000, weaker=1500)
    j.tournament("t", "2024-02-10", "2024-02-10").games(
        "2024-02-10", ("top", "opp", "1-0"), ("below", "opp", "1-0"), ("low", "weaker", "1-0"), tournament="t")
    res = run(tmp_path / "a", j, date(2024, 3, 1), ruleset="fide-2024")
    # Imported ratings count as established. top reached 2400: K 10, 10·(1 − .50) = +5 → 2405.
    assert res.standings["top"].rating == 2405
    # below (2399) vs 2400, D = −1 → .50: K 20 → +10 → 2409.
    assert res.standings["below"].rating == 2409
    # low vs weaker: D = 500 counts as 400 → .92: 20·.08 = 1.6 → +2 → 2002; weaker −2 → 1498.
    assert (res.standings["low"].rating, res.standings["weaker"].rating) == (2002, 1498)
    # Under the seed rules D = 500 → .96: 20·.04 = .8 → +1.
    res = run(tmp_path / "b", j, date(2024, 3, 1))
    assert res.standings["low"].rating == 2001


def test_fide_2024_new_player(tmp_path):
    # Five games against 2000: 2½ points. Ra = (10000 + 2·1800)/7 = 1942.86, p = 3½/7 → dp 0 → 1943,
    # published after 5 games. (The seed needs 9: nothing published.)
    j = Journal().rated("2024-01-01", r1=2000, r2=2000, r3=2000, r4=2000, r5=2000).players("new")
    j.tournament("t1", "2024-02-10", "2024-02-10").games(
        "2024-02-10", ("new", "r1", "1-0"), ("new", "r2", "0-1"), ("new", "r3", "1/2-1/2"), ("new", "r4", "1-0"),
        ("new", "r5", "0-1"), tournament="t1")
    # Then 18 games on one list (new has 5 < 30 games: K 40; 40·18 = 720 > 700 → K 38): 9 wins and 9
    # losses against 2000 from 1943 (D = −57 → .42): Σ(S − P_D) = 9 − 18·.42 = 1.44; 38·1.44 = 54.72 → +55.
    games = [("new", f"r{1 + k % 5}", "1-0" if k % 2 == 0 else "0-1") for k in range(18)]
    j.tournament("t2", "2024-03-10", "2024-03-20").games("2024-03-15", *games, tournament="t2")
    res = run(tmp_path / "a", j, date(2024, 3, 1), ruleset="fide-2024")
    assert (res.standings["new"].rating, res.standings["new"].games) == (1943, 5)
    res = run(tmp_path / "b", j, date(2024, 4, 1), ruleset="fide-2024")
    assert res.standings["new"].rating == 1943 + 55
    tournament = next(e for e in res.history("new") if e.kind == "tournament")
    assert tournament.extra["k"] == 38
    res = run(tmp_path / "c", j, date(2024, 3, 1))
    assert res.standings["new"].rating is None


def test_fide_2024_first_event_without_points_is_ignored(tmp_path):
    j = Journal().rated("2024-01-01", r1=2000, r2=2000, r3=2000).players("new")
    j.tournament("t1", "2024-02-10", "2024-02-10").games(
        "2024-02-10", ("new", "r1", "0-1"), ("new", "r2", "0-1"), ("new", "r3", "0-1"), tournament="t1")
    res = run(tmp_path, j, date(2024, 3, 1), ruleset="fide-2024")
    s = res.standings["new"]
    assert (s.status, s.games) == ("unrated", 0)


def test_history_lines_of_a_list_by_date_with_every_number(tmp_path):
    # The list of 1 May rates two single matches of 28 April (each an event of its own), x and y
    # both 2000 (K 20, as above). D = 0: P_D = .50 (table b). Game 1: ½ − .50 = 0 → 0; game 2:
    # 1 − .50 = .5, ×20 = +10. History by date: both games on 28 April, then both events' lines on
    # the list's day, in the order rated: 2000 → 2000 (0), then 2000 → 2010 (+10).
    j = Journal().rated("2024-01-01", x=2000, y=2000).games("2024-04-28", ("x", "y", "1/2-1/2"), ("x", "y", "1-0"))
    res = run(tmp_path, j, date(2024, 5, 1))
    lines = [(e.date, e.kind, e.result, e.before, e.change, e.after, e.extra.get("expected"))
             for e in res.history("x") if e.kind != "adjust"]
    assert lines == [
        (date(2024, 4, 28), "match", 0.5, 2000, 0.0, 2000.0, 0.5),
        (date(2024, 4, 28), "match", 1.0, 2000, 10.0, 2010.0, 0.5),
        (date(2024, 5, 1), "tournament", 0.5, 2000.0, 0.0, 2000.0, 0.5),
        (date(2024, 5, 1), "tournament", 1.0, 2000.0, 10.0, 2010.0, 0.5),
    ]
    # y's side: 1 − ½ − .50 = 0, then 0 − .50 = −.5 → −10; each game names its opponent and rating.
    assert [(e.change, e.opponent, e.extra["opponent_rating"]) for e in res.history("y") if e.kind == "match"] == [
        (0.0, "x", 2000), (-10.0, "x", 2000)]
    assert res.standings["y"].rating == 1990
