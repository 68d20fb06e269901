"""The bulk path for CSV journals: a million rows column by column.

Building a Python object per row costs seconds per million; here the rows are
parsed by the csv module, turned into columns with zip, and each column is
converted once per distinct value (a journal has a few thousand dates, a few
lengths, a handful of results) through a dict that converts a text the first time
it meets it (`Judged`), kept for the whole file. Problems are reported by row.
"""
from __future__ import annotations

import csv
import io
import json
import re
from array import array
from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..errors import Problem
from .entries import (FIRST_DAY, LAST_DAY, MAX_CHIPS, MAX_ID, MAX_LENGTH, MAX_NOTE, RULES, id_message, id_problem,
                      parse_result, text_problem)

if TYPE_CHECKING:
    from .columns import Codes
    from .model import Journal

CSV_COLUMNS = ("id", "date", "player_a", "player_b", "result", "winner", "length",
               "discipline", "tournament", "rated", "forfeit", "chips", "note")
CSV_REQUIRED = ("date", "player_a", "player_b")
T = TypeVar("T")
_FLAGS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
MAX_PROBLEMS = 200


def _header_problem(header: list[str]) -> str | None:
    unknown = [h for h in header if h not in CSV_COLUMNS]
    missing = [h for h in CSV_REQUIRED if h not in header]
    parts = []
    if unknown:
        parts.append(f"unknown column(s) {', '.join(map(repr, unknown))}")
    if missing:
        parts.append(f"missing column(s) {', '.join(missing)}")
    if len(set(header)) != len(header):
        parts.append("a column is named twice")
    if parts:
        return "; ".join(parts) + f"; the columns are: {', '.join(CSV_COLUMNS)}"
    if ("result" in header) == ("winner" in header):
        return "the header needs exactly one of the columns result or winner"
    return None


def _row_lines(text: str, rows: list[list[str]], reader_lines: list[int] | None) -> list[int]:
    """The line of each data row: row k is on line k + 2 unless a cell spans lines."""
    return reader_lines if reader_lines is not None else list(range(2, len(rows) + 2))


CHUNK = 4 << 20  # characters of CSV converted at a time: bounds the memory of the split cells


def read_csv_rows(text: str, label: str, source: int, journal: Journal, default_discipline: str,
                  problems: list[Problem], line_offset: int = 0, match_offset: int = 0) -> None:
    plain = _plain_header(text)
    if plain is not None:
        # The plain split cannot tell which row is malformed: on any problem, read again carefully.
        header, body_start, crlf = plain
        trial: list[Problem] = []
        snapshot = journal.checkpoint()
        seen_ids: set[str] = set()
        memo: dict[str, Judged[Any]] = {}  # each column's converted texts, for every block of the file
        first_line, first_offset = 2 + line_offset, match_offset
        for columns, count in _plain_chunks(text, body_start, len(header), crlf):
            if columns is None:
                trial.append(Problem(label, None, "uneven rows"))
                break
            _convert(columns, range(first_line, first_line + count), header, label, source, journal,
                     default_discipline, trial, match_offset, seen_ids, memo)
            if trial:
                break
            first_line += count
            match_offset += count
        if not trial:
            if not snapshot[5]:  # the file holds every match so far: its id set is the journal's
                journal._id_set = seen_ids
            return
        journal.rollback(snapshot)
        match_offset = first_offset
    rows, lines, header = _parse(text, label, problems)
    if rows:
        lines = [line + line_offset for line in lines]
        _convert(list(zip(*rows)), lines, header, label, source, journal, default_discipline, problems,
                 match_offset, set(), {})


