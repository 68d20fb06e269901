"""The fide-2024 and fide-2025 rulesets: FIDE Rating Regulations effective from 1 March 2024
(FIDE Handbook B.02) and the amendment of §8.3.1 effective from 1 October 2025.

Each number is the regulation's own example or worked by hand in the comments, from table 8.1.2
(D → P_D) and table 8.1.1 (p → dp).
"""
from __future__ import annotations

from datetime import date

import pytest

from tests.test_fide_engine import Journal, run

FIDE = ("fide-2024", "fide-2025")


class FideJournal(Journal):
    def imported(self, day, player, rating, **fields):
        """A player brought in from a FIDE list, with the list's K and games when given."""
        self.players(player)
        extra = "".join(f"{key} = {value}\n" for key, value in fields.items())
        self.parts.append(f'[[adjust]]\ndate = {day}\nplayer = "{player}"\nset = {rating}\n{extra}'
                          'reason = "FIDE list"\n')
        return self


def three_draws_in_january() -> Journal:
    # Three single games (three events), each reaching the list of 1 February.
    j = Journal().rated("2024-01-01", high=2000, low=1990)
    for day in ("2024-01-10", "2024-01-17", "2024-01-24"):
        j.games(day, ("high", "low", "1/2-1/2"))
    return j


@pytest.mark.parametrize("ruleset", FIDE)
def test_the_rating_period_is_rounded_once(tmp_path, ruleset):
    # §8.3.4: "The Rating Change for a Rating Period is rounded to the nearest whole number."
    # D = 2000 − 1990 = 10 → table 8.1.2 row 4-10: P_D .51 for the higher, .49 for the lower.
    # Imported ratings are established, under 2400: K = 20 (§8.3.3).
    # Each game: 20 · (0.5 − 0.51) = −0.2 for the higher, 20 · (0.5 − 0.49) = +0.2 for the lower.
    # The period: 3 · −0.2 = −0.6 → −1 → 1999; 3 · +0.2 = +0.6 → +1 → 1991.
    res = run(tmp_path, three_draws_in_january(), date(2024, 2, 1), ruleset=ruleset)
    assert (res.standings["high"].rating, res.standings["low"].rating) == (1999, 1991)
    rounding = [e for e in res.history("high") if e.kind == "list"]
    assert rounding[-1].reason == "rating period: -0.60 rounded to -1 (§8.3.4)"
    row = next(r for r in res.report(date(2024, 2, 1), date(2024, 2, 1)) if r.player == "high")
    assert [c["change"] for c in row.extra["competitions"]] == [-0.2, -0.2, -0.2]
    assert row.extra["rounding"] == ["2024-02-01: -0.60 → -1 (§8.3.4)"]
    assert (row.before, row.change, row.after) == (2000, -1, 1999)


def test_the_seed_rounds_each_event(tmp_path):
    # Seed 002 (k = 20): each event's −0.2 rounds to 0 on its own: 2000 and 1990 stay.
    res = run(tmp_path, three_draws_in_january(), date(2024, 2, 1))
    assert (res.standings["high"].rating, res.standings["low"].rating) == (2000, 1990)


def six_games_against_1800(system: str | None) -> Journal:
    j = Journal().rated("2024-01-01", strong=1800).players("new")
    results = ("1-0", "1-0", "0-1", "1/2-1/2", "1-0", "0-1")     # 3½ of 6
    if system is not None:
        j.tournament("duel", "2024-02-05", "2024-02-10", system=system)
    return j.games("2024-02-05", *[("new", "strong", r) for r in results],
                   tournament="duel" if system else None)


@pytest.mark.parametrize("ruleset", FIDE)
def test_a_match_against_an_unrated_player_is_not_rated(tmp_path, ruleset):
    # §6.1: "Matches in which one player is unrated shall not be rated."
    # Rated as a pool it would give Ra = (6·1800 + 2·1800)/8 = 1800, p = (3½ + 1)/8 = .5625 → .56 →
    # dp +43 → 1843 (the number the issue saw). Not rated: new stays unrated, strong keeps 1800.
    res = run(tmp_path, six_games_against_1800("match"), date(2024, 3, 1), ruleset=ruleset)
    assert (res.standings["new"].rating, res.standings["new"].status) == (None, "unrated")
    assert res.standings["strong"].rating == 1800
    row = next(r for r in res.report(date(2024, 3, 1), date(2024, 3, 1)) if r.player == "new")
    assert row.extra["ignored"] == ["duel: a match in which one player is unrated is not rated (§6.1)"]


