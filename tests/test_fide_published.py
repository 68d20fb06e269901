"""Real events against FIDE's published figures (journals in tests/data/fide, sources in each).

The figures asserted here are FIDE's own: each player's K × ΣΔR for the event as FIDE's
calculation pages print it, and the ratings of FIDE's next standard list.
"""
from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from nardrating.replay.loader import load_club
from tests.conftest import make_club
from tests.test_fide_engine import config

DATA = Path(__file__).parent / "data" / "fide"

# FIDE ID: (October 2025 list, FIDE's K × ΣΔR for the event, November 2025 list).
US_CHAMPIONSHIP_2025 = {
    "p2020009": (2789, 8.30, 2795), "p5202213": (2756, 8.40, 2764), "p2093596": (2738, -8.80, 2729),
    "p13300474": (2722, 3.90, 2728), "p2056437": (2710, -9.20, 2701), "p2040506": (2698, 2.80, 2701),
    "p2023970": (2664, -6.60, 2657), "p24125890": (2661, -1.30, 2660), "p2004887": (2654, -5.10, 2649),
    "p30920019": (2652, -9.80, 2642), "p30953499": (2590, 15.30, 2605), "p1126881": (2577, 2.10, 2579),
}
# These two also played the 2025 Grand Chess Tour Finals in the period (not in the journal).
OTHER_EVENT_IN_PERIOD = {"p2020009", "p13300474"}


def replay(tmp_path, name: str, ruleset: str, as_of: date):
    journal = (DATA / name / "journal.toml").read_text(encoding="utf-8")
    ledger = load_club(make_club(tmp_path, journal, config(ruleset=ruleset)))
    return ledger.run(None, None, as_of)


@pytest.mark.parametrize("ruleset", ["fide-2024", "fide-2025"])
def test_us_championship_2025(tmp_path, ruleset):
    # A round robin of twelve players rated 2577-2789, all K 10 on the October 2025 list; the largest
    # difference is 212, so neither the 400-point rule nor its 2650 exemption is at play.
    # One game by hand: round 1, 2020009 (2789) beats 24125890 (2661): D = 128 → row 122-129: .67;
    # 10·(1 − .67) = 3.30, FIDE's page prints 3.30 (and −3.30 for the loser).
    res = replay(tmp_path, "us-championship-2025", ruleset, date(2025, 11, 1))
    rows = {r.player: r for r in res.report(date(2025, 11, 1), date(2025, 11, 1))}
    for player, (october, fide_k_change, november) in US_CHAMPIONSHIP_2025.items():
        [event] = rows[player].extra["competitions"]
        assert (event["rating"], event["games"], event["k"]) == (october, 11, 10), player
        assert event["change"] == fide_k_change, player           # to the cent, as FIDE prints it
        if player not in OTHER_EVENT_IN_PERIOD:
            # The period holds this event only: FIDE's list is the October rating plus the change
            # rounded once (§8.3.4), e.g. 2590 + 15.30 → 2605.
            assert res.standings[player].rating == november, player
    # The other two: FIDE's list adds the Grand Chess Tour Finals (FIDE's page: −2.60 and +2.40)
    # before rounding the period once: 2789 + 8.30 − 2.60 = 2794.70 → 2795 and 2722 + 3.90 + 2.40 =
    # 2728.30 → 2728, the published lists; rounding per event would give 2789 + 8 − 3 = 2794.
    # Without that event in the journal the replay gives 2789 + 8.30 → 2797 and 2722 + 3.90 → 2726.
    assert (res.standings["p2020009"].rating, res.standings["p13300474"].rating) == (2797, 2726)


@pytest.mark.parametrize("ruleset", ["fide-2024", "fide-2025"])
def test_three_events_in_one_period_are_rounded_once(tmp_path, ruleset):
    # FIDE ID 1304070, rating period of the December 2025 list, K 20 (ratings 2023 / 2024, under 2650):
    # - World Seniors 65+ (21 Oct - 1 Nov) began under the October list: played at 2023.
    #   First game by hand: 2023 beats 1709, D = 314 → row 303-315: .86; 20·(1 − .86) = 2.80.
    #   FIDE: ΣΔR −2.56, K × ΣΔR = −51.20.
    # - SGM round 1-2 (1-22 Nov), under the November list: 2024 draws 1864, D = 160 → .71:
    #   20·(.5 − .71) = −4.20 (FIDE: −4.20).
    # - NMM round 1 (17-21 Nov): 2024 beats 1770, D = 254 → .81: 20·(1 − .81) = 3.80 (FIDE: 3.80).
    # §8.3.4: −51.20 − 4.20 + 3.80 = −51.60 → −52; 2024 − 52 = 1972, FIDE's December 2025 list.
    # (Each event rounded alone: −51 − 4 + 4 = −51 → 1973, which FIDE did not publish.)
    res = replay(tmp_path, "senior-2025", ruleset, date(2025, 12, 1))
    assert res.standings["p1304070"].rating == 1972
    [row] = [r for r in res.report(date(2025, 12, 1), date(2025, 12, 1)) if r.player == "p1304070"]
    assert [(c["tournament"], c["rating"], c["change"]) for c in row.extra["competitions"]] == \
        [("wsenior-65", 2023, -51.2), ("nmm-1", 2024, 3.8), ("sgm-1-2", 2024, -4.2)]   # by end date
    assert row.extra["rounding"] == ["2025-12-01: -51.60 → -52 (§8.3.4)"]
    assert (row.before, row.change, row.after, row.games) == (2024, -52, 1972, 13)