def _plain_header(text: str) -> tuple[list[str], int, bool] | None:
    """(header, where the rows start, CRLF?) for a CSV with no quotes and one line ending; else None.

    CRLF files (Python's csv.writer, Excel) qualify when every CR is part of a CRLF: the
    csv module reads a lone CR as a line end of its own, which the careful path handles.
    """
    if '"' in text:
        return None
    newline = text.find("\n")
    if newline < 0:
        return None
    crlf = text[newline - 1:newline] == "\r"
    if crlf:  # counted, not replaced: no copy of a million-row text
        if text.count("\r") != text.count("\r\n") or text.count("\r\n") != text.count("\n") or \
                "\r\n\r\n" in text:
            return None
    elif "\r" in text or "\n\n" in text:
        return None
    header = [h.strip().lower() for h in text[:newline].split(",")]
    if _header_problem(header):
        return None
    return header, newline + 1, crlf


def _plain_chunks(text: str, start: int, width: int, crlf: bool = False) -> Iterator[tuple[list[list[str]] | None, int]]:
    """Columns of about CHUNK characters of rows at a time, each by one split: (columns, rows).

    Yields (None, 0) when a chunk's cells do not divide into rows of `width`. In CRLF text
    every CR is part of a CRLF (see _plain_header): the chunk ends before the CR of its last
    line end, and its CRLFs are replaced as LFs are, in the same one pass.
    """
    end = len(text) - 1 if text.endswith("\n") else len(text)
    newline = "\r\n" if crlf else "\n"
    while start < end:
        stop = text.find("\n", min(start + CHUNK, end))
        stop = end if stop < 0 or stop > end else stop
        body = text[start:stop - 1 if crlf and text[stop - 1] == "\r" else stop]
        rows = body.count(newline) + 1
        if body.count(",") != rows * (width - 1):
            yield None, 0
            return
        flat = body.replace(newline, ",").split(",")
        del body
        yield [flat[k::width] for k in range(width)], rows
        del flat
        start = stop + 1


class Judged(dict[str, T]):
    """text → convert(text), each distinct text converted once, when first looked up.

    One pass of map(judged.__getitem__, column) in C converts a column: no set of its
    texts is built first, and a text met in an earlier block of the file is not judged again.
    """

    __slots__ = ("convert",)

    def __init__(self, convert: Callable[[str], T]) -> None:
        super().__init__()
        self.convert = convert

    def __missing__(self, text: str) -> T:
        value = self[text] = self.convert(text)
        return value


def _judged(memo: dict[str, Judged[Any]], name: str, convert: Callable[[str], T]) -> Judged[T]:
    """The file's converter of column `name` (made on first use)."""
    if name not in memo:
        memo[name] = Judged(convert)
    return memo[name]


