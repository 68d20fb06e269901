"""Read a CSV journal file (bulk matches, one per row) into the `Journal`.

Apart from reader.py, which reads TOML through the entry models: a club whose journal is CSV
only reads it without importing pydantic (csvfast.py and csvcells.py check each cell by the
same limits and text rules, limits.py and textrules.py, as the models do).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..collector import collector_paused
from ..errors import Problem
from .csvfast import read_csv_rows
from .tomlsource import decode

if TYPE_CHECKING:
    from .model import Journal


def _lf_only(raw: bytes) -> bytes:
    """A CSV whose every CR ends a line as CRLF (csv.writer, Excel), without quoted cells, as LF bytes.

    The csv module reads both alike (a CRLF is one line end, outside quotes), and so does the
    plain split of csvfast, which is quicker with one-character line ends (one C pass here,
    instead of two-character searches over the text). Anything else is left as it is.
    """
    if b"\r" not in raw or b'"' in raw:
        return raw
    lf = raw.replace(b"\r", b"")
    return lf if len(raw) - len(lf) == raw.count(b"\r\n") else raw


def read_csv_journal(raw: bytes, path: Path, label: str, journal: Journal, default_discipline: str,
                     problems: list[Problem], source: int | None = None, line_offset: int = 0,
                     match_offset: int = 0) -> None:
    """Bulk matches, one per row. Undeclared players are created with id = name.

    For appended rows, `raw` is the header line plus the new rows and
    line_offset the number of data lines before them.
    """
    from ..fast import read_csv as read_fast  # the [fast] extra, for a whole big file; else nothing
    if source is None and not line_offset and not match_offset and read_fast(raw, path, label, journal, default_discipline):
        return
    raw = _lf_only(raw)  # (the CRLF bytes are let go before the text is made)
    text = decode(raw, label, problems)
    del raw
    if text is None:
        return
    if source is None:
        source = len(journal.files)
        journal.files.append(label)
    journal.matches_for(0).growable()
    # Building a million small objects: the cyclic collector only slows it down; what was built lives as
    # long as the journal, frozen after the read in a one-command process (collector.py).
    with collector_paused():
        read_csv_rows(text, label, source, journal, default_discipline, problems, line_offset, match_offset)
