"""Numbers in text that people type or other programs write: ASCII digits only.

str.isdigit() also takes "²" and "¹³", which int() refuses, and int() and float() read digits of
other scripts ("٣" is 3) and underscores ("1_0" is 10): a cell written so is refused, not misread.
"""
from __future__ import annotations


def whole_number(text: str, longest: int = 9) -> int | None:
    """A whole number written in ASCII digits (at most `longest`, surrounding spaces aside), else None."""
    text = text.strip()
    if not text or len(text) > longest or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def other_digits(text: str) -> bool:
    """Whether the text holds a digit that is not an ASCII one (a number written in another way)."""
    return not text.isascii() and any(ch.isdigit() for ch in text)


def decimal_number(text: str) -> float | None:
    """A number as float() reads it, written in ASCII without underscores; else None."""
    text = text.strip()
    if not text.isascii() or "_" in text:
        return None
    try:
        return float(text)
    except ValueError:
        return None
