"""A replay read for its standings alone (Engine.run_standings, Ledger.run(standings_only=True): what
`recalc` and the leaderboard run of a list whose replay the cache cannot keep, mfsnb and fide) gives
the standings, and the state kept beside them for the next add-match, of the full replay, on random
federation and fide journals (every ruleset) as of days before, inside and after them; it keeps no
history, and a read of one is refused; and the ledger replays in full for any other read of the list."""
from __future__ import annotations

from datetime import date

import pytest

from nardrating.engines.registry import engine_class
from nardrating.replay.loader import load_club

from .conftest import no_cache
from .test_fide_kept_history import RULESETS
from .test_fide_kept_history import random_club as random_fide_club
from .test_kept_history import random_club

DAYS = (None, date(2020, 3, 31), date(2020, 9, 30), date(2020, 11, 17), date(2021, 6, 30), date(2030, 1, 1))


def typed(standings: dict) -> list[tuple]:
    """Each standing's values with their types (1500 and 1500.0 are equal, but not shown alike)."""
    return [(player, [(v, type(v)) for v in (s.rating, s.games, s.status, s.last_played)],
             sorted((k, v, type(v)) for k, v in s.extra.items())) for player, s in standings.items()]


@pytest.mark.parametrize("seed", [0, 1, 2, 3, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(4, 12))])
def test_the_standings_only_replay_gives_the_full_replays_standings_and_state(tmp_path, seed):
    club = random_club(tmp_path / "club", seed)
    with no_cache():
        ledger = load_club(club / "nardrating.toml")
    rating = ledger.rating("fed")
    engine = engine_class(rating.engine)()
    for discipline in ledger.disciplines(rating):
        for day in DAYS:
            full = ledger.run(rating, discipline, day)
            ledger._runs.clear()
            lean = ledger.run(rating, discipline, day, standings_only=True)
            ledger._runs.clear()
            assert full is not lean and lean.book.lines is False
            assert typed(lean.standings) == typed(full.standings)
            assert engine.standings_state(lean) == engine.standings_state(full)
            assert (lean.hidden_statuses, lean.columns, lean.sections) == \
                (full.hidden_statuses, full.columns, full.sections)
            # (the open period's competitions counted alike: the standings' "pending" asks whether there are any)
            assert {p: len(r.competitions) for p, r in lean.book.records.items()} == \
                {p: len(r.competitions) for p, r in full.book.records.items()}
            with pytest.raises(AssertionError, match="keeps no history"):
                lean.history("p0")
            with pytest.raises(AssertionError, match="keeps no competitions"):
                lean.report(date(2020, 1, 1), date(2020, 12, 31))


FIDE_DAYS = (None, date(2023, 6, 30), date(2024, 1, 1), date(2024, 8, 17), date(2025, 3, 31), date(2030, 1, 1))


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(1, 6))])
def test_the_fide_standings_only_replay_gives_the_full_replays_standings_and_state(tmp_path, seed, ruleset):
    club = random_fide_club(tmp_path / "club", seed, ruleset)
    with no_cache():
        ledger = load_club(club / "nardrating.toml")
    rating = ledger.rating("fide")
    engine = engine_class(rating.engine)()
    discipline = ledger.disciplines(rating)[0]
    for day in FIDE_DAYS:
        full = ledger.run(rating, discipline, day)
        ledger._runs.clear()
        lean = ledger.run(rating, discipline, day, standings_only=True)
        ledger._runs.clear()
        assert full is not lean
        assert typed(lean.standings) == typed(full.standings)
        assert engine.standings_state(lean) == engine.standings_state(full)
        assert (lean.hidden_statuses, lean.columns, lean.sections) == \
            (full.hidden_statuses, full.columns, full.sections)
        with pytest.raises(AssertionError, match="keeps no history"):
            lean.history("p0")
        with pytest.raises(AssertionError, match="keeps no competitions"):
            lean.report(date(2023, 1, 1), date(2025, 12, 31))


def test_the_ledger_replays_in_full_for_any_read_but_the_standings(tmp_path, monkeypatch):
    club = random_club(tmp_path / "club", 3)
    with no_cache():
        ledger = load_club(club / "nardrating.toml")
    rating = ledger.rating("fed")
    discipline = ledger.disciplines(rating)[0]
    engine = engine_class(rating.engine)
    calls: list[str] = []
    for name in ("run", "run_standings"):
        method = getattr(engine, name)
        monkeypatch.setattr(engine, name, lambda self, view, method=method, name=name: calls.append(name) or method(self, view))

    lean = ledger.run(rating, discipline, standings_only=True)
    assert ledger.run(rating, discipline, standings_only=True) is lean   # kept for the standings' reads
    full = ledger.run(rating, discipline)                                 # any other read: replayed in full
    player = next(iter(full.standings))
    assert full is not lean and full.history(player)
    assert ledger.run(rating, discipline, standings_only=True) is full   # a full replay serves the standings too
    assert ledger.run(rating, discipline) is full
    ledger._runs.clear()   # (as recalc frees a list's replay once its standings are kept)
    ledger.run(rating, discipline, standings_only=True)
    assert ledger.run(rating, discipline).history(player) == full.history(player)
    assert calls == ["run_standings", "run", "run_standings", "run"]
