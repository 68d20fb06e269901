"""Explain for the period and place engines (fide, mfsnb, placement): every history event's steps end
in its change, and the steps of the seeds' worked examples carry the seeds' numbers."""
from __future__ import annotations

import shutil
from datetime import date

import pytest

from nardrating.engines.registry import engine_class
from nardrating.replay.loader import load_club
from nardrating.replay.view import build_view

from .conftest import SAMPLES, make_club
from .test_fide_engine import Journal, config, seed_8_3_4

ENGINES = {"fide", "mfsnb", "placement"}
DATA = SAMPLES.parent / "tests" / "data" / "fide"


def explain_everything(ledger) -> dict[str, int]:
    """Explain every history event of every list of these engines; (kind → events explained)."""
    seen: dict[str, int] = {}
    for rating in ledger.config.ratings.values():
        if rating.engine not in ENGINES:
            continue
        engine = engine_class(rating.engine)()
        for discipline in ledger.disciplines(rating):
            result = ledger.run(rating, discipline)
            matches = {e.entry: e for e in build_view(ledger, rating, discipline, None).events()
                       if hasattr(e, "entry")}
            for player in result.standings:
                for event in result.history(player):
                    assert event.kind in engine.explains | {"adjust", "match"}, (rating.engine, event.kind)
                    explained = engine.explain_event(rating.params, result, player, event,
                                                     matches.get(event.entry) if event.kind == "match" else None)
                    assert explained.steps, (player, event)
                    for s in explained.steps:
                        assert set(s) == {"rule", "formula", "value"} and s["rule"] and s["formula"]
                    assert explained.steps[-1]["value"] == event.change, (rating.name, player, event)
                    seen[event.kind] = seen.get(event.kind, 0) + 1
    return seen


@pytest.mark.parametrize("club", ["federation-2009", "fide-club", "nardy-club"])
def test_every_event_of_every_sample_is_explained(club):
    seen = explain_everything(load_club(SAMPLES / club))
    expected = {"federation-2009": {"competition", "list", "adjust", "match"},
                "fide-club": {"tournament", "list", "adjust", "match"},
                "nardy-club": {"tournament", "decay", "match"}}[club]
    assert expected <= set(seen)


@pytest.mark.parametrize("ruleset", ["fide-2024", "fide-2025"])
def test_every_event_under_fide_rulesets(tmp_path, ruleset):
    # The sample under FIDE's rulesets (K by games, the period rounded once), and FIDE's published 2025 events.
    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "fide-club", club)
    text = (club / "nardrating.toml").read_text(encoding="utf-8")
    text = text.replace('ruleset = "seed"', f'ruleset = "{ruleset}"').replace("k = 20\n", "")
    (club / "nardrating.toml").write_text(text, encoding="utf-8")
    assert {"tournament", "list", "match"} <= set(explain_everything(load_club(club)))
    for name in ("us-championship-2025", "senior-2025"):
        journal = (DATA / name / "journal.toml").read_text(encoding="utf-8")
        seen = explain_everything(load_club(make_club(tmp_path / name, journal, config(ruleset=ruleset))))
        assert seen["match"] and seen["list"]


def explain(ledger, player: str, pick):
    rating = next(iter(ledger.config.ratings.values()))
    result = ledger.run(rating, ledger.disciplines(rating)[0])
    event = next(e for e in result.history(player) if pick(e))
    explained = engine_class(rating.engine)().explain_event(rating.params, result, player, event, None)
    return event, explained.inputs, [s["value"] for s in explained.steps]


def test_mfsnb_seed_example():
    # Seed 000, "Пример": rating 2337, nine opponents of mean 2312 (20808/9 in the sample), 6.5 points:
    # D = 25 → the table's row 18–25, 53 %; E = 9 × 0.53 = 4.77; 10 × (6.5 − 4.77) = 17.3 → +17.
    event, inputs, values = explain(load_club(SAMPLES / "federation-2009"), "avakyan",
                                    lambda e: e.kind == "competition")
    assert inputs["rating"] == 2337 and sum(inputs["opponent_ratings"]) == 20808 and inputs["points"] == 6.5
    assert values[:4] == [2312, 25, 0.53, pytest.approx(4.77)]
    assert values[4] == pytest.approx(17.3) and values[5] == 17 == event.change


