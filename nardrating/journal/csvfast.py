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
from functools import partial
from itertools import chain
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..digits import decimal_number
from ..errors import Problem
from ..i18n import _, ngettext
from .csvcells import Judged, checked, coded, date_refused, extend_column, is_id, judged, length_cell, mapped, ordinal, plain_ids, player_refused
from .limits import MAX_CHIPS, MAX_NOTE, RULES, parse_result
from .textrules import Fault, fault_text, id_message, text_fault, valid_id

if TYPE_CHECKING:
    from .model import Journal

CSV_COLUMNS = ("id", "date", "player_a", "player_b", "result", "winner", "length",
               "discipline", "tournament", "rated", "forfeit", "chips", "note")
CSV_REQUIRED = ("date", "player_a", "player_b")
T = TypeVar("T")
_FLAGS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
MAX_PROBLEMS = 200


def _header_problem(header: list[str]) -> str | None:
    if len(header) == 1 and (";" in header[0] or "\t" in header[0]):   # (a spreadsheet's CSV where 1,5 is a number)
        return _("the header's cells are separated by {separator}, not by commas, as a journal's CSV file needs; save it "
                 "with commas, or import it (nardrating import FILE reads either)").format(
            separator="';'" if ";" in header[0] else _("tabs"))
    unknown = [h for h in header if h not in CSV_COLUMNS]
    missing = [h for h in CSV_REQUIRED if h not in header]
    parts = []
    if unknown:
        parts.append(ngettext("unknown column {columns}", "unknown columns {columns}", len(unknown)).format(
            columns=", ".join(map(repr, unknown))))
    if missing:
        parts.append(ngettext("missing column {columns}", "missing columns {columns}", len(missing)).format(
            columns=", ".join(missing)))
    if len(set(header)) != len(header):
        parts.append(_("a column is named twice"))
    if parts:
        return _("{problems}; the columns are: {columns}").format(problems="; ".join(parts),
                                                                   columns=", ".join(CSV_COLUMNS))
    if ("result" in header) == ("winner" in header):
        return _("the header needs exactly one of the columns result or winner")
    return None


def _row_lines(text: str, rows: list[list[str]], reader_lines: list[int] | None) -> list[int]:
    """The line of each data row: row k is on line k + 2 unless a cell spans lines."""
    return reader_lines if reader_lines is not None else list(range(2, len(rows) + 2))


# Characters of CSV converted at a time. Small enough that a block's cells (about 1,300 rows) stay
# in the processor's cache and their memory is reused by the next block: a 1M-row recalc takes 0.84x
# the CPU and 75 MB less memory than with 4M-character blocks (bench/, paired runs); 16K is slower again.
CHUNK = 1 << 16


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
                trial.append(Problem(label, None, _("uneven rows")))
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