def test_a_two_player_event_is_a_match_too(tmp_path):
    # Any event of two players counts as a match, also a "swiss" tournament or games outside one.
    res = run(tmp_path / "a", six_games_against_1800("swiss"), date(2024, 3, 1), ruleset="fide-2024")
    assert res.standings["new"].status == "unrated"
    res = run(tmp_path / "b", six_games_against_1800(None), date(2024, 3, 1), ruleset="fide-2024")
    assert res.standings["new"].status == "unrated"


def five_games_in_two_months() -> Journal:
    j = Journal().rated("2024-01-01", a1=1600, a2=1600, a3=1600).players("new")
    # January: 1½ of 3 (→ list of 1 February); February: 1 of 2 (→ list of 1 March).
    j.tournament("jan", "2024-01-13", "2024-01-14").games(
        "2024-01-13", ("new", "a1", "1-0"), ("new", "a2", "0-1"), ("new", "a3", "1/2-1/2"), tournament="jan")
    j.tournament("feb", "2024-02-10", "2024-02-11").games(
        "2024-02-10", ("new", "a1", "1-0"), ("new", "a2", "0-1"), tournament="feb")
    return j


@pytest.mark.parametrize("ruleset", FIDE)
def test_five_games_in_total_across_events(tmp_path, ruleset):
    # §7.1.4: a first rating "based on at least 5 games against rated opponents. This need not be
    # met in one tournament." No event needs 3 games of its own.
    # 1 February: 3 games < 5, nothing published; the pool gives Ra = (3·1600 + 2·1800)/5 = 1680,
    # p = (1½ + 1)/5 = .50 → dp 0 → 1680.
    s = run(tmp_path / "a", five_games_in_two_months(), date(2024, 2, 1), ruleset=ruleset).standings["new"]
    assert (s.rating, s.status, s.extra["pool_games"], s.extra["pool_rating"]) == (None, "provisional", 3, 1680)
    # 1 March: 2½ of 5 against 1600, with the two hypothetical 1800 draws of §8.2.2:
    # Ra = (5·1600 + 2·1800)/7 = 11600/7 = 1657.14; p = (2½ + 1)/7 = .50 → dp 0 (§8.2.3):
    # 1657.14 → 1657, at least 1400 (§7.1.4): published.
    s = run(tmp_path / "b", five_games_in_two_months(), date(2024, 3, 1), ruleset=ruleset).standings["new"]
    assert (s.rating, s.status, s.games) == (1657, "rated", 5)


def test_the_seed_still_needs_three_games_per_event(tmp_path):
    # Seed 002 8.2: February's 2 games are ignored; 3 games < 9: nothing published.
    s = run(tmp_path, five_games_in_two_months(), date(2024, 3, 1)).standings["new"]
    assert (s.rating, s.extra["pool_games"]) == (None, 3)


def test_an_event_without_rated_opponents_adds_nothing(tmp_path):
    j = Journal().players("u1", "u2", "u3")
    j.tournament("t", "2024-01-13", "2024-01-14").games(
        "2024-01-13", ("u1", "u2", "1-0"), ("u1", "u3", "1-0"), ("u2", "u3", "1-0"), tournament="t")
    res = run(tmp_path, j, date(2024, 2, 1), ruleset="fide-2024")
    row = next(r for r in res.report(date(2024, 2, 1), date(2024, 2, 1)) if r.player == "u1")
    assert row.extra["ignored"] == ["t: no game against a rated opponent (§7.1.4)"]


def k_journal(**fields) -> Journal:
    # x (2000, with the list's k/games) beats y (2000) in January, and y again in February.
    j = FideJournal().imported("2024-01-01", "x", 2000, **fields).rated("2024-01-01", y=2000)
    return j.games("2024-01-10", ("x", "y", "1-0")).games("2024-02-10", ("x", "y", "1-0"))


