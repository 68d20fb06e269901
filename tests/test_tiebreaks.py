"""FIDE tie-breaks (C.07, 2023): Mario Held's published exercise answers, and examples worked by hand."""
import pytest

from nardrating.tournaments.model import ABSENT, HALF_POINT, PAIRING_ALLOCATED, Board, Bye, Entrant, Round, Tournament
from nardrating.tournaments.standings import crosstable, standings
from nardrating.tournaments.tiebreaks import Scorer, default_order

from .conftest import ROOT
from .tournament_support import trf_state

DATA = ROOT / "tests" / "data" / "tiebreaks"  # sources: tests/data/tiebreaks/SOURCES.md
SWISS_5 = trf_state((DATA / "held_swiss_5.trf").read_text(encoding="utf-8"))
SWISS_9 = trf_state((DATA / "held_swiss_9.trf").read_text(encoding="utf-8"))
ROUND_ROBIN = trf_state((DATA / "held_round_robin.trf").read_text(encoding="utf-8"), pairing="berger")

# Held's answers for the 5-round Swiss (exercises 1-8, 11-12, 17, 27, 29, 32), by start number.
HELD_SWISS_5 = {
    "buchholz": {1: 12.5, 2: 13.0, 3: 15.5, 4: 15.0, 5: 8.5, 6: 12.0, 7: 14.5, 8: 13.5, 9: 9.0, 10: 13.0,
                 11: 13.5, 12: 11.5, 13: 14.0, 14: 11.0, 15: 12.0, 16: 12.5},
    "buchholz-cut1": {1: 11.0, 2: 12.0, 3: 13.0, 4: 11.5, 5: 7.5, 6: 11.0, 7: 12.5, 8: 12.0, 9: 7.5, 10: 11.5,
                      11: 12.0, 12: 9.5, 13: 12.0, 14: 9.0, 15: 11.0, 16: 11.0},
    "sonneborn-berger": {1: 8.0, 2: 9.5, 3: 10.5, 4: 9.75, 5: 4.25, 6: 6.5, 7: 3.25, 8: 5.25, 9: 2.25, 10: 1.5,
                         11: 5.75, 12: 4.0, 13: 4.25, 14: 4.5, 15: 3.5, 16: 7.25},
    "aro": {1: 1820, 2: 1880, 3: 1940, 4: 1888, 5: 1690, 6: 1813, 7: 1760, 8: 1730, 9: 1975, 10: 1880, 11: 1863,
            12: 2050, 13: 1930, 14: 1800, 15: 1860, 16: 1820},
    "wins": {1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 3, 7: 1, 8: 2, 9: 1, 10: 1, 11: 2, 12: 2, 13: 1, 14: 2, 15: 2, 16: 3},
    "black-games": {1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3, 8: 2, 9: 1, 10: 3, 11: 2, 12: 0, 13: 3, 14: 2,
                    15: 3, 16: 2},
    "progressive": {1: 11.0, 2: 13.0, 3: 11.0, 4: 11.5, 5: 5.0, 6: 6.0, 7: 6.0, 8: 8.5, 9: 2.5, 10: 4.0, 11: 5.5,
                    12: 7.0, 13: 7.0, 14: 6.0, 15: 7.0, 16: 10.5},
}


@pytest.mark.parametrize("name", sorted(HELD_SWISS_5))
def test_held_swiss_exercises(name):
    scorer = Scorer(SWISS_5)
    assert {k: scorer.value(name, f"p{k}") for k in HELD_SWISS_5[name]} == HELD_SWISS_5[name]


