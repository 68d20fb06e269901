"""A [[match]] taken without the entry model (journal/plainmatch.py) is the entry the model makes.

`plain_match` takes a match only where the model would take it exactly as it is; these tests hold
it to the model (ENTRY_MODELS["match"], pydantic) on random entries, valid and not, and a TOML
journal read with it to the same journal read by the model alone. That an add-match on a cached
club then imports no pydantic is tested with the cached config's (test_config_cache.py).
"""
from __future__ import annotations

import random
from datetime import date, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings

from nardrating.journal import playentries  # noqa: F401 - registers [[round]], [[join]], [[withdraw]]
from nardrating.journal import plainmatch, reader
from nardrating.journal.entries import ENTRY_MODELS
from nardrating.journal.limits import ENTRY_KINDS
from nardrating.journal.model import Journal
from nardrating.journal.plainmatch import DEFAULTS, PlainMatch, plain_match

from .plain_support import assert_same_fields, drawn_tables, taken_as_the_model_takes_it


MODEL = ENTRY_MODELS["match"]

IDS = ["p1", "anna", "m-1", "Анна", "a_b", " p1", "p1 ", "a b", "x²", "", "p\x01", "a" * 101, 1, True, None]
VALUES = {
    "id": IDS, "discipline": IDS, "tournament": IDS, "amends": IDS, "winner": IDS + ["boris"],
    "date": [date(2019, 12, 31), date(1900, 1, 1), date(2999, 12, 31), date(1899, 12, 31), date(3000, 1, 1),
             datetime(2019, 1, 1, 10, 0), "2019-12-31", 20191231, None],
    "players": [["anna", "boris"], ["p1", "p2"], ["anna", "anna"], ["anna"], ["a", "b", "c"], ("anna", "boris"),
                ["anna", " boris"], ["anna", 5], ["anna", "x²"], [], None],
    "result": ["1-0", "0-1", "1/2-1/2", "½-½", "1 - 0", " 1-0", "0.5-0.5", "x", "", 1, None],
    "length": [1, 7, 1000, 0, 1001, True, 3.0, "3", -1, None],
    "score": [[7, 4], [0, 0], [10000, 1], [10001, 1], [1], [1, 2, 3], [True, 1], (7, 4), [7.0, 4], ["7", "4"], None],
    "chips": [1.5, 3, None],
    "rated": [True, False, 1, 0, "true", None],
    "forfeit": [True, False, 1, "false", None],
    "note": ["well played", "", " spaced", "line\nnext", "tab\tx", "trailing\n", "\x1b[31m", "a" * 2000, "a" * 2001,
             5, None],
    "round": [1, None],
    "colour": ["white"],
}


# Mostly a match the model takes, with a few of its fields (or keys it does not know) drawn anew.
raw_matches = drawn_tables({"date": date(2019, 12, 31), "players": ["anna", "boris"], "winner": "anna"}, VALUES,
                           instead=("result", "winner"))


def assert_same(plain: PlainMatch, model) -> None:
    assert_same_fields(plain, model, DEFAULTS)
    assert plain.score_a() == model.score_a()


def _taken_as_the_model_takes_it(raw: dict[str, object]) -> bool:
    return taken_as_the_model_takes_it(plain_match, MODEL, raw, assert_same)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(raw_matches)
def test_a_match_taken_plain_is_the_models(raw):
    _taken_as_the_model_takes_it(raw)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, derandomize=True)
@given(raw_matches)
def test_a_match_taken_plain_is_the_models_more(raw):
    _taken_as_the_model_takes_it(raw)


def test_every_value_beside_good_fields_is_taken_as_the_model_takes_it_or_left_to_it():
    # Each value of VALUES in a match the model takes (with a winner, and with a result instead).
    taken = 0
    for base in ({"date": date(2019, 12, 31), "players": ["anna", "boris"], "winner": "anna"},
                 {"date": date(2019, 12, 31), "players": ["anna", "boris"], "result": "1-0"}):
        for key, values in VALUES.items():
            for value in values:
                raw = {**base, key: value}
                _taken_as_the_model_takes_it(raw)
                taken += plain_match(raw) is not None
    assert taken > 50