def test_mfsnb_list_sums_the_period():
    # The list after Q1 2009: 2337 + 17 = 2354 (seed 000: R new = R old + Σ R of the period).
    event, _, values = explain(load_club(SAMPLES / "federation-2009"), "avakyan",
                               lambda e: e.kind == "list" and e.date == date(2009, 3, 31))
    assert (event.before, event.after) == (2337, 2354) and values[-1] == 17


def test_placement_seed_formula(tmp_path):
    # Seed 001: R = 10·log2(N)/M. Eight players, place 2: 10·3/2 = 15; on 1 March R = R/2: 15 → 7.5, −7.5.
    standings = ", ".join(f'{{player = "p{k}", place = {k}}}' for k in range(1, 9))
    journal = ("".join(f'[[player]]\nid = "p{k}"\n\n' for k in range(1, 9))
               + f'[[tournament]]\nid = "cup"\nsystem = "swiss"\nstart = 2024-02-10\nend = 2024-02-11\n'
               f'discipline = "long-nardy"\nstandings = [{standings}]\n\n'
               '[[match]]\ndate = 2024-03-05\nplayers = ["p1", "p2"]\nresult = "1-0"\ndiscipline = "long-nardy"\n')
    conf = ('[club]\njournal = ["journal.toml"]\ndefault_discipline = "long-nardy"\n\n'
            '[rating.places]\nengine = "placement"\n')
    ledger = load_club(make_club(tmp_path, journal, conf))
    event, inputs, values = explain(ledger, "p2", lambda e: e.kind == "tournament")
    assert (inputs["participants"], inputs["place"]) == (8, 2)
    assert values == [3.0, 15.0] and event.change == 15.0
    event, _, values = explain(ledger, "p2", lambda e: e.kind == "decay")
    assert values == [7.5, -7.5] and event.date == date(2024, 3, 1)


def test_fide_seed_first_rating(tmp_path):
    # Seed 002 8.3.4: 12 games, 6½ points, opponents (3·2220 + 5·2150 + 4·2200)/12 = 26210/12 = 2184.17;
    # half a point above 50 %: + 15 (8.2.3) = 2199.17, published as 2199 (8.3.2: 0.5 up); no change: a first rating.
    j = seed_8_3_4()
    ledger = load_club(make_club(tmp_path, j.text(), config()))
    event, inputs, values = explain(ledger, "new", lambda e: e.kind == "list" and e.after is not None)
    assert (inputs["games"], inputs["points"]) == (12, 6.5)
    assert values[0] == pytest.approx(2184.1667, abs=1e-4) and values[1] == pytest.approx(2199.1667, abs=1e-4)
    assert values[2:] == [2199, None] and event.after == 2199


def test_fide_rated_game_by_table_b(tmp_path):
    # Seed 002 table (b): a (2000) beats b (1900): D = 100, row 99–106, P_D = .64 for the higher;
    # ΔR = 1 − .64 = .36; K = 20 (the config): 7.2 for the game; the event's change rounds it to 7.
    j = Journal().rated("2024-01-01", a=2000, b=1900)
    j.tournament("t", "2024-01-10", "2024-01-10").games("2024-01-10", ("a", "b", "1-0"), tournament="t")
    ledger = load_club(make_club(tmp_path, j.text(), config()))
    _, inputs, values = explain(ledger, "a", lambda e: e.kind == "match")
    assert inputs["opponent_rating"] == 1900
    assert values == [100, 0.64, pytest.approx(0.36), 20, pytest.approx(7.2)]
    event, _, values = explain(ledger, "a", lambda e: e.kind == "tournament")
    assert values == [1.0, 0.64, pytest.approx(0.36), 20, pytest.approx(7.2), 7.0] and event.change == 7.0
    _, _, values = explain(ledger, "b", lambda e: e.kind == "tournament")
    assert values[1] == 0.36 and values[-1] == -7.0       # .36 for the lower; −7.2 → −7


