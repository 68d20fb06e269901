"""Bringing results in from other programs' files: .mat, PGN, TRF and CSV.

Each format module turns one file into a `Parsed` (games as the file names
them, problems as FILE:LINE); plan.py turns those into journal entries.
"""
from __future__ import annotations

from datetime import date
from pathlib import Path

from .records import Parsed

FORMATS = ("mat", "pgn", "trf", "csv")
_SUFFIXES = {".mat": "mat", ".txt": "mat", ".pgn": "pgn", ".trf": "trf", ".trfx": "trf", ".csv": "csv"}


def detect_format(path: Path) -> str | None:
    return _SUFFIXES.get(path.suffix.lower())


def parse_file(raw: bytes, label: str, fmt: str, day: date | None = None, per_game: bool = False,
               file_day: date | None = None, partial: bool = False) -> Parsed:
    """Parse one file's bytes; for .mat files only: day (for a file without one; else file_day, its
    modification date) and per_game (one match per game); for PGN: partial (a file cut inside a game:
    its complete games)."""
    if fmt == "mat":
        from .mat import parse_mat
        return parse_mat(raw, label, day, per_game, file_day)
    if fmt == "pgn":
        from .pgn import parse_pgn
        return parse_pgn(raw, label, partial)
    if fmt == "trf":
        from .trf import parse_trf
        return parse_trf(raw, label)
    from .csvfile import parse_csv
    return parse_csv(raw, label)
