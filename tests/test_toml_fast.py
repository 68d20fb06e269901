"""tomlfast.read_plain, the one-pass reader of a journal as nardrating writes it, against tomllib:
on any text it either declines (None) or gives exactly what tomllib.loads gives, and the header
lines tomlsource.header_lines finds; on the journals nardrating writes, it does not decline."""
from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardrating.journal.tomlfast import read_plain
from nardrating.journal.tomlsource import header_lines

from .conftest import SAMPLES

# Pieces of lines, plain and not: headers, keys, spacing, values TOML takes and refuses, comments,
# escapes, control characters, other line ends and whitespace.
KEYS = ["id", "date", "players", "result", "winner", "note", "a-b_1", "match", "player", '"id"', "x.y", "", "é"]
VALUES = ['"m1"', '"анна"', '""', '"a = b"', '"# no comment"', '"tab\there"', '"bell\x07"', '"del\x7f"', '"q\\"q"',
          '"back\\\\slash"', '"\\u00e9\\n\\t"', '"\\ud800"', '"\\x41"', '"\\U0001F600"', '"\\U00110000"', '"\\"',
          "'literal'", '"""multi"""', "1", "0", "-0", "007", "+1", "1_000", "12345678901234567890",
          "1.5", "-0.0", "1e3", "1.", ".5", "inf", "nan", "true", "false", "True", "2009-01-15", "2009-02-30",
          "2009-1-15", "2009-01-15T10:00:00", "10:00:00", '["anna", "boris"]', "[7, 4]", "[1.5, 2]", "[]",
          '["a",]', "[ 1 , 2 ]", "[[7, 4]]", '["a", 1]', '["a"', "{ player = \"anna\" }", '"x" # note', "1 # c",
          '[{player = "anna", place = 1}, {player = "boris", place = "2-3"}]', "[{}]", "[{a = 1, a = 2}]",
          "[{a = 1,}]", '[{a = "}{,"}, {b = -3}]', "[{a = 2009-01-15, b = true}]", "[{a = {b = 1}}]", "[{a = 1}, 2]"]
SPACES = ["", " ", "  ", "\t"]


@st.composite
def lines(draw):
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.sampled_from(["[[match]]", "[[player]]", "[[ adjust ]]", "  [[void]]", "[match]", "[[a.b]]",
                                     "[[match]] # c", "[ [match]]", "[[match]", "[[]]"]))
    if kind == 1:
        return draw(st.sampled_from(["", " ", "\t", "\x0c", "# comment", "  # a = b", "#\x01", "# тест"]))
    key, value = draw(st.sampled_from(KEYS)), draw(st.sampled_from(VALUES))
    before, around, after = draw(st.sampled_from(SPACES)), draw(st.sampled_from([" = ", "=", " =  ", "\t=\t"])), \
        draw(st.sampled_from(SPACES))
    return f"{before}{key}{around}{value}{after}"


def declines_or_reads_what_tomllib_reads(body: list[str], newline: str) -> None:
    text = newline.join(body)
    plain = read_plain(text)
    try:
        expected = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        assert plain is None, text
        return
    if plain is not None:
        data, headers = plain
        assert data == expected, text
        assert headers == header_lines(text.replace("\r\n", "\n")), text


# The default run draws 120 journals; the slow run 3,000 more (the default pytest stays under a minute).
@settings(max_examples=120, derandomize=True, deadline=None)
@given(st.lists(lines(), max_size=14), st.sampled_from(["\n", "\r\n", "\r"]))
def test_read_plain_declines_or_reads_what_tomllib_reads(body, newline):
    declines_or_reads_what_tomllib_reads(body, newline)


@pytest.mark.slow
@settings(max_examples=3000, derandomize=True, deadline=None, database=None)
@given(st.lists(lines(), max_size=14), st.sampled_from(["\n", "\r\n", "\r"]))
def test_read_plain_declines_or_reads_what_tomllib_reads_more(body, newline):
    declines_or_reads_what_tomllib_reads(body, newline)


PLAIN_VALUES = ['"m1"', '"анна"', '""', '"a = b"', '"# no comment"', '"tab\there"', "1", "0", "-0", "-17", "1.5", "-0.0",
                "0.125", "true", "false", "2009-01-15", "2024-02-29", '["anna", "boris"]', "[7, 4]", "[1.5, 2]", "[]",
                '["a",]', "[ 1 , 2 ]", '["a", 1]', '[ "x" ]', '[{player = "anna", place = 1}, { player = "b", place = "2-3" }]',
                "[{}]", '[{a = "}{,"}, {b = -3},]', "[{a = 2009-01-15, b = true, c = 1.5}]", '"q\\"q"', '"back\\\\slash"',
                '"\\u00e9\\n\\t\\r\\b\\f"', '"\\U0001F600"', '["\\"", "x"]', '[{p = "\\\\"}]']