def test_the_held_cases_that_turn_on_article_16():
    # Worked by hand from the crosstable, as Held explains them:
    # - David (4) had a half-point bye in round 2; his opponent Nick (12) had a bye, a forfeit win and
    #   then zero-point byes to the end, so Nick counts 2 + ½ + ½ = 3 for others (Art. 16.3: the VURs
    #   after his last round that was not one are draws), and David's own bye counts his own 3½
    #   (Art. 16.4): Buchholz 3 + 3½ + 1½ (Opal) + 3½ + 3½ = 15; Cut-1 cuts the VUR first (3½, not
    #   Opal's 1½): 11½ (Art. 14.6).
    scorer = Scorer(SWISS_5)
    assert scorer.adjusted["p12"] == 3.0 and scorer.points["p12"] == 2.0
    assert (scorer.value("buchholz", "p4"), scorer.value("buchholz-cut1", "p4")) == (15.0, 11.5)
    # - Jessica (9): ½-bye (VUR), forfeit loss (VUR), pairing-allocated bye (no VUR): 3½ + 1 + 3 × 1½ = 9;
    #   Cut-1 drops a VUR's 1½, not Lais's 1: 7½. Her Sonneborn-Berger: ½ × 1½ + 0 + 1 × 1½ = 2¼.
    assert (scorer.value("buchholz-cut1", "p9"), scorer.value("sonneborn-berger", "p9")) == (7.5, 2.25)
    # - Nick's ARO is David's 2050 alone: the forfeit win is no game (Art. 10.1).
    assert scorer.value("aro", "p12") == 2050


def test_held_round_robin_exercises():
    # Exercises 14 and 16: with pre-determined pairings Helene's forfeit win over Franck counts as a
    # game against him (1 × 1½), so her Sonneborn-Berger is ½ × 1½ (David) + 1½ = 2¼; Koya counts the
    # points against the three players on 3½ of a possible 5 (≥ 50 %).
    scorer = Scorer(ROUND_ROBIN)
    assert {k: scorer.value("sonneborn-berger", f"p{k}") for k in range(1, 7)} == {
        1: 9.25, 2: 6.25, 3: 6.25, 4: 4.25, 5: 3.25, 6: 2.25}
    assert {k: scorer.value("koya", f"p{k}") for k in range(1, 7)} == {1: 2.0, 2: 0.5, 3: 0.5, 4: 1.0, 5: 0.5, 6: 0.0}


def ranks(state, order):
    return {int(s.entrant.player[1:]): s.rank for s in standings(state, order)}


def test_held_direct_encounter_exercises():
    # Exercise 26 (round-robin): 1, 2, 3 on 3½: Alyx beat both (2), Bruno-Charline drawn: ranks 1, 2, 2;
    # 4, 5, 6 on 1½: Helene ½ (David) + 1 (forfeit over Franck), Franck 1 + 0, David ½ + 0: 6, 5, 4.
    assert ranks(ROUND_ROBIN, ["direct-encounter"]) == {1: 1, 2: 2, 3: 2, 4: 6, 5: 5, 6: 4}
    # Exercises 23-24 (Swiss, not all have met): nobody's lead in the encounters is out of reach.
    five = ranks(SWISS_5, ["direct-encounter"])
    assert {k: five[k] for k in (1, 3, 4, 16, 5, 8, 11)} == {1: 2, 3: 2, 4: 2, 16: 2, 5: 7, 8: 7, 11: 7}
    # Exercise 25 (9 rounds): the four on 6 have all met: Franck 2, Alyx and David 1½, Bruno 1.
    assert ranks(SWISS_9, ["direct-encounter"]) == {1: 3, 2: 5, 3: 1, 4: 3, 5: 9, 6: 2, 7: 6, 8: 6, 9: 14, 10: 9,
                                                     11: 13, 12: 14, 13: 16, 14: 9, 15: 9, 16: 6}


def small() -> Tournament:
    """Four players, three rounds, worked by hand below (a = 1 … d = 4):
    round 1: a-b 1-0, c-d ½-½      round 2: d-a 0-1, b-c ½-½      round 3: a-c ½-½, b has a
    pairing-allocated bye, d a half-point bye (d is absent: no board)."""
    entrants = tuple(Entrant(k, p, p.upper(), 2000 - 100 * k) for k, p in enumerate("abcd", start=1))
    rounds = (Round(1, (Board(1, "a", "b", "1-0"), Board(2, "c", "d", "1/2-1/2"))),
              Round(2, (Board(1, "d", "a", "0-1"), Board(2, "b", "c", "1/2-1/2"))),
              Round(3, (Board(1, "a", "c", "1/2-1/2"),), (Bye("b", PAIRING_ALLOCATED), Bye("d", HALF_POINT))))
    return Tournament("s", pairing="dutch", rounds_planned=3, entrants=entrants, rounds=rounds)


