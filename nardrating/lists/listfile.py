"""A list file read back: the rows and the provenance of what `freeze-list` wrote (JSON, Markdown or
xlsx), every value checked, or a refusal that says what the file is instead.

JSON and xlsx rows keep their numbers exact; a Markdown list holds the numbers as printed, so its
rows keep the texts (`shown`), compared with the recomputed list printed the same way.
"""
from __future__ import annotations

import hashlib
import json
import re
from datetime import date
from pathlib import Path
from typing import Any

from ..datarecords import datarecord, field
from ..digits import whole_number
from ..errors import ActionRefused
from ..i18n import _
from .provenance import HEX64, KEYS, is_newer, version_key

MAX_BYTES = 64 << 20   # far beyond any club's list: a bigger file is no list, and is not read whole
ROW_KEYS = ("rank", "player", "name", "rating", "games", "status", "last_played")   # the leaderboard's first columns


@datarecord
class ListFile:
    """A list file read back: its kind, SHA-256, provenance and rows, as freeze-list wrote them."""
    path: Path
    kind: str                         # json, md or xlsx
    sha256: str                       # of the file's bytes
    provenance: dict[str, Any]
    rows: list[dict[str, Any]]        # player, rank, name, rating, games, status (md: rating as its text)
    shown: bool = False               # md: the values are the printed texts
    files: list[tuple[str, int]] = field(default_factory=list)   # journal_files as (name, bytes)

    @property
    def as_of(self) -> date:
        return date.fromisoformat(self.provenance["as_of"])


def not_a_list(path: Path, why: str) -> ActionRefused:
    return ActionRefused(_("{path}: not a list file of nardrating ({why}); verify and changes read the files "
                           "freeze-list writes").format(path=path, why=why))


def read_list(path: Path) -> ListFile:
    from ..safefile import open_regular

    try:
        fd = open_regular(path)
    except OSError as exc:
        why = str(exc) if exc.strerror is None else exc.strerror
        raise ActionRefused(_("{path}: cannot read it: {why}").format(path=path, why=why)) from None
    with open(fd, "rb") as f:
        raw = f.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise not_a_list(path, _("it is larger than {n} MB").format(n=MAX_BYTES >> 20))
    sha256 = hashlib.sha256(raw).hexdigest()
    if raw.startswith(b"PK\x03\x04"):
        found = _from_xlsx(path, raw)
    else:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise not_a_list(path, _("it is not UTF-8 text, nor a workbook")) from None
        found = _from_json(path, text) if text.lstrip().startswith("{") else _from_md(path, text)
    found.sha256 = sha256
    _check(found)
    return found


# --- JSON --------------------------------------------------------------------------------

def _from_json(path: Path, text: str) -> ListFile:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise not_a_list(path, _("it is not valid JSON")) from None
    if not isinstance(data, dict) or not isinstance(data.get("provenance"), dict) or not isinstance(data.get("rows"), list):
        raise not_a_list(path, _('it has no "rows" and "provenance"'))
    return ListFile(path, "json", "", data["provenance"], data["rows"])


# --- Markdown ----------------------------------------------------------------------------