def _convert(columns: Sequence[Sequence[str]], lines: Sequence[int], header: list[str], label: str, source: int,
             journal: Journal, default_discipline: str, problems: list[Problem],
             match_offset: int, seen_ids: set[str], memo: dict[str, Judged[Any]]) -> None:
    """Add one block of rows (as columns). `seen_ids`: the ids of this file's earlier blocks;
    `memo`: the converted texts of its columns (see Judged)."""
    count_before = len(problems)

    def bad(k: int, message: str | Callable[[], str], match_id: str | None = None) -> bool:
        """Report row k's problem, up to MAX_PROBLEMS a file; `message()` words it only then (translated
        when reported, not for every row of a column that fails a million times). False once the file
        has its fill: a loop over failing rows stops there, as nothing more would be reported."""
        if len(problems) - count_before < MAX_PROBLEMS:
            problems.append(Problem(label, lines[k], message() if callable(message) else message, match_id))
        return len(problems) - count_before < MAX_PROBLEMS

    col = {name: k for k, name in enumerate(header)}
    n = len(columns[0])
    stem = Path(label).stem

    ids = list(columns[col["id"]]) if "id" in col else [""] * n
    missing = "" in ids
    if "id" in col and not plain_ids([x for x in ids if x] if missing else ids):
        for k, given in enumerate(ids):
            ids[k] = given = given.strip()
            if given and not valid_id(given):
                bad(k, partial(_id_refused, "id", given))
        missing = "" in ids
    if missing:  # no id: derived from the file and the row's position, as for TOML
        for k in [k for k, match_id in enumerate(ids) if not match_id]:
            ids[k] = f"{stem}-{match_offset + k + 1}"

    # Dates: parse each distinct text once.
    date_col = columns[col["date"]]
    ordinals = judged(memo, "date", ordinal)
    dates = list(map(ordinals.__getitem__, date_col))
    if ordinals.refused:
        for k, text_date in enumerate(date_col):
            if ordinals[text_date] is None and not bad(k, partial(date_refused, text_date), ids[k]):
                break

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

    codes = judged(memo, "player", player_code, -1)
    before = len(journal.player_codes), len(codes), len(journal.csv_named)
    a = list(map(codes.__getitem__, a_col))
    b = list(map(codes.__getitem__, b_col))
    if len(journal.player_codes) > before[0] or len(journal.csv_named) > before[2]:
        a, b = _in_row_order(journal, codes, a_col, b_col, before)
    if codes.refused:
        refused = {name for name, code in codes.items() if code == -1 and name.strip()}
        said: set[str] = set()  # a refused name is reported once, at its first row
        for k in range(n):
            if a[k] == -1 or b[k] == -1:
                cells = (("player_a", a_col[k]), ("player_b", b_col[k]))
                if not any(cell in refused for _column, cell in cells):
                    bad(k, _both_named, ids[k])
                for column, cell in cells:
                    if cell in refused and cell not in said:
                        said.add(cell)
                        bad(k, partial(player_refused, column, cell.strip()), ids[k])
                if len(problems) - count_before >= MAX_PROBLEMS:
                    break

    # Results: "1-0" etc., or the winner's name.
    if "result" in col:
        result_col = columns[col["result"]]
        scores_of = judged(memo, "result", parse_result)
        scores = list(map(scores_of.__getitem__, result_col))
        if scores_of.refused:
            for k, text_result in enumerate(result_col):
                if scores[k] is None and not bad(k, partial(_result_refused, text_result), ids[k]):
                    break
    else:
        winner_col = columns[col["winner"]]
        scores = [1.0 if w == x else 0.0 if w == y else None for w, x, y in zip(winner_col, a_col, b_col)]
        for k in [k for k, s in enumerate(scores) if s is None]:
            if not bad(k, partial(_winner_refused, winner_col[k], a_col[k], b_col[k]), ids[k]):
                break

    lengths = mapped(columns, col, "length", n, memo, length_cell, bad, ids,
                      lambda s: _("length: {value!r} is not {rule}").format(value=s, rule=_(RULES["length"])))
    rated = mapped(columns, col, "rated", n, memo, lambda s: _FLAGS.get(s.strip().lower(), True if not s.strip() else None),
                    bad, ids, lambda s: _("rated {value!r} must be true or false").format(value=s))
    forfeit = mapped(columns, col, "forfeit", n, memo,
                      lambda s: _FLAGS.get(s.strip().lower(), False if not s.strip() else None),
                      bad, ids, lambda s: _("forfeit {value!r} must be true or false").format(value=s))
    discipline = mapped(columns, col, "discipline", n, memo,
                         lambda s: coded(journal.discipline_codes, s.strip() or default_discipline, s.strip()),
                         bad, ids, partial(_id_refused, "discipline"))
    tournament = mapped(columns, col, "tournament", n, memo,
                         lambda s: coded(journal.tournament_codes, s.strip(), s.strip()) if s.strip() else -1,
                         bad, ids, partial(_id_refused, "tournament"))
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
                fault = text_fault(value, MAX_NOTE, multiline=True)
                if fault:
                    bad(k, partial(_note_refused, fault), ids[k])
                extras.setdefault(k, {})["note"] = value.strip()
                continue
            chips = decimal_number(value)   # ASCII: float() would read "١٢" and "1_0"
            if chips is None or not 0 <= chips <= MAX_CHIPS:  # also refuses nan; inf is out of range
                bad(k, partial(_chips_refused, value), ids[k])
                continue
            extras.setdefault(k, {})["chips"] = chips
    if len(problems) > count_before:
        for k in [k for k in range(n) if a[k] == b[k] != -1]:   # (the block is not added: validate would not see it)
            bad(k, partial(_same_player, a_col[k].strip()), ids[k])
        if len(problems) - count_before >= MAX_PROBLEMS:
            problems.append(Problem(label, None, _("more than {most} problems in this file; the first are "
                                                   "listed").format(most=MAX_PROBLEMS)))
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
                bad(k, partial(_id_used, match_id, where), match_id)
            else:
                seen[match_id] = base + k
        return
    if journal._match_index is not None:
        journal._match_index.update(zip(ids, range(base, base + n)))
    first_seq = journal.next_seq + 1
    journal.next_seq += n
    # extend(), not +=: a cached journal keeps its columns as arrays.
    m.ids.extend(ids)
    journal.max_date = max(journal.max_date, max(checked(dates)))
    for target, values in ((m.dates, dates), (m.a, a), (m.b, b), (m.score_a, scores), (m.length, lengths),
                           (m.discipline, discipline), (m.tournament, tournament), (m.rated, rated),
                           (m.forfeit, forfeit), (m.seq, range(first_seq, first_seq + n)), (m.source, [source] * n),
                           (m.line, lines)):
        extend_column(target, values)
    for k, extra in extras.items():
        m.extra[base + k] = extra