def test_tiebreaks_worked_by_hand():
    # Points: a 1 + 1 + ½ = 2½; b 0 + ½ + 1 = 1½; c ½ + ½ + ½ = 1½; d ½ + 0 + ½ = 1.
    # d's round-3 half-point bye is its last round, a VUR after its last non-VUR round (2), so for the
    # others d counts ½ + 0 + ½ (draw) = 1 — the same here.
    s = Scorer(small())
    assert s.points == {"a": 2.5, "b": 1.5, "c": 1.5, "d": 1.0}
    # Buchholz of a: b 1½ + d 1 + c 1½ = 4; of b: a 2½ + c 1½ + own 1½ (the bye's dummy) = 5½.
    assert (s.value("buchholz", "a"), s.value("buchholz", "b")) == (4.0, 5.5)
    # Median of b drops the lowest (1½) and the highest (2½): 1½. Cut-1 of d (c 1½, a 2½, own 1 for
    # the ½-bye, a VUR, cut first): 4.
    assert s.value("median-buchholz", "b") == 1.5 and s.value("buchholz-cut1", "d") == 4.0
    # Sonneborn-Berger of c: ½ × 1 (d) + ½ × 1½ (b) + ½ × 2½ (a) = 2½.
    assert s.value("sonneborn-berger", "c") == 2.5
    # Progressive of b: 0, ½, 1½ → 2; wins of b: the bye's point only → 1; black games of a: round 2 → 1.
    assert (s.value("progressive", "b"), s.value("wins", "b"), s.value("black-games", "a")) == (2.0, 1, 1)
    # ARO of c: d 1600, b 1800, a 1900 → 5300 / 3 = 1766.67 → 1767; of a: 1800, 1600, 1700 = 1700.
    assert (s.value("aro", "c"), s.value("aro", "a")) == (1767, 1700)
    # Koya of c: opponents with at least 1½ of 3: b and a → ½ + ½ = 1.
    assert s.value("koya", "c") == 1.0


def test_standings_rank_by_points_then_each_tiebreak_and_share_what_stays_tied():
    rows = standings(small(), ["buchholz"])
    # b and c both 1½: b's Buchholz 5½ beats c's (d 1 + b 1½ + a 2½ = 5).
    assert [(r.rank, r.entrant.player, r.points, r.tiebreaks) for r in rows] == [
        (1, "a", 2.5, {"buchholz": 4.0}), (2, "b", 1.5, {"buchholz": 5.5}), (3, "c", 1.5, {"buchholz": 5.0}),
        (4, "d", 1.0, {"buchholz": 5.0})]  # d: c 1½ + a 2½ + own 1 for the ½-bye
    assert [r.rank for r in standings(small(), ["wins"])] == [1, 2, 3, 4]       # b 1 win, c none
    # c played black twice (rounds 2, 3), b once: c first; with no tie-break b and c share 2nd place.
    assert [r.entrant.player for r in standings(small(), ["black-games"])] == ["a", "c", "b", "d"]
    assert [r.rank for r in standings(small(), [])] == [1, 2, 2, 4]


def test_default_orders_and_after_round():
    assert default_order(small()) == ("buchholz-cut1", "buchholz", "sonneborn-berger")
    assert default_order(ROUND_ROBIN) == ("sonneborn-berger", "direct-encounter", "wins")
    first = standings(small().upto(1), ["buchholz"])
    assert [(r.entrant.player, r.points) for r in first] == [("a", 1.0), ("c", 0.5), ("d", 0.5), ("b", 0.0)]


def test_crosstable_rows_are_the_standings_with_each_round():
    rows = crosstable(small(), ["buchholz"])
    b = rows[1]
    assert b.standing.entrant.player == "b"
    assert [(c.opponent, c.colour, c.kind, c.points) for c in b.cells] == [
        ("a", "b", "game", 0.0), ("c", "w", "game", 0.5), (None, None, PAIRING_ALLOCATED, 1.0)]
    absent = Tournament("x", entrants=(Entrant(1, "a", "A"),), rounds=(Round(1, (), (Bye("a", ABSENT),)),))
    assert absent.cells()["a"][0].voluntary