def _convert(columns: Sequence[Sequence[str]], lines: Sequence[int], header: list[str], label: str, source: int,
             journal: Journal, default_discipline: str, problems: list[Problem],
             match_offset: int, seen_ids: set[str], memo: dict[str, Judged[Any]]) -> None:
    """Add one block of rows (as columns). `seen_ids`: the ids of this file's earlier blocks;
    `memo`: the converted texts of its columns (see Judged)."""
    count_before = len(problems)

    def bad(k: int, message: str, match_id: str | None = None) -> None:
        if len(problems) - count_before < MAX_PROBLEMS:
            problems.append(Problem(label, lines[k], message, match_id))

    col = {name: k for k, name in enumerate(header)}
    n = len(columns[0])
    stem = Path(label).stem

    ids = list(columns[col["id"]]) if "id" in col else [""] * n
    missing = "" in ids
    if "id" in col and not _plain_ids([x for x in ids if x] if missing else ids):
        for k, given in enumerate(ids):
            ids[k] = given = given.strip()
            if given and id_problem(given):
                bad(k, f"id: {id_message(given)}")
        missing = "" in ids
    if missing:  # no id: derived from the file and the row's position, as for TOML
        for k in [k for k, match_id in enumerate(ids) if not match_id]:
            ids[k] = f"{stem}-{match_offset + k + 1}"

    # Dates: parse each distinct text once.
    date_col = columns[col["date"]]
    ordinals = _judged(memo, "date", _ordinal)
    dates = list(map(ordinals.__getitem__, date_col))
    if None in ordinals.values():
        for k, text_date in enumerate(date_col):
            if ordinals[text_date] is None:
                bad(k, _date_refused(text_date), ids[k])

    # Players: codes for each distinct name; undeclared ones are created later, so each
    # must be an id that a [[player]] could declare.
    a_col, b_col = columns[col["player_a"]], columns[col["player_b"]]
    known = journal.player_codes.index  # ids, each checked once (by a TOML entry, or when first met here)

    def player_code(name: str) -> int:
        """The player's code; -1 for an empty cell or a name that is not an id."""
        clean = name.strip()
        code = known.get(clean)
        if code is None:
            if not is_id(clean):
                return -1
            code = journal.player_codes.code(clean)
        journal.csv_named.setdefault(clean, (label, None))
        return code

    codes = _judged(memo, "player", player_code)
    a = list(map(codes.__getitem__, a_col))
    b = list(map(codes.__getitem__, b_col))
    if -1 in codes.values():
        refused = {name for name, code in codes.items() if code == -1 and name.strip()}
        said: set[str] = set()  # a refused name is reported once, at its first row
        for k in range(n):
            if a[k] == -1 or b[k] == -1:
                cells = (("player_a", a_col[k]), ("player_b", b_col[k]))
                if not any(cell in refused for _, cell in cells):
                    bad(k, "player_a and player_b must both be named", ids[k])
                for column, cell in cells:
                    if cell in refused and cell not in said:
                        said.add(cell)
                        bad(k, _player_refused(column, cell.strip()), ids[k])

    # Results: "1-0" etc., or the winner's name.
    if "result" in col:
        result_col = columns[col["result"]]
        scores_of = _judged(memo, "result", parse_result)
        scores = list(map(scores_of.__getitem__, result_col))
        if None in scores_of.values():
            for k, text_result in enumerate(result_col):
                if scores[k] is None:
                    bad(k, f"result {text_result!r} is not a result; write 1-0, 0-1 or 1/2-1/2", ids[k])
    else:
        winner_col = columns[col["winner"]]
        scores = [1.0 if w == x else 0.0 if w == y else None for w, x, y in zip(winner_col, a_col, b_col)]
        for k in [k for k, s in enumerate(scores) if s is None]:
            bad(k, f"winner {winner_col[k]!r} is neither {a_col[k]!r} nor {b_col[k]!r}", ids[k])

    lengths = _mapped(columns, col, "length", n, memo, length_cell, bad, ids,
                      "length: {!r} is not " + RULES["length"])
    rated = _mapped(columns, col, "rated", n, memo, lambda s: _FLAGS.get(s.strip().lower(), True if not s.strip() else None),
                    bad, ids, "rated {!r} must be true or false")
    forfeit = _mapped(columns, col, "forfeit", n, memo,
                      lambda s: _FLAGS.get(s.strip().lower(), False if not s.strip() else None),
                      bad, ids, "forfeit {!r} must be true or false")
    discipline = _mapped(columns, col, "discipline", n, memo,
                         lambda s: _coded(journal.discipline_codes, s.strip() or default_discipline, s.strip()),
                         bad, ids, lambda s: f"discipline: {id_message(s.strip())}")
    tournament = _mapped(columns, col, "tournament", n, memo,
                         lambda s: _coded(journal.tournament_codes, s.strip(), s.strip()) if s.strip() else -1,
                         bad, ids, lambda s: f"tournament: {id_message(s.strip())}")
    if "discipline" not in col:
        discipline = [journal.discipline_codes.code(default_discipline)] * n
    extras: dict[int, dict[str, Any]] = {}  # as Matches.extra: chips, note
    for name in ("chips", "note"):
        if name not in col:
            continue
        for k, value in enumerate(columns[col[name]]):
            if not value.strip():
                continue
            if name == "note":
                problem = text_problem(value, MAX_NOTE, multiline=True)
                if problem:
                    bad(k, f"note: {problem}", ids[k])
                extras.setdefault(k, {})["note"] = value.strip()
                continue
            try:
                chips = float(value)
                if not 0 <= chips <= MAX_CHIPS:  # also refuses nan; inf is out of range
                    raise ValueError
            except ValueError:
                bad(k, f"chips: {value.strip()!r} is not {RULES['chips']}", ids[k])
                continue
            extras.setdefault(k, {})["chips"] = chips
    if len(problems) > count_before:
        if len(problems) - count_before >= MAX_PROBLEMS:
            problems.append(Problem(label, None, f"more than {MAX_PROBLEMS} problems in this file; the first are listed"))
        return

    m = journal.matches
    base = len(m.ids)
    earlier_files = base - len(seen_ids)  # matches read before this file
    # Into the file's set at once (each id hashed into one set): as many more as rows, or a clash.
    # On a clash the file is read no further, so what the set then holds does not matter.
    seen_ids.update(ids)
    if len(seen_ids) < base - earlier_files + n or (
            earlier_files and not seen_ids.isdisjoint(m.ids[:earlier_files])):
        seen = dict(journal.match_index)
        for k, match_id in enumerate(ids):
            if match_id in seen:
                first = seen[match_id]
                where = f"{journal.files[m.source[first]]}:{journal.line_of(first)}" if first < base else f"{label}:{lines[first - base]}"
                bad(k, f"match id {match_id!r} is already used at {where}", match_id)
            else:
                seen[match_id] = base + k
        return
    if journal._match_index is not None:
        journal._match_index.update(zip(ids, range(base, base + n)))
    first_seq = journal.next_seq + 1
    journal.next_seq += n
    # extend(), not +=: a cached journal keeps its columns as arrays.
    m.ids.extend(ids)
    journal.max_date = max(journal.max_date, max(_checked(dates)))
    for target, values in ((m.dates, dates), (m.a, a), (m.b, b), (m.score_a, scores), (m.length, lengths),
                           (m.discipline, discipline), (m.tournament, tournament), (m.rated, rated),
                           (m.forfeit, forfeit), (m.seq, range(first_seq, first_seq + n)), (m.source, [source] * n),
                           (m.line, lines)):
        _extend(target, values)
    for k, extra in extras.items():
        m.extra[base + k] = extra