# How a row's problem is worded, when it is reported (see bad in _convert).

def _in_row_order(journal: Journal, codes: Judged[int], a_col: Sequence[str], b_col: Sequence[str],
                  before: tuple[int, int, int]) -> tuple[list[int], list[int]]:
    """The block's player columns coded again, row by row (player_a, then player_b), after the
    players it met first were numbered (and named: journal.csv_named) column by column. Players are
    numbered and named in the order a reading of the rows one at a time meets them, so that a file
    read whole and a file read as its cached rows plus rows appended to its last block number and
    list them alike. Only a block that meets a player first pays for it: in a large file, its first few."""
    players, texts, named = before
    journal.player_codes.truncate(players)
    for text in list(codes)[texts:]:
        del codes[text]
    for name in list(journal.csv_named)[named:]:
        del journal.csv_named[name]
    both = list(map(codes.__getitem__, chain.from_iterable(zip(a_col, b_col))))
    return both[0::2], both[1::2]


def _id_refused(column: str, text: str) -> str:
    return f"{column}: " + id_message(text.strip())


def _both_named() -> str:
    return _("player_a and player_b must both be named")


def _result_refused(text: str) -> str:
    return _("result {result!r} is not a result; write 1-0, 0-1 or 1/2-1/2").format(result=text)


def _winner_refused(winner: str, a: str, b: str) -> str:
    if not winner.strip():
        return _("no winner: write the winner's id, {a!r} or {b!r}").format(a=a, b=b)
    return _("winner {winner!r} is neither {a!r} nor {b!r}").format(winner=winner, a=a, b=b)


def _same_player(player: str) -> str:
    return _("a match needs two different players, not {player!r} against themself").format(player=player)


def _note_refused(fault: Fault) -> str:
    return "note: " + fault_text(fault)


def _chips_refused(text: str) -> str:
    return _("chips: {value!r} is not {rule}").format(value=text.strip(), rule=_(RULES["chips"]))


def _id_used(match_id: str, where: str) -> str:
    return _("match id {id!r} is already used at {where}").format(id=match_id, where=where)


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
        problems.append(Problem(label, reader.line_num, _("CSV cannot be read: {error}").format(error=exc)))
        return [], [], []
    # Row k is on line k + 2 unless a quoted cell spans lines; then count them.
    if text.count("\n") - (not text.endswith("\n")) + 1 == len(rows) + 1 or "\"" not in text:
        lines = list(range(2, len(rows) + 2))
    else:
        lines = []
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        next(reader)
        for _row in reader:
            lines.append(reader.line_num)
    width = len(header)
    if any(len(r) != width for r in rows):
        keep_rows, keep_lines = [], []
        for row, line in zip(rows, lines):
            if len(row) == width:
                keep_rows.append(row)
                keep_lines.append(line)
            elif row:
                problems.append(Problem(label, line, _("the row has {cells} cells, the header {width}").format(
                    cells=len(row), width=width)))
        rows, lines = keep_rows, keep_lines
    return rows, lines, header
