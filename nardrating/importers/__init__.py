"""Bringing results in from other programs' files: .mat, PGN, TRF and CSV.

Each format module turns one file into a `Parsed` (games as the file names
them, problems as FILE:LINE); plan.py turns those into journal entries.
"""
from __future__ import annotations

from pathlib import Path

from .records import Parsed

FORMATS = ("mat", "pgn", "trf", "csv")
_SUFFIXES = {".mat": "mat", ".txt": "mat", ".pgn": "pgn", ".trf": "trf", ".trfx": "trf", ".csv": "csv"}


def detect_format(path: Path) -> str | None:
    return _SUFFIXES.get(path.suffix.lower())


def parse_file(raw: bytes, label: str, fmt: str, **options) -> Parsed:
    """Parse one file's bytes; options: day (a date for .mat files without one), per_game."""
    if fmt == "mat":
        from .mat import parse_mat
        return parse_mat(raw, label, **options)
    if fmt == "pgn":
        from .pgn import parse_pgn
        return parse_pgn(raw, label)
    if fmt == "trf":
        from .trf import parse_trf
        return parse_trf(raw, label)
    from .csvfile import parse_csv
    return parse_csv(raw, label)