_UNESCAPE = re.compile(r"\\(.)")


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row as md_text wrote them, unescaped (`\\|` is no border)."""
    cells, current, k, body = [], [], 0, line.strip()[1:]
    while k < len(body):
        ch = body[k]
        if ch == "\\" and k + 1 < len(body):
            current.append(body[k:k + 2])
            k += 2
            continue
        if ch == "|":
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
        k += 1
    return [_UNESCAPE.sub(r"\1", cell).replace("<br>", "\n") for cell in cells]


def _tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    """Every table of the text: (header cells, body rows' cells)."""
    found: list[tuple[list[str], list[list[str]]]] = []
    lines = text.splitlines()
    k = 0
    while k < len(lines):
        if lines[k].startswith("|") and k + 1 < len(lines) and re.fullmatch(r"\|( --- \|)+", lines[k + 1].strip()):
            header, body = _cells(lines[k]), []
            k += 2
            while k < len(lines) and lines[k].startswith("|"):
                body.append(_cells(lines[k]))
                k += 1
            found.append((header, body))
        else:
            k += 1
    return found


def _from_md(path: Path, text: str) -> ListFile:
    tables = _tables(text)
    footer = [t for t in tables if any(row and row[0] == "journal_sha256" for row in t[1])]
    if not footer:
        raise not_a_list(path, _("no table of it holds a journal_sha256"))
    provenance: dict[str, Any] = {}
    for pair in footer[-1][1]:
        if len(pair) == 2:
            provenance[pair[0]] = _md_value(pair[0], pair[1])
    rows = []
    for header, body in tables:
        if header and header[0] == "journal_sha256" or any(r and r[0] == "journal_sha256" for r in body):
            continue
        if len(header) < len(ROW_KEYS):
            raise not_a_list(path, _("a table has {n} columns, fewer than a list's").format(n=len(header)))
        for cells in body:
            row: dict[str, Any] = dict(zip(ROW_KEYS, cells))
            row["rank"] = whole_number(row["rank"])    # ASCII digits: "²" passes isdigit(), int() refuses it
            row["games"] = whole_number(row["games"])
            row["status"] = row["status"] or None
            rows.append(row)
    return ListFile(path, "md", "", provenance, rows, shown=True)


def _md_value(key: str, text: str) -> Any:
    if key == "entries":
        number = whole_number(text, longest=18)
        return text if number is None else number
    if key == "period" and ".." in text:
        start, end = text.split("..", 1)
        return {"start": start, "end": end}
    if key == "journal_files":
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


# --- xlsx --------------------------------------------------------------------------------

def _from_xlsx(path: Path, raw: bytes) -> ListFile:
    import io
    import zipfile

    try:
        from openpyxl import load_workbook
    except ImportError:
        raise ActionRefused(_("{path}: a workbook; reading it needs openpyxl: pip install 'nardrating[xlsx]'").format(
            path=path)) from None
    try:
        book = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
        values = [list(row) for row in book.worksheets[0].iter_rows(values_only=True)]
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, IndexError):
        raise not_a_list(path, _("a zip file, but not a workbook it can read")) from None
    provenance: dict[str, Any] = {}
    rows = []
    for cells in values[2:]:   # below the title and the headings
        cells += [None] * (len(ROW_KEYS) - len(cells))
        first, second = cells[0], cells[1]
        if isinstance(first, str) and first in KEYS and isinstance(second, str) and not any(cells[2:]):
            provenance[first] = _md_value(first, second)
        elif isinstance(second, str) and (first is None or isinstance(first, int)) and not provenance:
            row = dict(zip(ROW_KEYS, cells))
            row["rating"] = row["rating"] if isinstance(row["rating"], (int, float)) else None
            rows.append(row)
    if "journal_sha256" not in provenance:
        raise not_a_list(path, _("a workbook without a journal_sha256"))
    return ListFile(path, "xlsx", "", provenance, rows)


# --- The checks --------------------------------------------------------------------------

def _check(found: ListFile) -> None:
    """Every key a list needs, of the right kind; a list of a newer nardrating is refused first."""
    path, p = found.path, found.provenance
    version = p.get("nardrating")
    if isinstance(version, str) and is_newer(version):
        from .._version import __version__

        raise ActionRefused(_("{path}: frozen by nardrating {theirs}, a newer version than this one ({ours}), "
                              "which may not read it right; verify it with nardrating {theirs} or later").format(
                                  path=path, theirs=version, ours=__version__))

    def need(ok: object, key: str) -> None:
        if not ok:
            raise not_a_list(path, _("its provenance has no valid {key}").format(key=key))

    need(isinstance(version, str) and version_key(version) is not None, "nardrating")
    for key in ("journal_sha256", "config_sha256"):
        need(isinstance(p.get(key), str) and HEX64.fullmatch(p[key]), key)
    for key in ("rating", "engine", "discipline", "frozen_at"):
        need(isinstance(p.get(key), str) and p[key], key)
    need(isinstance(p.get("entries"), int) and not isinstance(p["entries"], bool) and p["entries"] >= 0, "entries")
    need(_iso(p.get("as_of")), "as_of")
    if "period" in p:
        need(isinstance(p["period"], dict) and _iso(p["period"].get("start")) and _iso(p["period"].get("end")), "period")
    need("club" not in p or isinstance(p["club"], str), "club")
    files = p.get("journal_files", [])
    need(isinstance(files, list) and all(isinstance(f, dict) and isinstance(f.get("file"), str)
                                         and type(f.get("bytes")) is int and f["bytes"] >= 0 for f in files), "journal_files")
    found.files = [(f["file"], f["bytes"]) for f in files]
    for row in found.rows:
        ok = (isinstance(row, dict) and isinstance(row.get("player"), str) and row["player"]
              and (found.shown or row.get("rating") is None or type(row["rating"]) in (int, float))
              and (row.get("games") is None or type(row["games"]) is int))
        if not ok:
            raise not_a_list(path, _("a row without a player, or with a rating or games that are not numbers"))


def _iso(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return len(value) == 10
