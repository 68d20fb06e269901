"""A replay resumed over a few appended matches of a big journal asks whether a row is excluded
(voided, forfeit, unrated) row by row, instead of finding every excluded row of the journal first.
Both ways give the same rows; and a cached list resumed over an appended forfeit, an unrated game
and a rated one equals the full replay, for every engine whose replay resumes."""
from __future__ import annotations

import json
import random

import pytest

from nardrating.engines.registry import engine_class, engine_names
from nardrating.replay.loader import load_club

from .conftest import make_club

RESUMABLE = [name for name in engine_names() if engine_class(name).resumable]


def bulk_csv(rows: int, seed: int, draws: bool = True) -> str:
    rng = random.Random(seed)
    lines = ["id,date,player_a,player_b,result,rated,forfeit"]
    for k in range(rows):
        a, b = rng.sample([f"p{n}" for n in range(12)], 2)
        lines.append(f"g{k},2009-{1 + k // 200:02d}-{1 + k % 200 // 8:02d},{a},{b},"
                     f"{rng.choice(['1-0', '0-1', '0.5-0.5'] if draws else ['1-0', '0-1'])},{'false' if k % 37 == 5 else ''},"
                     f"{'true' if k % 41 == 7 else ''}")
    return "\n".join(lines) + "\n"


def config(engine: str) -> str:
    discipline = "long-nardy" if engine == "fibs" else "chess"
    return f'[club]\njournal = ["journal.toml", "bulk.csv"]\ndefault_discipline = "{discipline}"\n\n' \
           f'[rating.main]\nengine = "{engine}"\n'


VOIDS = ('[[void]]\nmatch = "g3"\ndate = 2009-06-30\nreason = "entered twice"\n\n'
         '[[void]]\nmatch = "g400"\ndate = 2009-06-30\nreason = "a walkover"\n')


def test_exclusions_asked_row_by_row_are_the_excluded_rows(tmp_path):
    club = make_club(tmp_path / "club", VOIDS, config("elo"))
    (club / "bulk.csv").write_text(bulk_csv(1000, 1), encoding="utf-8")
    journal = load_club(club).journal
    every = journal.excluded_rows()
    # By hand: rows 5, 42, 79… unrated (k % 37 == 5: 27 of them), 7, 48, 89… forfeit (k % 41 == 7: 25;
    # row 745 is both: 745 = 20·37 + 5 = 18·41 + 7), g3 and g400 voided.
    assert len(every) == 27 + 25 - 1 + 2 and {3, 5, 7, 400, 745} <= every
    asked = journal.exclusions(range(10))             # 10 rows of 1,000: asked row by row
    assert not isinstance(asked, set)
    assert [i for i in range(-3, 1003) if i in asked] == sorted(every)
    assert "5" not in asked and 5.0 not in asked
    assert set(asked) == every and len(asked) == len(every)
    assert journal.exclusions(range(100)) == every    # a replay of a tenth of it: found at once
    # The excluded ones among some rows (a Glicko period rated again on resume), by hand from the
    # rules above: of rows 0-9, g3 voided, 5 unrated, 7 forfeit; of 740-749, 745 alone; of 0, 400
    # and 999 (spread wide: asked row by row), g400.
    assert asked.among(range(10)) == {3, 5, 7}
    assert asked.among([749, 745, 740]) == {745} and asked.among(range(740, 750)) == {745}
    assert asked.among([999, 0, 400]) == {400} and asked.among([]) == set()


def test_exclusions_asked_for_every_row_are_found_at_once_with_the_same_answers(tmp_path):
    # A report reads everyone's history, and so asks of every row: after ASKED_ONE_BY_ONE rows asked
    # one by one, the rest are looked up in the set of them all. The answers are the same either
    # way, every row of 2,400 asked twice in any order.
    from nardrating.journal import exclusions

    club = make_club(tmp_path / "club", VOIDS, config("elo"))
    (club / "bulk.csv").write_text(bulk_csv(2400, 2), encoding="utf-8")
    journal = load_club(club).journal
    every = journal.excluded_rows()
    asked = exclusions.Exclusions(journal)
    rows = list(range(-3, 2403)) * 2
    random.Random(7).shuffle(rows)
    assert len(rows) > exclusions.ASKED_ONE_BY_ONE
    answers = [i in asked for i in rows]
    assert answers == [journal.exclusion(i) is not None if 0 <= i < 2400 else False for i in rows]
    assert {i for i, yes in zip(rows, answers) if yes} == every
    assert asked._all is every or asked._all == every   # (found at once, past the rows asked one by one)
    assert "5" not in asked and 5.0 not in asked and 5 in asked and 3 in asked and 4 not in asked


@pytest.mark.parametrize("engine", RESUMABLE)
def test_a_resumed_list_over_appended_exclusions_equals_the_full_replay(tmp_path, cli, engine):
    club = make_club(tmp_path / "club", VOIDS, config(engine))
    draws = engine != "fibs"   # (a nardy match has a winner)
    (club / "bulk.csv").write_text(bulk_csv(1000, 2, draws), encoding="utf-8")

    def seen(no_cache: bool):
        env = {"NARDRATING_NO_CACHE": "1"} if no_cache else {}
        out = [cli(*args, "--format", "json", "--club", club, env=env) for args in
               (["leaderboard", "--all"], ["history", "p1"], ["history", "p2"])]
        assert all(r.exit_code == 0 for r in out), [r.output for r in out]
        return [json.loads(r.stdout) for r in out]

    done = cli("recalc", "--club", club)                        # the cache: snapshot and results
    assert done.exit_code == 0, done.output
    with open(club / "bulk.csv", "a", encoding="utf-8") as f:   # a forfeit, an unrated game, a rated one
        f.write("x1,2009-06-01,p1,p2,1-0,,true\nx2,2009-06-01,p2,p3,0-1,false,\n"
                f"x3,2009-06-02,p1,p3,{'0.5-0.5' if draws else '0-1'},,\n")
    resumed = seen(no_cache=False)
    assert resumed == seen(no_cache=True)
    history = {e["entry"]: e for e in resumed[1]["rows"]} if isinstance(resumed[1], dict) else \
        {e["entry"]: e for e in resumed[1]}
    assert history["x1"]["reason"] == "forfeit" and history["x1"]["change"] in (None, 0, 0.0)