def test_fide_single_match_explained_and_reported_as_an_event_of_one_game(tmp_path):
    # The same game outside any tournament (match m001, an event of its own, on the list of 1 February):
    # a (2000) beats b (1900), D = 100, P_D = .64, ΔR = .36, K 20: 7.2, rounded to 7; a's performance
    # is b's rating + dp(100 %) = 1900 + 800 = 2700, b's 2000 − 800 = 1200.
    j = Journal().rated("2024-01-01", a=2000, b=1900).games("2024-01-10", ("a", "b", "1-0"))
    ledger = load_club(make_club(tmp_path, j.text(), config()))
    event, inputs, values = explain(ledger, "a", lambda e: e.kind == "match")
    assert (event.entry, inputs["event"], inputs["opponent_rating"], inputs["score"]) == ("m001", "m001", 1900, 1.0)
    assert values == [100, 0.64, pytest.approx(0.36), 20, pytest.approx(7.2)]
    event, inputs, values = explain(ledger, "a", lambda e: e.kind == "tournament")
    assert (inputs["event"], inputs["games"], inputs["opponent_ratings"]) == ("m001", 1, [1900])
    assert values == [1.0, 0.64, pytest.approx(0.36), 20, pytest.approx(7.2), 7.0] and event.change == 7.0
    result = ledger.run(None, None)
    rows = {r.player: r for r in result.report(date(2024, 2, 1), date(2024, 2, 1))}
    assert [(c["tournament"], c["games"], c["points"], c["expected"], c["k"], c["change"], c["performance"])
            for c in rows["a"].extra["competitions"]] == [("m001", 1, 1.0, 0.64, 20, 7, 2700)]
    assert [(c["expected"], c["change"], c["performance"]) for c in rows["b"].extra["competitions"]] == [
        (0.36, -7, 1200)]
    assert (rows["a"].after, rows["b"].after) == (2007, 1893)


@pytest.mark.parametrize("difference, row", [
    (25, "18–25, stronger: 53 %"),       # seed 000's example, the row it names
    (-25, "18–25, weaker: 47 %"),
    (0, "0–3, stronger: 50 %"),
    (100, "99–106, stronger: 64 %"),     # seed 002 table (b): 99–106, .64 / .36
    (736, "736 and more, stronger: 100 %"),
])
def test_table_rows_as_the_seeds_print_them(difference, row):
    from nardrating.engines.tables import band_of

    assert band_of(difference) == row


@pytest.mark.parametrize("ruleset", ["fide-2024", "fide-2025"])
def test_fide_period_rounded_once_as_fide_published(tmp_path, ruleset):
    # FIDE's published figures (tests/data/fide/senior-2025, as in test_fide_published): FIDE ID 1304070,
    # December 2025 list, K 20. World Seniors 65+, first game: 2023 beats 1709, D = 314 → row 303–315:
    # .86; ΔR = .14; 20 × .14 = 2.80. NMM round 1: 2024 beats 1770, D = 254 → row 246–256: .81;
    # 20 × .19 = 3.80 (FIDE: 3.80). §8.3.4: −51.20 − 4.20 + 3.80 = −51.60, rounded once → −52 (1972).
    journal = (DATA / "senior-2025" / "journal.toml").read_text(encoding="utf-8")
    ledger = load_club(make_club(tmp_path, journal, config(ruleset=ruleset)))
    rating = next(iter(ledger.config.ratings.values()))
    result = ledger.run(rating, "chess", date(2025, 12, 1))
    engine = engine_class("fide")()
    history = result.history("p1304070")

    def values(event):
        return [s["value"] for s in engine.explain_event(rating.params, result, "p1304070", event, None).steps]

    first_game = next(e for e in history if e.kind == "match" and e.rated and e.extra["opponent_rating"] == 1709)
    assert values(first_game) == [314, 0.86, pytest.approx(0.14), 20, pytest.approx(2.8)]
    nmm = next(e for e in history if e.kind == "tournament" and e.extra["event"] == "nmm-1")
    assert values(nmm) == [1.0, 0.81, pytest.approx(0.19), 20, pytest.approx(3.8)]
    period = next(e for e in history if e.kind == "list" and (e.reason or "").startswith("rating period"))
    assert values(period) == [pytest.approx(-51.6), -52.0] and (period.before, period.after) == (2024, 1972)