def _extend(column: Sequence[Any], values: Iterable[object]) -> None:
    """column += values; into a machine array from a list at twice the speed of extend()."""
    if isinstance(column, array) and isinstance(values, list):
        column.fromlist(values)
    else:  # a list, or an array growable() made of a mapped view
        cast("MutableSequence[object]", column).extend(values)


def _checked(values: list[T | None]) -> list[T]:
    """A converted column once its rows' problems were reported: a None would have returned early."""
    return cast("list[T]", values)


_ID_BYTES = bytes(range(ord("0"), ord("9") + 1)) + bytes(range(ord("A"), ord("Z") + 1)) + \
    bytes(range(ord("a"), ord("z") + 1)) + b"_-"


_LONG_ID = re.compile(rb"\n[^\n]{%d}" % (MAX_ID + 1))
_PLAIN_ID = re.compile(r"[0-9A-Za-z_-]{1,%d}" % MAX_ID)  # fullmatch: no newline slips through as with $


def is_id(text: str) -> bool:
    """id_problem(text) is None: a plain ASCII id (most are) is known one at once, any other is judged by the rule."""
    return _PLAIN_ID.fullmatch(text) is not None or id_problem(text) is None


def _plain_ids(ids: list[str]) -> bool:
    """Are all these ids (none empty) plain ASCII ids, the usual bulk case? Decided in C, not id by id.

    False when some may not be: id_problem then judges each (the id rule is that function's).
    """
    if not ids:
        return True
    blob = "\n".join(ids)
    if not blob.isascii():
        return False
    data = blob.encode("ascii")
    # What is left are the separators, and nothing else (not even a newline inside a quoted cell);
    # then no id is longer than MAX_ID (one pass over contiguous bytes, not a million len() calls).
    return (len(data.translate(None, _ID_BYTES)) == len(ids) - 1 and len(ids[0]) <= MAX_ID
            and _LONG_ID.search(data) is None)


