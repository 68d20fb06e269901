"""A journal written as nardrating writes it, read in one pass: the plain subset of TOML.

tomllib reads a 100,000-match journal (12 MB) in 2.4 s, most of a recalc of it. Nearly every
line of such a file is `[[kind]]` or `key = value` with a plain value: a basic string, a whole
or decimal number, true or false, a date, a flat array of strings and numbers, or an array of
inline tables of those (a tournament's standings). `read_plain` reads exactly that subset, line
by line, into what `tomllib.loads` gives (and each kind's header lines, as
tomlsource.header_lines counts them); for anything else (a literal string, a comment after a
value, a table, a nested array, a multi-line string, a time, a key twice) it returns None and
the file is read by tomllib, which also words any error.
tests/test_toml_fast.py compares the two on random journals.
"""
from __future__ import annotations

import re
from datetime import date
from functools import cache
from typing import Any

_HEADER = re.compile(r"[ \t]*\[\[[ \t]*([A-Za-z0-9_-]+)[ \t]*\]\][ \t]*")
_BLANK_OR_COMMENT = re.compile(r"[ \t]*(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?")  # TOML's whitespace is space and tab
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_PAIR = re.compile(r"[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*(.*?)[ \t]*")
# A basic string: no control character but a tab, escapes of the kinds TOML has (decoded by _text).
_STRING = r'"(?:[^"\\\x00-\x08\x0a-\x1f\x7f]|\\["\\btnfr]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*"'
_ESCAPE = re.compile(r'\\(?:(["\\btnfr])|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))')
_ESCAPED = {'"': '"', "\\": "\\", "b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r"}
_INTEGER = r"-?(?:0|[1-9][0-9]*)"
_FLOAT = r"-?(?:0|[1-9][0-9]*)\.[0-9]+"
_DATE = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
_SCALAR = re.compile(rf"({_STRING})|({_FLOAT})|({_INTEGER})|(true|false)|({_DATE})")
# The arrays but two strings (a match's players), as patterns compiled when first read (_compiled):
# a few milliseconds that a journal of matches alone, or add-match's new one, never needs.
_ITEM = rf"(?:{_STRING}|{_FLOAT}|{_INTEGER})"
_ARRAY = rf"\[[ \t]*(?:{_ITEM}(?:[ \t]*,[ \t]*{_ITEM})*[ \t]*,?)?[ \t]*\]"
_ITEMS = rf"({_STRING})|({_FLOAT})|({_INTEGER})"
# An array of inline tables of plain values (a tournament's standings: [{player = "anna", place = 1}, …]).
_VALUE = rf"(?:{_STRING}|{_DATE}|{_FLOAT}|{_INTEGER}|true|false)"   # (a date before the number it starts with)
_INLINE = rf"\{{[ \t]*(?:[A-Za-z0-9_-]+[ \t]*=[ \t]*{_VALUE}(?:[ \t]*,[ \t]*[A-Za-z0-9_-]+[ \t]*=[ \t]*{_VALUE})*)?[ \t]*\}}"
_TABLES = rf"\[[ \t]*{_INLINE}(?:[ \t]*,[ \t]*{_INLINE})*[ \t]*,?[ \t]*\]"
_TABLE_TOKENS = rf"(\{{)|([A-Za-z0-9_-]+)[ \t]*=[ \t]*({_VALUE})"
_TWO_STRINGS = re.compile(r'\["([^"\\\x00-\x08\x0a-\x1f\x7f]*)", "([^"\\\x00-\x08\x0a-\x1f\x7f]*)"\]')


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


class _NotPlain(Exception):
    """A line outside the plain subset: tomllib reads the file."""


def _char(m: re.Match[str]) -> str:
    short, four, eight = m.groups()
    if short:
        return _ESCAPED[short]
    code = int(four or eight, 16)
    if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:  # no Unicode scalar value: tomllib words the error
        raise _NotPlain
    return chr(code)


def _text(string: str) -> str:
    """A basic string's text: without its quotes, its escapes decoded."""
    inner = string[1:-1]
    return _ESCAPE.sub(_char, inner) if "\\" in inner else inner


def _scalar(text: str) -> Any:
    m = _SCALAR.fullmatch(text)
    if m is None:
        raise _NotPlain
    string, decimal, whole, flag, day = m.groups()
    if string is not None:
        return _text(string)
    if decimal is not None:
        return float(decimal)
    if whole is not None:
        if len(whole) > 18:  # (tomllib's own refusal of a number of thousands of digits is worded there)
            raise _NotPlain
        return int(whole)
    if flag is not None:
        return flag == "true"
    try:
        return date.fromisoformat(day)
    except ValueError:  # 2009-02-30: tomllib words the error
        raise _NotPlain from None


def _array(text: str) -> list[Any]:
    two = _TWO_STRINGS.fullmatch(text)   # players = ["anna", "boris"]: most arrays of a journal
    if two is not None:
        return [two[1], two[2]]
    if _compiled(_ARRAY).fullmatch(text) is None:
        if _compiled(_TABLES).fullmatch(text) is None:
            raise _NotPlain
        tables: list[dict[str, Any]] = []
        for opening, key, value in _compiled(_TABLE_TOKENS).findall(text):  # in order: "{", then its key = value pairs
            if opening:
                tables.append({})
            elif key in tables[-1]:
                raise _NotPlain
            else:
                tables[-1][key] = _scalar(value)
        return tables
    return [_text(string) if string else float(decimal) if decimal else _scalar(whole)
            for string, decimal, whole in _compiled(_ITEMS).findall(text[1:-1])]


def read_plain(text: str) -> tuple[dict[str, Any], dict[str, list[int]]] | None:
    """(tomllib.loads(text), header lines by kind) for a file of the plain subset; None otherwise."""
    if "\r" in text:
        if text.count("\r") != text.count("\r\n"):
            return None
        text = text.replace("\r\n", "\n")
    data: dict[str, Any] = {}
    headers: dict[str, list[int]] = {}
    table = data
    bare: dict[str, bool] = {}   # each key as written: a bare key? (a journal has a few dozen)
    known: dict[str, Any] = {}   # each scalar's text read once (a journal repeats its dates and words)
    try:
        for number, line in enumerate(text.split("\n"), start=1):
            if not line:
                continue
            key, equals, value = line.partition(" = ")   # the usual line: key = value, one space each side
            plain = bare.get(key)
            if plain is None:
                plain = bare[key] = _BARE.fullmatch(key) is not None
            if not (equals and plain and value and value[0] not in " \t" and value[-1] not in " \t"):
                if _BLANK_OR_COMMENT.fullmatch(line):
                    continue
                header = _HEADER.fullmatch(line)
                if header is not None:
                    kind = header[1]
                    tables = data.setdefault(kind, [])
                    if not isinstance(tables, list) or kind not in headers and tables:
                        return None  # a root key of that name
                    table = {}
                    tables.append(table)
                    headers.setdefault(kind, []).append(number)
                    continue
                pair = _PAIR.fullmatch(line)   # key=value, indented, or spaced otherwise
                if pair is None:
                    return None
                key, value = pair[1], pair[2]
            if key in table:
                return None
            if value.startswith("["):
                table[key] = _array(value)   # (a list: never shared)
            else:
                scalar = known.get(value, known)
                table[key] = scalar if scalar is not known else known.setdefault(value, _scalar(value))
    except _NotPlain:
        return None
    return data, headers
