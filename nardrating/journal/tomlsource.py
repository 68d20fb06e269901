"""Reading TOML with the line numbers that tomllib does not give.

tomllib returns plain data; to say ``FILE:LINE`` we scan the text once for
table headers (``[club]``, ``[rating.x]``, ``[[match]]``) and keys.
"""
from __future__ import annotations

import re
import reprlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import Problem
from ..i18n import N_, _

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


def decode_problem(path: str, exc: ValueError, source: str | None = None) -> Problem:  # a tomllib.TOMLDecodeError
    """Turn tomllib's '... (at line 3, column 7)' into FILE:LINE: message; a line written by hand in a
    known wrong shape (a date as on paper, text without quotes: tomlhints) in plain words."""
    text = str(exc)
    m = re.search(r"\(at line (\d+), column (\d+)\)", text)
    line = int(m[1]) if m else None
    if line is not None and source is not None:
        from .tomlhints import hand_written_problem

        lines = source.split("\n", line)   # (up to that line only: a journal may be large)
        said = hand_written_problem(lines[line - 1].removesuffix("\r") if len(lines) >= line else "")  # (CRLF: Notepad)
        if said is not None:
            return Problem(path, line, said)
    message = re.sub(r"\s*\(at line \d+, column \d+\)", "", text)
    if m is None and "end of document" in text:
        message = text
    return Problem(path, line, _("TOML syntax error: {message}").format(message=message))  # tomllib's words: English


def read_text(path: str | Path, problems: list[Problem], label: str | None = None) -> str | None:
    """The file's text as UTF-8 (a BOM is accepted), or None with a problem."""
    from ..errors import unreadable
    from ..safefile import read_regular

    label = label or str(path)
    try:
        data, _stat = read_regular(path)  # a FIFO would block until written to: refused at once
    except FileNotFoundError:
        problems.append(Problem(label, None, _("file not found")))
        return None
    except OSError as exc:
        problems.append(unreadable(label, path, exc, N_("a club config")))
        return None
    return decode(data, label, problems)


def decode(raw: bytes, label: str, problems: list[Problem], line_offset: int = 0) -> str | None:
    """UTF-8 text (a leading BOM is dropped), or None with a problem at the line of the first bad byte."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(Problem(label, line_offset + raw[: exc.start].count(b"\n") + 1, not_utf8(raw, exc.start, label)))
        return None


def not_utf8(raw: bytes, at: int, file: str) -> str:
    """The words for a journal or config that is not UTF-8, and how to put it right (see iconv_fields)."""
    return _("the file is not UTF-8 text (byte 0x{byte:02x}); it reads as {what} ({encoding}): save it as UTF-8, "
             "e.g. iconv -f {encoding} -t utf-8 {file} > {converted}, and put that file in its place").format(
                 **iconv_fields(raw, at, file))


def iconv_fields(raw: bytes, at: int, file: str) -> dict[str, object]:
    """What a message about a file that is not UTF-8 says: the first bad byte, the 8-bit encoding the
    file likely is (one sent from a Windows machine) in words, and the names for the iconv command
    that converts it."""
    encoding, what = likely_single_byte(raw)
    name = Path(file)
    return {"byte": raw[at], "what": _(what), "encoding": encoding, "file": file if name.suffix else "FILE",
            "converted": str(name.with_name(f"{name.stem}-utf8{name.suffix}")) if name.suffix else "FILE-utf8"}


def likely_single_byte(raw: bytes) -> tuple[str, str]:
    """The likely 8-bit encoding of a file that is not UTF-8, and its name in words: Cyrillic words are
    runs of bytes over 0x7f (cp1251), a Western name has one here and there between ASCII letters
    (cp1252: Müller)."""
    high = [k for k, byte in enumerate(raw) if byte > 0x7F]
    in_runs = sum(1 for k in high if (k > 0 and raw[k - 1] > 0x7F) or (k + 1 < len(raw) and raw[k + 1] > 0x7F))
    if in_runs * 2 > len(high):
        return "cp1251", N_("Windows Cyrillic")
    return "cp1252", N_("Windows Western European")


# A dotted key costs tomllib time and memory quadratic in its parts (30,000 parts: 14 s, 5 GB), and
# nesting costs it a frame a level: both are bounded before parsing. No journal or config needs
# more than a few (rating.club.k; [[3, 25], [6, 50]]).
MAX_KEY_PARTS = 16
MAX_NESTING = 32
_PART = r"""(?:[A-Za-z0-9_-]++|"(?:[^"\\\n]|\\.)*+"|'[^'\n]*+')"""
_KEY_RUN = re.compile(rf"{_PART}(?:[ \t]*+\.[ \t]*+{_PART})*+")
# The text reduced to its newlines and dots: a line with more of them than a key may hold is found
# by one substring search, in C, over the whole file. Reduced to its brackets ({} as []), pairs
# taken out MAX_NESTING times leave an opener only where nesting is deeper (or a bracket is in a
# string or comment, which the lexer then tells apart).
_NOT_DOT = bytes(set(range(256)) - {ord("."), ord("\n")})
_NOT_BRACKET = bytes(set(range(256)) - set(b"[]{}"))
_BRACKETS_ALIKE = bytes.maketrans(b"{}", b"[]")


