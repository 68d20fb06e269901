"""Read journal files (TOML by hand, CSV in bulk) into one `Journal`.

Problems are collected, never raised: each carries the file and the line of
the entry's ``[[match]]`` header or the CSV row.
"""
from __future__ import annotations

import csv
import gc
import io
from datetime import date
from pathlib import Path

from pydantic import ValidationError

from ..errors import Problem
from ..tomlsource import header_lines, key_line, parse_toml, read_text
from .entries import ENTRY_MODELS, parse_place, parse_result
from .model import Adjust, Journal, Placing, Player, Tournament, Void

CSV_COLUMNS = ("id", "date", "player_a", "player_b", "result", "winner", "length",
               "discipline", "tournament", "rated", "forfeit", "chips", "note")
CSV_REQUIRED = ("date", "player_a", "player_b")
_TRUE = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False, "": True}


def _pydantic_problems(exc: ValidationError, label: str, text: str, line: int | None,
                       kind: str, entry_id: str | None) -> list[Problem]:
    problems = []
    allowed = ", ".join(ENTRY_MODELS[kind].model_fields)
    for err in exc.errors():
        loc = [str(part) for part in err["loc"]]
        key = ".".join(loc)
        where = line  # the entry's [[kind]] header, as users look for it
        if err["type"] == "extra_forbidden":
            msg = f"[[{kind}]] has an unknown key {loc[0]!r}; allowed keys: {allowed}"
        elif err["type"] == "missing":
            msg = f"[[{kind}]] needs {key!r}"
        elif not loc:
            msg = err["msg"].removeprefix("Value error, ")
        else:
            msg = f"{key}: {err['msg']} (got {err.get('input')!r})"
        problems.append(Problem(label, where, msg, entry_id))
    return problems


def read_toml_journal(path: Path, label: str, journal: Journal, default_discipline: str,
                      problems: list[Problem]) -> None:
    text = read_text(path, problems, label)
    if text is None:
        return
    data = parse_toml(text, label, problems)
    if data is None:
        return
    source = len(journal.files)
    journal.files.append(label)
    headers = header_lines(text)
    for key in data:
        if key not in ENTRY_MODELS:
            line = (headers.get(key) or [key_line(text, 1, key)])[0]
            problems.append(Problem(label, line, f"unknown entry kind {key!r}; a journal holds "
                                    "[[player]], [[match]], [[tournament]], [[void]] and [[adjust]]"))
    # Entries are taken in file order (by header line) so that seq follows the file.
    pending = []
    for kind in ENTRY_MODELS:
        tables = data.get(kind, [])
        lines = headers.get(kind, [])
        if not isinstance(tables, list):
            problems.append(Problem(label, (lines or [None])[0], f"{kind} must be written as [[{kind}]] tables"))
            continue
        for n, raw in enumerate(tables):
            line = lines[n] if n < len(lines) else None
            pending.append((line if line is not None else 1 << 60, n, kind, raw, line))
    pending.sort(key=lambda item: (item[0], item[1]))
    for _, n, kind, raw, line in pending:
        raw_id = raw.get("id") if isinstance(raw, dict) else None
        entry_id = str(raw_id) if raw_id is not None else None
        if not isinstance(raw, dict):
            problems.append(Problem(label, line, f"[[{kind}]] must be a table"))
            continue
        try:
            entry = ENTRY_MODELS[kind](**raw)
        except ValidationError as exc:
            problems += _pydantic_problems(exc, label, text, line, kind, entry_id)
            continue
        _add_entry(kind, entry, n, path, label, line, source, journal, default_discipline, problems)


