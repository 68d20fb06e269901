"""A Glicko result's states (what `predict` reads) are made when asked for, one player at a time:
each equals the player's standing (rating, RD = φ·scale as of the list's date, volatility, games,
last game), for every player of random chess clubs, and an unknown id is not there."""
from __future__ import annotations

import pytest

from nardrating.replay.loader import load_club

from .test_fast_path import random_chess_club


@pytest.mark.parametrize("seed", range(3))
def test_each_state_is_the_players_standing(tmp_path, monkeypatch, seed):
    monkeypatch.setenv("NARDRATING_FAST", "0")
    random_chess_club(tmp_path, seed)
    ledger = load_club(tmp_path, use_cache=False)
    checked = 0
    for name in ("glicko", "glicko2"):
        engine_scale = {"glicko": 400 / 2.302585092994046, "glicko2": 173.7178}[name]
        result = ledger.run(name, "chess")
        states = result.state
        assert len(states) == len(result.standings) and set(states) == set(result.standings)
        for player, standing in result.standings.items():
            s = states[player]
            assert (s.r, s.games, s.last_played) == (standing.rating, standing.games, standing.last_played)
            assert s.phi * engine_scale == pytest.approx(standing.extra["rd"], rel=1e-12)
            if name == "glicko2":
                assert s.sigma == standing.extra["volatility"]
            checked += 1
        assert states.get("no-such-player") is None
    assert checked > 10