def too_deep(text: str, nesting: bool = False) -> tuple[int, str] | None:
    """(line, message) of the first key of more than MAX_KEY_PARTS dotted parts, or of arrays and
    inline tables nested more than MAX_NESTING deep, outside strings and comments; None if there is
    none. Linear: the text reduced in C (see above) shows whether there may be any, and the lines
    where; the lexer decides (`nesting`: look for nesting in any case)."""
    raw = text.encode("utf-8", "surrogatepass")
    dotted = set(_lines_with(raw.translate(None, _NOT_DOT), b"." * MAX_KEY_PARTS))
    nested = nesting or _maybe_nested(raw.translate(_BRACKETS_ALIKE, _NOT_BRACKET))
    if not dotted and not nested:
        return None  # the usual case, decided in C
    state: str | None = None
    depth = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if state is None and number in dotted:
            found = max((m[0].count(".") + 1 for m in _KEY_RUN.finditer(_code(line))), default=0)
            if found > MAX_KEY_PARTS:
                return number, _("TOML cannot be read: a key of {parts} dotted parts (a.b.c…); a key has at most "
                                 "{most}").format(parts=found, most=MAX_KEY_PARTS)
        if state is not None or depth or '"""' in line or "'''" in line or number in dotted or \
                nested and ("[" in line or "{" in line):
            state, depth = lex_line(line, state, depth, MAX_NESTING + 1)
        if depth > MAX_NESTING:
            return number, _("TOML cannot be read: arrays or inline tables nested more than {most} deep").format(
                most=MAX_NESTING)
    return None


def _maybe_nested(brackets: bytes) -> bool:
    """Whether brackets alone (as "[" and "]") may nest more than MAX_NESTING deep."""
    for _level in range(MAX_NESTING):
        fewer = brackets.replace(b"[]", b"")
        if len(fewer) == len(brackets):
            break
        brackets = fewer
    return b"[" in brackets


def _lines_with(reduced: bytes, run: bytes) -> Iterator[int]:
    """The numbers of the lines of `reduced` (newlines and one other byte) that hold `run`."""
    start, line = 0, 1
    while (k := reduced.find(run, start)) >= 0:
        line += reduced.count(b"\n", start, k)
        yield line
        start = reduced.find(b"\n", k)
        if start < 0:
            return


def _code(line: str) -> str:
    """A line that starts outside strings, its strings emptied ("", '') and its comment dropped:
    what is left of it is keys, values and punctuation."""
    out, pos = [], 0
    for m in _INTERESTING.finditer(line):
        if m.start() < pos:
            continue
        ch = m[0]
        out.append(line[pos:m.start()])
        if ch == "#":
            return "".join(out)
        if ch == '"' and not line.startswith('"""', m.start()):
            basic = _BASIC.match(line, m.start())
            pos = basic.end() if basic else len(line)
            out.append('""')
        elif ch == "'" and not line.startswith("'''", m.start()):
            close = line.find("'", m.start() + 1)
            pos = close + 1 if close >= 0 else len(line)
            out.append("''")
        elif ch in "\"'":
            return "".join(out)  # a multi-line string starts: no key after it on this line
        else:
            out.append(ch)
            pos = m.end()
    out.append(line[pos:])
    return "".join(out)


def parse_toml(text: str, label: str, problems: list[Problem]) -> dict[str, Any] | None:
    import tomllib  # (here: a command that reads the cached config and journal parses no TOML)

    deep = too_deep(text)
    if deep is not None:
        problems.append(Problem(label, deep[0], deep[1]))
        return None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problems.append(decode_problem(label, exc, text))
    except RecursionError:
        deep = too_deep(text, nesting=True)
        problems.append(Problem(label, deep[0], deep[1]) if deep is not None else
                        Problem(label, None, _("TOML cannot be read: arrays or tables are nested too deeply")))
    except MemoryError:
        problems.append(Problem(label, None, _("TOML cannot be read: the file is too large")))
    except ValueError:  # tomllib lets int() refuse a number of thousands of digits
        problems.append(Problem(label, None, _("TOML cannot be read: a number is too long")))
    return None