def _add_entry(kind, entry, n, path, label, line, source, journal: Journal, default_discipline, problems):
    seq = journal.take_seq() if kind != "player" else 0
    if kind == "player":
        if entry.id in journal.players:
            first = journal.players[entry.id]
            problems.append(Problem(label, line, f"player id {entry.id!r} is already used at {first.file}:{first.line}", entry.id))
            return
        journal.players[entry.id] = Player(entry.id, entry.name or entry.id, entry.alias, entry.qualification,
                                           entry.title, entry.joined, label, line)
        journal.player_codes.code(entry.id)
    elif kind == "match":
        match_id = entry.id or f"{path.stem}-{n + 1}"
        extra = {}
        if entry.score is not None:
            extra["score"] = tuple(entry.score)
        if entry.chips is not None:
            extra["chips"] = entry.chips
        if entry.note:
            extra["note"] = entry.note
        score_a = entry.score_a()
        if score_a is None:
            problems.append(Problem(label, line, f"winner {entry.winner!r} is not one of the match's players "
                                    f"{entry.players[0]!r} and {entry.players[1]!r}", match_id))
            score_a = 0.5
        add_match(journal, match_id, entry.date.toordinal(), entry.players[0], entry.players[1], score_a,
                  entry.length, entry.discipline or default_discipline, entry.tournament, entry.rated,
                  entry.forfeit, seq, source, line, extra, problems)
    elif kind == "tournament":
        if entry.id in journal.tournaments:
            first = journal.tournaments[entry.id]
            problems.append(Problem(label, line, f"tournament id {entry.id!r} is already used at {first.file}:{first.line}", entry.id))
            return
        standings = None
        if entry.standings is not None:
            standings = []
            for placing in entry.standings:
                try:
                    low, high = parse_place(placing.place)
                except ValueError:
                    problems.append(Problem(label, line, f"standings: place {placing.place!r} of {placing.player!r} "
                                            "is not a place; write 1 or a shared range like \"2-3\"", entry.id))
                    continue
                standings.append(Placing(placing.player, low, high))
            standings = tuple(standings)
        discipline = entry.discipline or default_discipline
        journal.discipline_codes.code(discipline)
        journal.tournament_codes.code(entry.id)
        journal.tournaments[entry.id] = Tournament(entry.id, entry.name or entry.id, entry.system, entry.start,
                                                   entry.end, discipline, entry.official, standings,
                                                   label, line, seq)
    elif kind == "void":
        journal.voids.append(Void(entry.match, entry.date, entry.reason, label, line, seq))
    elif kind == "adjust":
        journal.adjusts.append(Adjust(entry.date, entry.player, entry.rating, entry.discipline, entry.set,
                                      entry.delta, entry.reason, label, line, seq))


def add_match(journal: Journal, match_id, ordinal, a, b, score_a, length, discipline, tournament,
              rated, forfeit, seq, source, line, extra, problems) -> None:
    m = journal.matches
    label = journal.files[source]
    if match_id in journal.match_index:
        first = journal.match(journal.match_index[match_id])
        problems.append(Problem(label, line, f"match id {match_id!r} is already used at {first.file}:{first.line}", match_id))
        return
    i = len(m.ids)
    journal.match_index[match_id] = i
    m.ids.append(match_id)
    m.dates.append(ordinal)
    m.a.append(journal.player_codes.code(a))
    m.b.append(journal.player_codes.code(b))
    m.score_a.append(score_a)
    m.length.append(length)
    m.discipline.append(journal.discipline_codes.code(discipline))
    m.tournament.append(journal.tournament_codes.code(tournament) if tournament else -1)
    m.rated.append(rated)
    m.forfeit.append(forfeit)
    m.seq.append(seq)
    m.source.append(source)
    m.line.append(line)
    if extra:
        m.extra[i] = extra


