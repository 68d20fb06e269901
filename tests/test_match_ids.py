"""The next match id a writer gives (m0001, m0002, …) is one past the highest m-number of the
file's id lines. Those lines are found by a pattern anchored after a line end (fast on a big
journal) that must find exactly what `^\\s*id\\s*=\\s*"m…"` with re.MULTILINE finds."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardrating.journal.model import Journal
from nardrating.journal.writer import m_numbers, next_match_id

ANCHORED = re.compile(r'^\s*id\s*=\s*"m([0-9]{1,18})"', re.MULTILINE)  # the rule, as written before

PIECES = ["\n", "\r\n", " ", "\t", "\x0b", "\u00a0", "\u2028", "id", " = ", "=", '"m', '"m7', "12", "0",
          '"', "x", "#", "pid", "[[match]]", "1234567890123456789", 'id = "m3"']


@settings(max_examples=100, derandomize=True)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_the_id_lines_found_are_those_of_the_anchored_rule(pieces):
    text = "".join(pieces)
    assert set(m_numbers(text)) == {int(n) for n in ANCHORED.findall(text)}


@pytest.mark.slow
@settings(max_examples=400, derandomize=True)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_the_id_lines_found_are_those_of_the_anchored_rule_in_many_texts(pieces):
    text = "".join(pieces)
    assert set(m_numbers(text)) == {int(n) for n in ANCHORED.findall(text)}


def test_next_match_id_worked_by_hand():
    text = ('  id = "m0007"\n[[match]]\nid = "m0012"\nnote = "id = \\"m0099\\""\n'
            '# id = "m0098"\n\t\n   id="m0003"\nxid = "m0097"\n')
    # Lines that are id lines: the first (leading spaces), m0012, and m0003 (after a blank line of a
    # tab); not the note's text, the comment, or xid. Highest 12: the next is m0013.
    assert sorted(set(m_numbers(text))) == [3, 7, 12]
    assert next_match_id(text, Journal()) == "m0013"
    assert next_match_id("", Journal()) == "m0001"
