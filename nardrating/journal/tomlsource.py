"""Reading TOML with the line numbers that tomllib does not give.

tomllib returns plain data; to say ``FILE:LINE`` we scan the text once for
table headers (``[club]``, ``[rating.x]``, ``[[match]]``) and keys.
"""
from __future__ import annotations

import re
import reprlib
import tomllib
from pathlib import Path
from typing import Any

from ..errors import Problem

# One greedy run up to the first "]" and no nested quantifiers, so a hostile line of
# a million spaces is matched in linear time (a lazy group before \s*\] is quadratic).
_HEADER = re.compile(r"^\s*(\[\[?)([^\]]+)\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+|\"[^\"]*\")\s*=")


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 80
_SHORT.maxlong = 40


def shown(value: object) -> str:
    """A value quoted in a message, cut short: a 10 MB string or a deep array is not echoed whole."""
    return _SHORT.repr(value)


def decode_problem(path: str, exc: tomllib.TOMLDecodeError) -> Problem:
    """Turn tomllib's '... (at line 3, column 7)' into FILE:LINE: message."""
    text = str(exc)
    m = re.search(r"\(at line (\d+), column (\d+)\)", text)
    line = int(m[1]) if m else None
    message = re.sub(r"\s*\(at line \d+, column \d+\)", "", text)
    if m is None and "end of document" in text:
        message = text
    return Problem(path, line, f"TOML syntax error: {message}")


def read_text(path: str | Path, problems: list[Problem], label: str | None = None) -> str | None:
    """The file's text as UTF-8 (a BOM is accepted), or None with a problem."""
    from ..errors import unreadable
    from ..safefile import read_regular

    label = label or str(path)
    try:
        data, _ = read_regular(path)  # a FIFO would block until written to: refused at once
    except FileNotFoundError:
        problems.append(Problem(label, None, "file not found"))
        return None
    except OSError as exc:
        problems.append(unreadable(label, path, exc, "a club config"))
        return None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        problems.append(Problem(label, line, "the file is not UTF-8 text; save it as UTF-8"))
        return None


def parse_toml(text: str, label: str, problems: list[Problem]) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problems.append(decode_problem(label, exc))
    except RecursionError:
        problems.append(Problem(label, None, "TOML cannot be read: arrays or tables are nested too deeply"))
    except MemoryError:
        problems.append(Problem(label, None, "TOML cannot be read: the file is too large"))
    except ValueError:  # tomllib lets int() refuse a number of thousands of digits
        problems.append(Problem(label, None, "TOML cannot be read: a number is too long"))
    return None


def header_lines(text: str) -> dict[str, list[int]]:
    """For each table name, the 1-based lines of its headers, in order.

    ``[[match]]`` appears once per entry, so the n-th match table is
    ``header_lines(text)["match"][n]``.
    """
    found: dict[str, list[int]] = {}
    in_multiline = False
    for number, line in enumerate(text.splitlines(), start=1):
        # Skip the insides of multi-line strings, which may hold "[x]" lines.
        if line.count('"""') % 2 == 1 or line.count("'''") % 2 == 1:
            in_multiline = not in_multiline
            continue
        if in_multiline:
            continue
        m = _HEADER.match(line)
        if m:
            name = ".".join(part.strip().strip('"') for part in m[2].split("."))
            found.setdefault(name, []).append(number)
    return found


def key_line(text: str, header_line: int | None, key: str) -> int | None:
    """The line of `key = ...` inside the table that starts at `header_line`."""
    if header_line is None:
        return None
    lines = text.splitlines()
    for number in range(header_line, len(lines)):
        line = lines[number]
        if _HEADER.match(line):
            break
        m = _KEY.match(line)
        if m and m[1].strip('"') == key:
            return number + 1
    return header_line
