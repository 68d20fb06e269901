"""What a person most often gets wrong writing TOML by hand, said in plain words at its line.

tomllib stops at the first thing it cannot read and names it in its own terms ("Invalid value",
"Expected newline or end of document after a statement"). For the few shapes of line that people
write by hand (a date as they write it on paper, text without quotes, quotes from a word processor,
an array without commas) the line alone tells what was meant: the message says so, with the line
as TOML reads it. Any other line keeps tomllib's words.
"""
from __future__ import annotations

import re

from ..i18n import _
from ..periods import written_date

_KEY_VALUE = re.compile(r"^[ \t]*([A-Za-z0-9_-]{1,40})[ \t]*=[ \t]*(.{1,400}?)[ \t]*$")
# Quotes a word processor puts in for " (TOML's are " and '); « » are text in Russian names, as in
# name = "Клуб «Гамбит»", and go inside the quotes.
_QUOTES = "“”„"
_CURLY = str.maketrans({c: '"' for c in _QUOTES})
# Text written without quotes: it starts as no other TOML value does (a letter, «), or is a result.
_BARE = re.compile(r"[^\W\d][^\n]*|«[^\n]*|[01½]\s*[-:–]\s*[01½]|1/2\s*-\s*1/2")
_YES_NO = {"yes": "true", "no": "false", "true": "true", "false": "false", "да": "true", "нет": "false"}
_ITEM = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'|[^,\s"\']+')


def hand_written_problem(line: str) -> str | None:
    """What is wrong with `line`, where TOML cannot read it, if it is a mistake of a known shape; else None.
    The line it says to write is one TOML reads (checked here): a shape it cannot mend says nothing."""
    m = _KEY_VALUE.match(line)
    if m is None or _reads(line):   # (a line TOML reads alone is wrong elsewhere: a key given twice)
        return None
    key, value = m.groups()
    if not value.startswith(("\"", "'", "[")) and "#" in value:
        value = value.split("#", 1)[0].rstrip()   # a comment after a bare value
    if not value:
        return None
    is_date, day = written_date(value)
    if is_date:
        if day is None:
            return _("{key} = {value} is not a date: write it YYYY-MM-DD (year, month, day), a day the calendar "
                     "has, as 2009-01-15").format(key=key, value=value)
        return _("{key} = {value} is not a date TOML reads: write it YYYY-MM-DD, {day}").format(
            key=key, value=value, day=day.isoformat())
    said, fixed = _mended(value)
    if said is None or not _reads(f"{key} = {fixed}"):
        return None
    return said.format(key=key, value=value, fixed=fixed)


def _mended(value: str) -> tuple[str | None, str]:
    """(the message, with {key}, {value} and {fixed} to fill, and the value as TOML writes it), or (None, "")."""
    if value[0] in _QUOTES and value[-1] in _QUOTES or value[0] == "[" and any(c in _QUOTES for c in value):
        # “ashot”, [“anna”, “boris”]: those quotes meant as TOML's
        return _("{key}: TOML quotes text with straight double quotes (\"), not “ ”: {key} = {fixed}"), value.translate(_CURLY)
    if value[0] == "[" and value[-1] == "]":
        items = _ITEM.findall(value[1:-1])
        fixed = "[" + ", ".join(item if item[0] in "\"'" or _number(item) else f'"{item}"' for item in items) + "]"
        if items and fixed != value:
            return (_("{key} = {value}: in an array each text is in double quotes and the items are separated by "
                      "commas: {key} = {fixed}"), fixed)
        return None, ""
    if value.casefold() in _YES_NO:
        return _("{key} = {value}: TOML's yes and no are true and false, in lower case: {key} = {fixed}"), _YES_NO[value.casefold()]
    if _BARE.fullmatch(value) and value not in ("true", "false", "inf", "nan"):
        return _("{key} = {value}: text goes in double quotes: {key} = {fixed}"), '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return None, ""


def _reads(line: str) -> bool:
    import tomllib

    try:
        tomllib.loads(line)
    except tomllib.TOMLDecodeError:
        return False
    return True


def _number(item: str) -> bool:
    return re.fullmatch(r"[+-]?\d[\d_]*(\.\d+)?", item) is not None or item in ("true", "false")
