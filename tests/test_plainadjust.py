"""An [[adjust]] taken without the entry model (journal/plainadjust.py) is the entry the model makes.

`plain_adjust` takes an adjustment only where the model would take it exactly as it is; these tests
hold it to the model (ENTRY_MODELS["adjust"], pydantic) on random entries, valid and not, a TOML
journal read with it to the same journal read by the model alone, and a recalc of a club whose
journal is an imported rating list and CSV games to one that imports no pydantic.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from datetime import date, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings

from nardrating.journal import plainmatch, reader
from nardrating.journal.entries import ENTRY_MODELS
from nardrating.journal.model import Journal
from nardrating.journal.plainadjust import DEFAULTS, PlainAdjust, plain_adjust

from .plain_support import assert_same_fields, drawn_tables, taken_as_the_model_takes_it
from .test_config_cache import after_command

MODEL = ENTRY_MODELS["adjust"]

IDS = ["p1", "anna", "m-1", "Анна", "a_b", " p1", "p1 ", "a b", "x²", "", "p\x01", "a" * 101, 1, True, None]
NUMBERS = [1883, 0, -25, 40, 1883.5, -0.0, 100_000, -100_000, 100_001, 1e6, float("nan"), float("inf"), True, False,
           "1883", [1883], None]
VALUES = {
    "date": [date(2009, 12, 31), date(1900, 1, 1), date(2999, 12, 31), date(1899, 12, 31), date(3000, 1, 1),
             datetime(2009, 12, 31, 10, 0), "2009-12-31", 20091231, None],
    "player": IDS, "discipline": IDS,
    "rating": ["FIDE", "national list", "", " spaced", "a" * 200, "a" * 201, "line\nnext", 5, None],
    "set": NUMBERS, "delta": NUMBERS,
    "reason": ["imported list", "", " spaced", "two\nlines", "tab\tx", "trailing\n", "\x1b[31m", "a" * 2000, "a" * 2001,
               5, None],
    "k": [10, 20, 40, 30, 0, 10.0, True, "10", None],
    "games": [0, 12, 100_000, 100_001, -1, 3.0, True, "3", None],
    "rd": [50.0, 350, None],
    "volatility": [0.06, None],
    "colour": ["white"],
}


# Mostly an adjustment the model takes, with a few of its fields (or keys it does not know) drawn anew.
raw_adjusts = drawn_tables({"date": date(2009, 12, 31), "player": "p1", "set": 1883}, VALUES, instead=("delta", "set"))


def assert_same(plain: PlainAdjust, model) -> None:
    assert_same_fields(plain, model, DEFAULTS)


def _taken_as_the_model_takes_it(raw: dict[str, object]) -> bool:
    return taken_as_the_model_takes_it(plain_adjust, MODEL, raw, assert_same)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(raw_adjusts)
def test_an_adjust_taken_plain_is_the_models(raw):
    _taken_as_the_model_takes_it(raw)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, derandomize=True)
@given(raw_adjusts)
def test_an_adjust_taken_plain_is_the_models_more(raw):
    _taken_as_the_model_takes_it(raw)


def test_every_value_beside_good_fields_is_taken_as_the_model_takes_it_or_left_to_it():
    # Each value of VALUES in an adjustment the model takes (by set, and by delta).
    taken = 0
    for base in ({"date": date(2009, 12, 31), "player": "p1", "set": 1883},
                 {"date": date(2009, 12, 31), "player": "p1", "delta": -25, "reason": "commission"}):
        for key, values in VALUES.items():
            for value in values:
                taken += _taken_as_the_model_takes_it({**base, key: value})
    assert taken > 40


def test_the_imported_lists_adjusts_are_taken_plain_and_the_rest_left_to_the_model():
    # As import-ratings and a federation's list give them: taken, the numbers as the model's floats.
    taken = [{"date": date(2009, 12, 31), "player": "p0", "set": 1883, "reason": "imported list"},
             {"date": date(2024, 6, 1), "player": "anna", "set": 2450, "k": 40, "games": 12, "reason": "import",
              "rating": "fide", "discipline": "chess"},
             {"date": date(2020, 3, 1), "player": "boris", "delta": -12.5}]
    for raw in taken:
        assert_same(plain_adjust(raw), MODEL(**raw))
    assert plain_adjust(taken[0]).set == 1883.0 and type(plain_adjust(taken[0]).set) is float
    # What the model converts, strips or refuses, or what only it holds: left to it.
    good = {"date": date(2009, 12, 31), "player": "p0", "set": 1883}
    left = [{**good, "date": "2009-12-31"}, {**good, "player": " p0"}, {**good, "set": True},
            {**good, "set": float("nan")}, {**good, "set": 100_001}, {**good, "delta": 5}, {"date": good["date"], "player": "p0"},
            {**good, "rd": 50.0}, {**good, "volatility": 0.06}, {**good, "k": 30}, {**good, "games": -1},
            {**good, "reason": "x\x1b"}, {**good, "colour": "white"}]
    assert [plain_adjust(raw) for raw in left] == [None] * len(left)
    # The check can fail: a plain adjustment that differs from the model's by one field is told.
    with pytest.raises(AssertionError):
        assert_same(PlainAdjust(date(2009, 12, 31), "p0", set=1883.0, reason="imported"), MODEL(**taken[0]))


def _journal_text(rng: random.Random) -> str:
    """A TOML journal of an imported list and later adjustments, most as a federation writes them,
    some as a hand would (a refused value, a set and a delta, a text date)."""
    blocks = []
    for n in range(60):
        lines = [f"date = 2009-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}", f'player = "p{n % 12}"',
                 rng.choice([f"set = {rng.randint(1000, 2800)}", f"delta = {rng.randint(-40, 40)}", "set = 1850.5",
                             "set = true", "set = 1900\ndelta = 5", "", 'set = "1900"', "set = inf"])]
        extra = {"reason": ['"imported list"', '"two\\nlines"', '" spaced"'], "k": ["40", "30"], "games": ["12", "-3"],
                 "rating": ['"fide"'], "discipline": ['"chess"', '" chess"'], "rd": ["80.0"], "colour": ['"white"']}
        lines += [f"{key} = {rng.choice(extra[key])}" for key in rng.sample(sorted(extra), rng.randint(0, 3))]
        blocks.append("[[adjust]]\n" + "\n".join(line for line in lines if line) + "\n")
    return "\n".join(blocks)


def _read(text: str, plain: bool, monkeypatch) -> tuple[object, ...]:
    with monkeypatch.context() as patched:
        if not plain:
            patched.setattr(plainmatch, "plain_adjust", lambda raw: None)
        journal, problems = Journal(), []
        reader.read_toml_journal(text.encode(), Path("journal.toml"), "journal.toml", journal, "chess", problems)
    return ([(a, *(type(getattr(a, f)) for f in ("set", "delta", "k", "games"))) for a in journal.adjusts],
            [(p.file, p.line, p.message, p.entry) for p in problems])


@pytest.mark.parametrize("seed", range(6))
def test_a_toml_journal_reads_the_same_with_plain_adjusts_as_by_the_model_alone(seed, monkeypatch):
    text = _journal_text(random.Random(seed))
    taken = []
    original = plainmatch.plain_adjust
    with monkeypatch.context() as counted:
        counted.setattr(plainmatch, "plain_adjust", lambda raw: taken.append(original(raw) is not None) or original(raw))
        with_plain = _read(text, True, monkeypatch)
    by_model = _read(text, False, monkeypatch)
    assert with_plain == by_model
    # Some adjustments are taken plain, some read by the model, and some refused by it.
    assert 0 < sum(taken) < len(with_plain[0]) < len(taken) == 60
    assert with_plain[1] and not any("TOML" in message for _, _, message, _ in with_plain[1])


@pytest.mark.slow   # (a real process's imports or memory: a speed guard, in the slow run)
def test_a_recalc_of_an_imported_list_and_csv_games_imports_no_pydantic(tmp_path):
    """The second recalc (the config checked and cached by the first) of a fide club whose journal is a
    rating list imported as [[adjust]] and its games in CSV reads every entry without the models.

    Seed 002, quarterly lists: anna 2000 and boris 1800 on the list of 2010-01-01 (set on 2009-12-31);
    anna beats boris on 2010-01-05. D = 200: P_D(anna) 0.76, boris 0.24 (table (b), 198–206); K 20 (an
    imported rating with no games given counts as established, docs/fide.md; below 2400): anna
    +20 × 0.24 = +4.8 → +5, boris 20 × (0 − 0.24) = −4.8 → −5 on the list of 2010-04-01."""
    (tmp_path / "nardrating.toml").write_text(
        '[club]\nname = "Federation"\njournal = ["ratings.toml", "games.csv"]\ndefault_discipline = "chess"\n\n'
        '[rating.fide]\nengine = "fide"\nlist_every = "quarter"\n', encoding="utf-8")
    (tmp_path / "ratings.toml").write_text(
        '[[adjust]]\ndate = 2009-12-31\nplayer = "anna"\nset = 2000\nreason = "imported list"\n\n'
        '[[adjust]]\ndate = 2009-12-31\nplayer = "boris"\nset = 1800\nreason = "imported list"\n', encoding="utf-8")
    (tmp_path / "games.csv").write_text("date,player_a,player_b,result\n2010-01-05,anna,boris,1-0\n", encoding="utf-8")
    env = {**os.environ, "NARDRATING_CLUB": "", "NARDRATING_PARALLEL": "0"}
    code = after_command("'pydantic' in sys.modules")
    seen = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code, "recalc", "--club", str(tmp_path)], env=env,
                              capture_output=True, text=True, check=True)
        seen.append(done.stderr.split()[-1])
    assert seen == ["True", "False"]   # checked the first time, cached the second
    board = subprocess.run([sys.executable, "-m", "nardrating", "leaderboard", "--as-of", "2010-04-01", "-f", "json",
                            "--club", str(tmp_path)], env=env, capture_output=True, text=True, check=True)
    assert {row["player"]: row["rating"] for row in json.loads(board.stdout)} == {"anna": 2005, "boris": 1795}