def test_k_40_carried_from_the_list_until_30_games(tmp_path):
    # §8.3.3: "K = 40 for a player new to the rating list until they have completed events with
    # at least 30 games". The list gave k = 40 after 29 games.
    # January: D = 0 → .50; K 40: 40·(1 − .50) = +20 → 2020; now 30 games.
    # February: x 2020 − y 1990 = 30 → .54; K 20: 20·(1 − .54) = 9.2 → +9 → 2029.
    res = run(tmp_path / "a", k_journal(k=40, games=29), date(2024, 3, 1), ruleset="fide-2024")
    assert res.standings["x"].rating == 2029
    ks = [(e.extra["k"], e.extra["k_rule"]) for e in res.history("x") if e.kind == "tournament"]
    assert ks == [(40, "40: 29 rated games, fewer than 30 (§8.3.3)"),
                  (20, "20: 30 rated games, never published at 2400 (§8.3.3)")]
    # Without k or games the import counts as established: K 20 from the start.
    # January +10 → 2010; February D = 2010 − 1990 = 20 → .53: 20·.47 = 9.4 → +9 → 2019.
    res = run(tmp_path / "b", k_journal(), date(2024, 3, 1), ruleset="fide-2024")
    assert res.standings["x"].rating == 2019
    # games alone decides too: 12 games < 30 → K 40 in both months: +20 → 2020, then
    # 40·(1 − .54) = 18.4 → +18 → 2038.
    res = run(tmp_path / "c", k_journal(games=12), date(2024, 3, 1), ruleset="fide-2024")
    assert res.standings["x"].rating == 2038


def test_k_10_and_20_from_the_list(tmp_path):
    # k = 10: a published rating once reached 2400, even if now 2000: 10·.5 = +5 → 2005.
    res = run(tmp_path / "a", k_journal(k=10), date(2024, 2, 1), ruleset="fide-2024")
    assert res.standings["x"].rating == 2005
    # k = 20 with few games listed still counts as established: 20·.5 = +10 → 2010.
    res = run(tmp_path / "b", k_journal(k=20, games=3), date(2024, 2, 1), ruleset="fide-2024")
    assert res.standings["x"].rating == 2010


def test_listed_k_40_after_30_games_is_the_junior_k(tmp_path):
    # §8.3.3: "K = 40 for all players until the end of the year of their 18th birthday, as long as
    # their rating remains under 2300." A list's K 40 after 30 games can only be that rule: kept
    # (the journal has no birthdays) while under 2300. January +20 → 2020; February 40·.46 = 18.4 → 2038.
    res = run(tmp_path, k_journal(k=40, games=120), date(2024, 3, 1), ruleset="fide-2024")
    assert res.standings["x"].rating == 2038


def test_k_times_games_cap_is_explained(tmp_path):
    # §8.3.3: K·n ≤ 700. k = 40, 18 games on one list: 40·18 = 720 > 700 → K = 38 (38·18 = 684).
    j = FideJournal().imported("2024-01-01", "x", 2000, k=40, games=0).rated("2024-01-01", y=2000, z=2000)
    j.tournament("t", "2024-01-10", "2024-01-12").games(
        "2024-01-10", *[("x", "y" if n % 2 else "z", "1/2-1/2") for n in range(18)], tournament="t")
    res = run(tmp_path, j, date(2024, 2, 1), ruleset="fide-2024")
    row = next(r for r in res.report(date(2024, 2, 1), date(2024, 2, 1)) if r.player == "x")
    [competition] = row.extra["competitions"]
    assert competition["k"] == 38
    assert competition["k_rule"] == ("40: 0 rated games, fewer than 30 (§8.3.3); K × n = 40 × 18 = 720 > 700, "
                                     "so K = 38 (684 ≤ 700, §8.3.3)")


def top_player_beats_2200(day: str) -> Journal:
    j = Journal().rated("2025-01-01", top=2700, club=2200)
    return j.games(day, ("top", "club", "1-0"))


def test_fide_2025_uses_the_real_difference_from_2650(tmp_path):
    # §8.3.1 as amended from 1 October 2025: "A difference in rating of more than 400 points shall be
    # counted ... as ... 400 points for players rated below 2650. For players rated 2650 and above,
    # the difference between ratings shall be used in all cases."
    # 2700 (K 10: imported at 2400 or more) beats 2200 on 10 October 2025, D = 500:
    # fide-2024: D counts as 400 → .92: 10·(1 − .92) = 0.8 → +1 → 2701.
    # fide-2025: D = 500 → row 485-517: .96: 10·(1 − .96) = 0.4 → 0 → 2700.
    # The 2200 player is below 2650 in both: D = −400 → .08: 20·(0 − .08) = −1.6 → −2 → 2198.
    res = run(tmp_path / "a", top_player_beats_2200("2025-10-10"), date(2025, 11, 1), ruleset="fide-2024")
    assert (res.standings["top"].rating, res.standings["club"].rating) == (2701, 2198)
    res = run(tmp_path / "b", top_player_beats_2200("2025-10-10"), date(2025, 11, 1), ruleset="fide-2025")
    assert (res.standings["top"].rating, res.standings["club"].rating) == (2700, 2198)
    row = next(r for r in res.report(date(2025, 11, 1), date(2025, 11, 1)) if r.player == "top")
    assert row.extra["competitions"][0]["d_rule"] == \
        "1 game over 400 apart at the real difference, rated 2650 or more (§8.3.1 from 1 October 2025)"
    row = next(r for r in res.report(date(2025, 11, 1), date(2025, 11, 1)) if r.player == "club")
    assert row.extra["competitions"][0]["d_rule"] == "1 game over 400 apart counted as 400 (§8.3.1)"
    # Before 1 October 2025 the cap still holds under fide-2025: +1 → 2701.
    res = run(tmp_path / "c", top_player_beats_2200("2025-09-10"), date(2025, 10, 1), ruleset="fide-2025")
    assert res.standings["top"].rating == 2701


