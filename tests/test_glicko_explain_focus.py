"""explain and history --details of a Glicko list replay the list again, keeping each period's
arithmetic; told what will be explained (RatingResult.will_explain), the replay keeps only the
periods of those players, and stops after the last of them. The steps are the same as with every
period of everyone kept, on random journals (adjustments with deviations and volatilities, unrated
games, several periods)."""
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


@pytest.mark.parametrize("seed", range(4))
def test_a_focused_replay_explains_as_one_that_keeps_every_period(cli, tmp_path, monkeypatch, seed):
    monkeypatch.setenv("NARDRATING_NO_CACHE", "1")
    monkeypatch.setenv("NARDRATING_FAST", "0")
    random_chess_club(tmp_path, seed, rows=200)
    rng = random.Random(seed)
    rows = (tmp_path / "games.csv").read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    chess = [row.split(",") for row in rows[1:]]
    chess = [cells for cells in chess if cells[header.index("discipline")] in ("", "chess")
             and cells[header.index("rated")] != "false" and cells[header.index("forfeit")] != "true"]
    matches = [cells[header.index("id")] for cells in rng.sample(chess, 4)]
    players = sorted({cells[header.index(side)] for cells in chess[:3] for side in ("player_a", "player_b")})
    kept: list[tuple[bool, bool]] = []
    run_kept = Replay.run_kept

    def counted(self):   # (whether the replay was focused, and stopped early)
        kept.append((self.focus is not None, self.until is not None))
        return run_kept(self)

    monkeypatch.setattr(Replay, "run_kept", counted)
    for engine in ("glicko", "glicko2"):
        focused = answers(cli, tmp_path, matches, players, engine)
        assert kept and all(f and u for f, u in kept)
        kept.clear()
        with monkeypatch.context() as patch:
            patch.setattr(GlickoResult, "will_explain", lambda self, events: None)
            everything = answers(cli, tmp_path, matches, players, engine)
        assert kept and not any(f or u for f, u in kept)
        kept.clear()
        assert focused == everything
