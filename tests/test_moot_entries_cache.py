"""An [[edit-player]] (a name, an alias, a qualification corrected) cannot move a list whose replay
reads no player's facts (Engine.reads_player_facts = False: elo, glicko, glicko2, fibs, chips,
placement), nor a new [[tournament]] one that reads no tournament's end (Engine.tournament_ends =
False: elo, glicko, glicko2, fibs, chips): their cached replays hold over it, and the commands after
it replay none of them. The other lists are replayed. Every leaderboard, and the histories of each
list's first four players, are a full read's."""
import json
import shutil

import pytest

from nardrating.engines.registry import engine_class
from nardrating.replay.loader import load_club

from .conftest import SAMPLES, no_cache


def readings(cli, club, ratings):
    """Every list's leaderboard and its first four players' histories, as the commands give them (JSON)."""
    out = {}
    for rating in ratings:
        board = cli("leaderboard", "--rating", rating, "--club", club, "-f", "json")
        assert board.exit_code == 0, board.output
        out[rating] = json.loads(board.stdout)
        for row in out[rating][:4]:
            shown = cli("history", row["player"], "--rating", rating, "--club", club, "-f", "json")
            out[rating, row["player"]] = json.loads(shown.stdout)
    return out


GLICKO = '\n[rating.glicko]\nengine = "glicko"\n\n[rating.glicko2]\nengine = "glicko2"\nperiod = "week"\n'


def chess_with_glicko(folder):
    """The chess sample with glicko and glicko2 lists beside its elo list."""
    club = shutil.copytree(SAMPLES / "chess-club", folder)
    with open(club / "nardrating.toml", "a", encoding="utf-8") as f:
        f.write(GLICKO)
    return club


WRITES = [  # (sample, the write, the engine's flag that says whether the entry can move its lists)
    ("chess-club", ["edit-player", "anna", "--name", "Анна Петрова", "--alias", "Аня"], "reads_player_facts"),
    ("nardy-club", ["edit-player", "aslan", "--name", "Аслан Г.", "--qualification", "1"], "reads_player_facts"),
    ("federation-2009", ["edit-player", "avakyan", "--qualification", "KMS"], "reads_player_facts"),
    ("chess-club", ["add-tournament", "winter", "--name", "Winter", "--system", "swiss", "--start", "2026-01-10",
                    "--end", "2026-01-11"], "tournament_ends"),
    ("nardy-club", ["add-tournament", "winter", "--name", "Winter", "--system", "swiss", "--start", "2026-01-10",
                    "--end", "2026-01-11"], "tournament_ends"),
]


@pytest.mark.parametrize("sample, write, reads", WRITES, ids=[f"{s}-{w[0]}" for s, w, _ in WRITES])
def test_an_entry_replays_only_the_lists_it_can_move(tmp_path, cli, monkeypatch, sample, write, reads):
    from nardrating.replay import view

    club = (chess_with_glicko(tmp_path / "club") if sample == "chess-club"
            else shutil.copytree(SAMPLES / sample, tmp_path / "club"))
    ledger = load_club(club)
    ratings = {name: engine_class(r.engine) for name, r in ledger.config.ratings.items()}
    assert cli("recalc", "--club", club).exit_code == 0
    readings(cli, club, ratings)   # (every list's result and kept standings in the cache)
    done = cli(*write, "--club", club)
    assert done.exit_code == 0, done.output
    replayed = []
    replay = view.replay

    def counted(ledger, rating, *args, **kwargs):
        replayed.append(rating.name)
        return replay(ledger, rating, *args, **kwargs)

    monkeypatch.setattr(view, "replay", counted)
    after = readings(cli, club, ratings)
    monkeypatch.setattr(view, "replay", replay)
    with no_cache():
        assert after == readings(cli, club, ratings)
    assert set(replayed) == {name for name, engine in ratings.items() if getattr(engine, reads)}
    # and a match added after the edit: the lists resumed over it are a full read's too
    first, second = (row["player"] for row in next(v for k, v in after.items() if isinstance(k, str))[:2])
    done = cli("add-match", first, second, "--winner", first, "--club", club)
    assert done.exit_code == 0, done.output
    added = readings(cli, club, ratings)
    with no_cache():
        assert added == readings(cli, club, ratings)


def test_an_engine_that_says_it_reads_no_facts_reads_none(tmp_path, monkeypatch):
    # Its replay of every sample, with view.player refusing: none asks.
    from nardrating.replay.view import JournalView

    def refused(self, player):
        raise AssertionError("read a player's facts")

    monkeypatch.setattr(JournalView, "player", refused)
    checked = set()
    with no_cache():
        for club in (chess_with_glicko(tmp_path / "chess"), SAMPLES / "nardy-club", SAMPLES / "club-swiss"):
            ledger = load_club(club)
            for rating in ledger.config.ratings.values():
                engine = engine_class(rating.engine)
                if not engine.reads_player_facts:
                    for discipline in ledger.disciplines(rating):
                        assert ledger.run(rating, discipline).standings
                        checked.add(engine.name)
    assert checked == {"elo", "glicko", "glicko2", "fibs", "chips", "placement"}