def test_the_common_matches_are_taken_plain_and_the_rest_left_to_the_model():
    # As add-match and the writers give them: taken.
    taken = [{"id": "m1", "date": date(2019, 12, 31), "players": ["anna", "boris"], "winner": "anna"},
             {"date": date(2019, 12, 31), "players": ["anna", "boris"], "result": "1/2-1/2", "length": 7,
              "score": [3, 3], "discipline": "chess", "tournament": "cup", "rated": False, "forfeit": True,
              "note": "two lines\nof note", "amends": "m0"}]
    for raw in taken:
        assert_same(plain_match(raw), MODEL(**raw))
    # What the model converts, strips or refuses, or what only it holds: left to it.
    left = [{"date": "2019-12-31", "players": ["anna", "boris"], "winner": "anna"},   # a text the model reads as a date
            {"date": date(2019, 12, 31), "players": [" anna", "boris"], "winner": "anna"},   # stripped by the model
            {"date": date(2019, 12, 31), "players": ["anna", "boris"], "winner": "anna", "length": True},   # refused
            {"date": date(2019, 12, 31), "players": ["anna", "boris"], "winner": "anna", "chips": 2},
            {"date": date(2019, 12, 31), "players": ["anna", "boris"], "winner": "anna", "round": 1},
            {"date": date(2019, 12, 31), "players": ["anna", "boris"], "winner": "anna", "result": "1-0"},
            {"date": date(2019, 12, 31), "players": ["anna", "boris"], "winner": "anna", "colour": "white"}]
    assert [plain_match(raw) for raw in left] == [None] * len(left)
    # The check can fail: a plain match that differs from the model's by one field is told.
    with pytest.raises(AssertionError):
        assert_same(PlainMatch(date(2019, 12, 31), ["anna", "boris"], winner="anna", length=2), MODEL(**taken[0]))


def test_the_entry_kinds_known_without_the_models_are_the_models_in_their_order():
    assert ENTRY_KINDS == tuple(ENTRY_MODELS)


def _journal_text(rng: random.Random) -> str:
    """A TOML journal of players and matches, most as the writers write them, some as a hand would."""
    players = ["anna", "boris", "carl", "dina"]
    blocks = [f'[[player]]\nid = "{p}"\nname = "{p.title()}"\n' for p in players]
    for n in range(60):
        a, b = rng.sample(players, 2)
        lines = [f'id = "m{n}"' if rng.random() < 0.8 else "", f"date = 2019-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                 f'players = ["{a}", "{b}"]']
        lines.append(rng.choice([f'winner = "{a}"', f'winner = "{b}"', 'result = "1/2-1/2"', 'result = "1-0"',
                                 'winner = "zed"', f'winner = " {a}"', 'result = "maybe"']))
        extra = {"length": ["7", "0", "true"], "score": ["[7, 3]"], "rated": ["false"], "forfeit": ["true"],
                 "note": ['"a note"', '"two\\nlines"'], "discipline": ['"short-nardy"'], "chips": ["2.5"],
                 "amends": [f'"m{max(n - 1, 0)}"'], "colour": ['"white"']}
        lines += [f"{key} = {rng.choice(extra[key])}" for key in rng.sample(sorted(extra), rng.randint(0, 3))]
        blocks.append("[[match]]\n" + "\n".join(line for line in lines if line) + "\n")
    return "\n".join(blocks)


def _read(text: str, plain: bool, monkeypatch) -> tuple[object, ...]:
    with monkeypatch.context() as patched:
        if not plain:
            patched.setattr(plainmatch, "plain_match", lambda raw: None)
        journal, problems = Journal(), []
        reader.read_toml_journal(text.encode(), Path("journal.toml"), "journal.toml", journal, "long-nardy", problems)
    m = journal.matches
    columns = [list(getattr(m, name)) for name in ("ids", "dates", "a", "b", "score_a", "length", "discipline",
                                                    "tournament", "rated", "forfeit", "seq", "source", "line")]
    return columns, dict(m.extra), journal.player_codes.names, journal.discipline_codes.names, [(p.file, p.line, p.message, p.entry) for p in problems]


@pytest.mark.parametrize("seed", range(6))
def test_a_toml_journal_reads_the_same_with_plain_matches_as_by_the_model_alone(seed, monkeypatch):
    text = _journal_text(random.Random(seed))
    taken = []
    original = plainmatch.plain_match
    with monkeypatch.context() as counted:
        counted.setattr(plainmatch, "plain_match", lambda raw: taken.append(original(raw) is not None) or original(raw))
        with_plain = _read(text, True, monkeypatch)
    by_model = _read(text, False, monkeypatch)
    assert with_plain == by_model
    # The file reads (no TOML error), some matches are taken plain, and some are refused by the model.
    assert 0 < sum(taken) < len(taken) == 60
    assert len(with_plain[0][0]) > sum(taken) and with_plain[-1]
    assert not any("TOML" in message for _, _, message, _ in with_plain[-1])


def test_the_plain_path_is_taken_while_reading(monkeypatch):
    taken = []
    original = plainmatch.plain_match
    monkeypatch.setattr(plainmatch, "plain_match", lambda raw: taken.append(raw) or original(raw))
    journal, problems = Journal(), []
    reader.read_toml_journal(b'[[match]]\ndate = 2019-12-31\nplayers = ["anna", "boris"]\nwinner = "anna"\n',
                             Path("journal.toml"), "journal.toml", journal, "long-nardy", problems)
    assert len(taken) == 1 and journal.match_count() == 1 and problems == []