def header_lines(text: str) -> dict[str, list[int]]:
    """For each table name, the 1-based lines of its headers, in order.

    ``[[match]]`` appears once per entry, so the n-th match table is
    ``header_lines(text)["match"][n]``. A header is a line that starts with "[" outside any string,
    array or inline table, lexed as TOML is (a note holding ''' in quotes, or [[match]] inside a
    multi-line string, makes no header); lines are counted as TOML counts them, at newlines only.
    """
    found: dict[str, list[int]] = {}
    state: str | None = None   # inside a multi-line string: its quotes
    depth = 0                  # open arrays and inline tables
    for number, line in enumerate(text.split("\n"), start=1):
        if state is None and depth == 0:
            m = _HEADER.match(line)
            if m:
                name = ".".join(part.strip().strip('"') for part in m[2].split("."))
                found.setdefault(name, []).append(number)
                if '"' not in line and "'" not in line:
                    continue  # a plain header: nothing on it opens a string or an array
            elif "[" not in line and "{" not in line and '"""' not in line and "'''" not in line:
                continue  # key = "value": strings that end on their line, no array (the usual line)
        state, depth = lex_line(line, state, depth)
    return found


_INTERESTING = re.compile(r"""["'#\[\]{}]""")
_BASIC = re.compile(r'"(?:[^"\\]|\\.)*"')
_ML_BASIC_END = re.compile(r'\\.|\\$|"{3,}')


def lex_line(line: str, state: str | None, depth: int, deepest: int | None = None) -> tuple[str | None, int]:
    """After one line of TOML: the multi-line string it leaves open (its quotes, or None) and how
    many arrays and inline tables are open, given those at its start (or, with `deepest`, the
    first depth past it, where the line is left)."""
    pos, end = 0, len(line)
    while pos < end:
        if state == '"""':
            m = _ML_BASIC_END.search(line, pos)
            while m is not None and m[0].startswith("\\"):  # an escape, not a closing quote
                m = _ML_BASIC_END.search(line, m.end())
            if m is None:
                return state, depth
            state, pos = None, m.end()  # up to two quotes before the closing three are content
        elif state == "'''":
            k = line.find("'''", pos)
            if k < 0:
                return state, depth
            pos = k + 3
            while pos < end and pos < k + 5 and line[pos] == "'":
                pos += 1
            state = None
        else:
            m = _INTERESTING.search(line, pos)
            if m is None:
                break
            k, ch = m.start(), m[0]
            if ch == "#":
                break  # a comment, to the end of the line
            if ch in "[{":
                depth, pos = depth + 1, k + 1
                if deepest is not None and depth >= deepest:
                    return state, depth
            elif ch in "]}":
                depth, pos = max(depth - 1, 0), k + 1
            elif line.startswith(ch * 3, k):
                state, pos = ch * 3, k + 3
            elif ch == '"':
                basic = _BASIC.match(line, k)
                if basic is None:
                    break  # an unclosed string is no TOML: the parser says so
                pos = basic.end()
            else:
                close = line.find("'", k + 1)
                if close < 0:
                    break
                pos = close + 1
    return state, depth


def _header_starts(text: str) -> Iterator[tuple[int, int, str]]:
    """(line number, offset, line) of each header line, lexed as header_lines does."""
    state: str | None = None
    depth = offset = 0
    number = 1
    while offset <= len(text):  # line by line, not split at once: root_keys stops at the first header
        end = text.find("\n", offset)
        end = len(text) if end < 0 else end
        line = text[offset:end]
        if state is None and depth == 0 and _HEADER.match(line):
            yield number, offset, line
        if state is not None or depth or "[" in line or "{" in line or '"""' in line or "'''" in line:
            state, depth = lex_line(line, state, depth)
        offset, number = end + 1, number + 1


_BLANK_OR_COMMENT = re.compile(r"(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*(?:#[^\n]*)?\r?")


def root_keys(text: str) -> dict[str, int] | None:
    """The keys a TOML document sets before its first table header, with their lines (`player =
    [{id = "anna"}]` gives "player"), or None where that part does not read alone. A [[player]]
    table cannot follow such a key, in the same file or appended to it."""
    end = next((offset for _number, offset, _line in _header_starts(text)), len(text))
    root = text[:end]
    if _BLANK_OR_COMMENT.fullmatch(root):
        return {}  # the usual case: comments, then the entries
    problems: list[Problem] = []
    data = parse_toml(root, "", problems)
    if data is None:
        return None
    return {key: key_line(root, 1, key) or 1 for key in data}


def table_roots(text: str) -> set[str] | None:
    """The top-level names of the tables the text's headers open (`[[match]]`, `[player.x]`: "match",
    "player"), or None where a header does not read alone."""
    roots = set()
    for _number, _offset, line in _header_starts(text):
        if '"' not in line and "'" not in line:
            roots.add(line.strip().lstrip("[").split(".")[0].split("]")[0].strip())
            continue
        data = parse_toml(line, "", [])  # a quoted name, escapes and all, as TOML reads it
        if data is None or len(data) != 1:
            return None
        roots.update(data)
    return roots


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
