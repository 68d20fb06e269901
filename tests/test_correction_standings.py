"""A correction's comparison of every rating of the current lists (void, amend: write.current_ratings)
reads, for a list kept as standings (fide, mfsnb), the standings `recalc` kept beside the snapshot
for before the write, and replays the list for its standings alone after it: the same ratings that
change as full replays give."""
import json
import shutil

import pytest

from .conftest import SAMPLES, no_cache


@pytest.mark.parametrize("sample", ["fide-club", "federation-2009"])
def test_a_voids_comparison_reads_the_kept_standings_before_it(tmp_path, cli, monkeypatch, sample):
    from nardrating.engines.fide.engine import FideEngine
    from nardrating.engines.mfsnb.engine import MfsnbEngine

    club = shutil.copytree(SAMPLES / sample, tmp_path / "club")
    matches = json.loads(cli("matches", "--club", club, "-f", "json").stdout)
    middle = matches[len(matches) // 2]["id"]
    args = ("void", middle, "--reason", "entered twice", "--dry-run", "--club", club)
    with no_cache():
        replayed = cli(*args)
    assert replayed.exit_code == 0, replayed.output
    assert "ratings that change in the current lists" in replayed.stdout   # (the comparison has rows)
    assert cli("recalc", "--club", club).exit_code == 0

    def refused(self, view):
        raise AssertionError("a full replay")

    standings_only: list[str] = []
    for engine in (FideEngine, MfsnbEngine):
        monkeypatch.setattr(engine, "run", refused)
        run_standings = engine.run_standings

        def counted(self, view, run_standings=run_standings):
            standings_only.append(self.name)
            return run_standings(self, view)

        monkeypatch.setattr(engine, "run_standings", counted)
    kept = cli(*args)
    assert kept.exit_code == 0, kept.output
    assert kept.stdout == replayed.stdout
    # one replay a list kept as standings, for its standings after the void; those before it were read as kept
    assert sorted(standings_only) == kept_as_standings(club)


def kept_as_standings(club):
    """The engines of the club's (list, discipline)s whose replay the cache cannot keep, sorted."""
    from nardrating.engines.registry import engine_class
    from nardrating.replay.loader import load_club

    ledger = load_club(club)
    return sorted(rating.engine for rating in ledger.config.ratings.values() for _ in ledger.disciplines(rating)
                  if not engine_class(rating.engine).can_cache(rating.params))