def _player_refused(column: str, name: str) -> str:
    example = "-".join("".join(ch if not id_problem(ch) else " " for ch in name.lower()).split())[:MAX_ID]
    example = example if example and not id_problem(example) else "player-1"
    return (f"{column}: {id_message(name)}. A CSV names players by id: declare the player in a TOML journal "
            f"with a valid id and this name ([[player]] id = \"{example}\", name = {json.dumps(name, ensure_ascii=False)})"
            " and write the id in this column")


def _coded(codes: Codes, name: str, given: str) -> int | None:
    """The code of a discipline or tournament id; None (with the reason kept) for one that breaks the id rule."""
    return None if given and id_problem(given) else codes.code(name)


_FIRST_ORDINAL, _LAST_ORDINAL = FIRST_DAY.toordinal(), LAST_DAY.toordinal()


def _ordinal(text: str) -> int | None:
    """A CSV `date` cell as a date's ordinal, or None where it is not a date the rules take."""
    value = text.strip()
    try:
        ordinal = date.fromisoformat(value).toordinal() if len(value) == 10 else None
    except ValueError:
        return None
    return ordinal if ordinal is None or _FIRST_ORDINAL <= ordinal <= _LAST_ORDINAL else None


def _date_refused(text: str) -> str:
    try:
        if len(text.strip()) != 10:
            raise ValueError
        date.fromisoformat(text.strip())
    except ValueError:
        return f"date {text!r} is not an ISO date like 2009-01-15"
    return f"date {text.strip()!r} is not {RULES['date']}"


def length_cell(text: str) -> int | None:
    """A CSV `length` cell as a match length (empty: 1), or None where it is not one; the fast reader uses it too."""
    try:
        value = int(text) if text.strip() else 1
    except ValueError:
        return None
    return value if 1 <= value <= MAX_LENGTH else None


def _mapped(columns: Sequence[Sequence[str]], col: dict[str, int], name: str, n: int, memo: dict[str, Judged[Any]],
            convert: Callable[[str], T | None], bad: Callable[[int, str, str | None], None], ids: list[str],
            message: str | Callable[[str], str]) -> list[T | None]:
    """Convert a column through the file's dict of its distinct values (Judged); report rows that fail."""
    if name not in col:
        return [convert("")] * n
    column = columns[col[name]]
    converted: Judged[T | None] = _judged(memo, name, convert)
    values = list(map(converted.__getitem__, column))
    if None in converted.values():
        for k, text in enumerate(column):
            if converted[text] is None:
                bad(k, message(text) if callable(message) else message.format(text), ids[k])
    return values


def _parse(text: str, label: str, problems: list[Problem]) -> tuple[list[list[str]], list[int], list[str]]:
    """(rows, their line numbers, header), or no rows ([], [], []) with a problem."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
        if header is None:
            return [], [], []
        header = [h.strip().lower() for h in header]
        message = _header_problem(header)
        if message:
            problems.append(Problem(label, 1, message))
            return [], [], []
        rows = list(reader)
    except csv.Error as exc:
        problems.append(Problem(label, reader.line_num, f"CSV cannot be read: {exc}"))
        return [], [], []
    # Row k is on line k + 2 unless a quoted cell spans lines; then count them.
    if text.count("\n") - (not text.endswith("\n")) + 1 == len(rows) + 1 or "\"" not in text:
        lines = list(range(2, len(rows) + 2))
    else:
        lines = []
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        next(reader)
        for _ in reader:
            lines.append(reader.line_num)
    width = len(header)
    if any(len(r) != width for r in rows):
        keep_rows, keep_lines = [], []
        for row, line in zip(rows, lines):
            if len(row) == width:
                keep_rows.append(row)
                keep_lines.append(line)
            elif row:
                problems.append(Problem(label, line, f"the row has {len(row)} cells, the header {width}"))
        rows, lines = keep_rows, keep_lines
    return rows, lines, header