@st.composite
def plain_journals(draw):
    """Journals of plain lines only (a key once per table), with the spacing and comments TOML allows."""
    out = []
    for _ in range(draw(st.integers(0, 6))):
        out.append(draw(st.sampled_from(["[[match]]", "[[player]]", "[[ adjust ]]", "  [[match]]\t"])))
        for key in draw(st.lists(st.sampled_from(KEYS[:7]), unique=True, max_size=5)):
            around = draw(st.sampled_from([" = ", "=", " =  ", "\t=\t"]))
            out.append(f"{draw(st.sampled_from(SPACES))}{key}{around}{draw(st.sampled_from(PLAIN_VALUES))}"
                       f"{draw(st.sampled_from(SPACES))}")
            if draw(st.booleans()):
                out.append(draw(st.sampled_from(["", "# a comment", "  # a = b", "\t"])))
    return "\n".join(out)


def read_in_one_pass_as_tomllib_reads_it(text: str) -> None:
    plain = read_plain(text)
    assert plain is not None, text
    assert plain == (tomllib.loads(text), header_lines(text)), text


@settings(max_examples=100, derandomize=True, deadline=None)
@given(plain_journals())
def test_plain_journals_are_read_in_one_pass_as_tomllib_reads_them(text):
    read_in_one_pass_as_tomllib_reads_it(text)


@pytest.mark.slow
@settings(max_examples=2000, derandomize=True, deadline=None, database=None)
@given(plain_journals())
def test_plain_journals_are_read_in_one_pass_as_tomllib_reads_them_more(text):
    read_in_one_pass_as_tomllib_reads_it(text)


# What the writers write: keys, one space each side of =, plain strings, numbers, dates, flat arrays.
WRITTEN = """[[player]]
id = "anna"
name = "Анна Ш."
qualification = "KMS"

[[player]]
id = "boris"

[[tournament]]
id = "cup-1"
system = "swiss"
start = 2009-02-01
end = 2009-02-03

[[match]]
id = "m0001"
date = 2009-02-01
players = ["anna", "boris"]
winner = "anna"
length = 7
score = [7, 4]
tournament = "cup-1"

[[match]]
id = "m0002"
date = 2009-02-02
players = ["boris", "anna"]
result = "1/2-1/2"
rated = false
chips = 12.5

[[adjust]]
date = 2009-03-01
player = "anna"
rating = "club"
delta = -25
reason = "a correction, agreed = yes"
"""


def test_a_journal_as_the_writers_write_it_is_read_in_one_pass():
    """Two players, a tournament, two matches (header lines 10, 16, 25), an adjustment (line 33)."""
    plain = read_plain(WRITTEN)
    assert plain is not None
    data, headers = plain
    assert data == tomllib.loads(WRITTEN)
    assert headers == {"player": [1, 6], "tournament": [9], "match": [15, 24], "adjust": [32]}
    assert data["match"][0]["players"] == ["anna", "boris"] and data["match"][0]["score"] == [7, 4]
    assert data["match"][1]["chips"] == 12.5 and data["adjust"][0]["delta"] == -25


@pytest.mark.parametrize("journal", sorted(SAMPLES.glob("*/*.toml")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_sample_journals_read_as_tomllib_reads_them(journal):
    text = journal.read_text(encoding="utf-8")
    plain = read_plain(text)
    if plain is not None:
        assert plain == (tomllib.loads(text), header_lines(text))


@pytest.mark.parametrize("line", ["standing = { player = \"a\" }", "note = 'literal'", 'note = "a\\xb"',
                                  'note = "x" # why', "standings = [{ player = { id = \"a\" } }]",
                                  'players = [\n  "a",\n  "b",\n]', "date = 2009-01-15T10:00:00", "[rating]",
                                  'note = """two\nlines"""', "length = 1_000", 'id = "m1"\nid = "m2"'])
def test_what_is_not_plain_is_left_to_tomllib(line):
    assert read_plain("[[match]]\n" + line + "\n") is None


def test_the_patterns_of_other_arrays_are_compiled_only_when_one_is_read():
    # A journal of matches (add-match's new one too) holds no array but its players: the patterns
    # of the others (numbers, inline tables) are compiled when the first such array is read.
    from nardrating.journal import tomlfast

    tomlfast._compiled.cache_clear()
    matches = '[[match]]\nid = "m1"\ndate = 2009-01-02\nplayers = ["anna", "boris"]\nwinner = "anna"\n'
    assert read_plain(matches) == (tomllib.loads(matches), {"match": [1]})
    assert tomlfast._compiled.cache_info().currsize == 0
    scored = matches + "score = [7, 4]\n"
    assert read_plain(scored) == (tomllib.loads(scored), {"match": [1]})
    assert tomlfast._compiled.cache_info().currsize > 0
