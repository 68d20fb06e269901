"""explain and history --details of a Glicko list read each period they explain from the whole
replay's records and player-period table (glickoperiods.py), without replaying the list. The steps
are the same as a replay keeping every period of everyone gives them, and as a replay focused on
the players explained (told what will be explained: RatingResult.will_explain, it keeps only their
periods and stops after the last of them), on random journals (adjustments with deviations and
volatilities, unrated games, several periods of a day, a week or a month)."""
from __future__ import annotations

import json
import random

import pytest

from nardrating.engines.glickoreplay import Replay
from nardrating.engines.glickoresult import GlickoResult

from .test_fast_path import random_chess_club


def answers(cli, club, matches, players, engine):
    out = [cli("explain", m, "--rating", engine, "--format", "json", "--club", club) for m in matches]
    out += [cli("history", p, "--details", "--rating", engine, "--discipline", "chess", "--format", "json",
                "--club", club) for p in players]
    assert all(r.exit_code == 0 for r in out), [r.output[:300] for r in out if r.exit_code]
    return [json.loads(r.stdout) for r in out]


@pytest.mark.parametrize("seed", [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(1, 10))])
def test_periods_from_the_records_explain_as_a_replay_keeping_them(cli, tmp_path, monkeypatch, seed):
    monkeypatch.setenv("NARDRATING_NO_CACHE", "1")
    monkeypatch.setenv("NARDRATING_FAST", "0")
    random_chess_club(tmp_path, seed, rows=200)
    rng = random.Random(seed)
    rows = (tmp_path / "games.csv").read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    chess = [row.split(",") for row in rows[1:]]
    chess = [cells for cells in chess if cells[header.index("discipline")] in ("", "chess")
             and cells[header.index("rated")] != "false" and cells[header.index("forfeit")] != "true"]
    matches = [cells[header.index("id")] for cells in rng.sample(chess, 3 if seed == 0 else 5)]  # (fewer by default)
    players = sorted({cells[header.index(side)] for cells in chess[:3] for side in ("player_a", "player_b")})
    kept: list[tuple[bool, bool]] = []
    run_kept = Replay.run_kept

    def counted(self):   # (whether the replay was focused, and stopped early)
        kept.append((self.focus is not None, self.until is not None))
        return run_kept(self)

    monkeypatch.setattr(Replay, "run_kept", counted)
    for engine in ("glicko", "glicko2"):
        from_records = answers(cli, tmp_path, matches, players, engine)
        assert not kept   # (no replay)
        with monkeypatch.context() as patch:
            patch.setattr(GlickoResult, "periods", GlickoResult.replayed_periods)
            focused = answers(cli, tmp_path, matches, players, engine)
            assert kept and all(f and u for f, u in kept)
            kept.clear()
            patch.setattr(GlickoResult, "will_explain", lambda self, events: None)
            everything = answers(cli, tmp_path, matches, players, engine)
        assert kept and not any(f or u for f, u in kept)
        kept.clear()
        assert from_records == focused == everything