def test_fide_2025_below_2650_keeps_the_cap(tmp_path):
    # 2649 beats 2149 (D = 500) in November 2025: below 2650, D counts as 400 → .92: 10·.08 = 0.8 → +1.
    j = Journal().rated("2025-01-01", top=2649, club=2149).games("2025-11-10", ("top", "club", "1-0"))
    res = run(tmp_path, j, date(2025, 12, 1), ruleset="fide-2025")
    assert res.standings["top"].rating == 2650


def test_report_details_show_k_and_why(tmp_path):
    # The same 18 draws as above through the command line: --details prints K 38 and its reason.
    import json

    from typer.testing import CliRunner

    from nardrating.cli import app
    from tests.conftest import make_club
    from tests.test_fide_engine import config

    j = FideJournal().imported("2024-01-01", "x", 2000, k=40, games=0).rated("2024-01-01", y=2000, z=2000)
    j.tournament("t", "2024-01-10", "2024-01-12").games(
        "2024-01-10", *[("x", "y" if n % 2 else "z", "1/2-1/2") for n in range(18)], tournament="t")
    club = str(make_club(tmp_path, j.text(), config(ruleset="fide-2024")))
    runner = CliRunner()
    result = runner.invoke(app, ["report", "--club", club, "--period", "2024-02", "--player", "x", "--details"],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "K rule" in result.output and "so K = 38 (684 ≤ 700, §8.3.3)" in result.output
    result = runner.invoke(app, ["report", "--club", club, "--period", "2024-02", "--format", "json"])
    [row] = [r for r in json.loads(result.output)["rows"] if r["player"] == "x"]
    # 18 draws between equals: ΣΔR = 0, so the period's change is 0.00 → 0.
    assert row["rounding"] == ["2024-02-01: +0.00 → +0 (§8.3.4)"]
    assert row["competitions"][0]["k"] == 38


def test_k_in_an_adjustment_is_refused_for_an_elo_list(tmp_path):
    from typer.testing import CliRunner

    from nardrating.cli import app
    from tests.conftest import make_club

    journal = '[[player]]\nid = "a"\n\n[[adjust]]\ndate = 2024-01-01\nplayer = "a"\nset = 1500\nk = 40\n'
    club = str(make_club(tmp_path, journal))          # the default config: one elo list
    result = CliRunner().invoke(app, ["check", "--club", club], env={"COLUMNS": "200"})
    assert result.exit_code == 1
    assert "k is not used by rating list" in result.output


def test_a_match_begun_while_unrated_stays_unrated_after_publication(tmp_path):
    # t1 (ends 21 January → list of 1 February): 4½ of 9 against three 2000s. §8.2.2:
    # Ra = (9·2000 + 2·1800)/11 = 21600/11 = 1963.64, p = 5½/11 = .50 → dp 0 → 1964, published.
    # The match began on 27 January, while new was unrated: §6.1 leaves it unrated for both, even
    # though new is published before it is rated (§8.2.4 would otherwise rate new's win at K 40:
    # D = −36 → .45, 40·.55 = +22).
    j = Journal().rated("2024-01-01", r1=2000, r2=2000, r3=2000).players("new")
    j.tournament("t1", "2024-01-20", "2024-01-21").games(
        "2024-01-20", *[("new", r, res) for r in ("r1", "r2", "r3") for res in ("1-0", "0-1", "1/2-1/2")],
        tournament="t1")
    j.tournament("m", "2024-01-27", "2024-02-03", system="match").games(
        "2024-02-03", ("new", "r1", "1-0"), tournament="m")
    res = run(tmp_path, j, date(2024, 3, 1), ruleset="fide-2024")
    assert (res.standings["new"].rating, res.standings["r1"].rating) == (1964, 2000)