def read_csv_journal(path: Path, label: str, journal: Journal, default_discipline: str,
                     problems: list[Problem]) -> None:
    """Bulk matches, one per row. Undeclared players are created with id = name."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        problems.append(Problem(label, None, f"cannot read the file: {exc.strerror or exc}"))
        return
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(Problem(label, raw[: exc.start].count(b"\n") + 1, "the file is not UTF-8 text; save it as UTF-8"))
        return
    del raw
    source = len(journal.files)
    journal.files.append(label)
    gc_was_on = gc.isenabled()
    gc.disable()  # building a million small objects: the cyclic collector only slows it down
    try:
        _read_csv_rows(text, label, source, journal, default_discipline, problems)
    finally:
        if gc_was_on:
            gc.enable()


def _read_csv_rows(text, label, source, journal: Journal, default_discipline, problems):
    try:
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        header = next(reader, None)
        if header is None:
            return
        header = [h.strip().lower() for h in header]
        unknown = [h for h in header if h not in CSV_COLUMNS]
        missing = [h for h in CSV_REQUIRED if h not in header]
        if unknown or missing or len(set(header)) != len(header):
            parts = []
            if unknown:
                parts.append(f"unknown column(s) {', '.join(map(repr, unknown))}")
            if missing:
                parts.append(f"missing column(s) {', '.join(missing)}")
            if len(set(header)) != len(header):
                parts.append("a column is named twice")
            problems.append(Problem(label, 1, "; ".join(parts) + f"; the columns are: {', '.join(CSV_COLUMNS)}"))
            return
        if ("result" in header) == ("winner" in header):
            problems.append(Problem(label, 1, "the header needs exactly one of the columns result or winner"))
            return
        rows = list(reader)
    except csv.Error as exc:
        problems.append(Problem(label, getattr(reader, "line_num", None), f"CSV cannot be read: {exc}"))
        return
    col = {name: k for k, name in enumerate(header)}
    width = len(header)
    dates: dict[str, int | None] = {}
    lengths: dict[str, int | None] = {}
    for n, row in enumerate(rows):
        line = n + 2
        if len(row) != width:
            if not row:
                continue
            problems.append(Problem(label, line, f"the row has {len(row)} cells, the header {width}"))
            continue
        _csv_row(row, col, line, n, label, source, journal, default_discipline, dates, lengths, problems)
        if len(problems) > 1000:
            problems.append(Problem(label, line, "more than 1000 problems; stopped reading this file"))
            return


def _csv_row(row, col, line, n, label, source, journal, default_discipline, dates, lengths, problems):
    get = row.__getitem__
    match_id = get(col["id"]).strip() if "id" in col else ""
    match_id = match_id or f"{Path(label).stem}-{n + 1}"
    text_date = get(col["date"]).strip()
    ordinal = dates.get(text_date, -1)
    if ordinal == -1:
        try:
            ordinal = date.fromisoformat(text_date).toordinal() if len(text_date) == 10 else None
        except ValueError:
            ordinal = None
        dates[text_date] = ordinal
    if ordinal is None:
        problems.append(Problem(label, line, f"date {text_date!r} is not an ISO date like 2009-01-15", match_id))
        return
    a, b = get(col["player_a"]).strip(), get(col["player_b"]).strip()
    if not a or not b:
        problems.append(Problem(label, line, "player_a and player_b must both be named", match_id))
        return
    if "result" in col:
        result = get(col["result"])
        score_a = parse_result(result)
        if score_a is None:
            problems.append(Problem(label, line, f"result {result!r} is not a result; write 1-0, 0-1 or 1/2-1/2", match_id))
            return
    else:
        winner = get(col["winner"]).strip()
        score_a = 1.0 if winner == a else 0.0 if winner == b else None
        if score_a is None:
            problems.append(Problem(label, line, f"winner {winner!r} is neither {a!r} nor {b!r}", match_id))
            return
    length = 1
    if "length" in col:
        text_length = get(col["length"])
        length = lengths.get(text_length, -1)
        if length == -1:
            try:
                length = int(text_length) if text_length.strip() else 1
            except ValueError:
                length = None
            if length is not None and not 1 <= length <= 1000:
                length = None
            lengths[text_length] = length
        if length is None:
            problems.append(Problem(label, line, f"length {text_length!r} must be a whole number of points, at least 1", match_id))
            return
    discipline = (get(col["discipline"]).strip() if "discipline" in col else "") or default_discipline
    tournament = get(col["tournament"]).strip() if "tournament" in col else ""
    rated = forfeit = None
    flags = []
    for name in ("rated", "forfeit"):
        value = _TRUE.get(get(col[name]).strip().lower()) if name in col else (name == "rated")
        if value is None:
            problems.append(Problem(label, line, f"{name} {get(col[name])!r} must be true or false", match_id))
            return
        flags.append(value if name in col and get(col[name]).strip() else (name == "rated"))
    rated, forfeit = flags
    extra = {}
    if "chips" in col and get(col["chips"]).strip():
        try:
            chips = float(get(col["chips"]))
            if not 0 <= chips < 1e9:
                raise ValueError
        except ValueError:
            problems.append(Problem(label, line, f"chips {get(col['chips'])!r} must be a number, 0 or more", match_id))
            return
        extra["chips"] = chips
    if "note" in col and get(col["note"]).strip():
        extra["note"] = get(col["note"]).strip()
    for player in (a, b):
        if player not in journal.csv_named:
            journal.csv_named[player] = (label, line)
    add_match(journal, match_id, ordinal, a, b, score_a, length, discipline, tournament or None,
              rated, forfeit, journal.take_seq(), source, line, extra, problems)
