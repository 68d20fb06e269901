"""What the command line's output streams are: UTF-8 text, and on a terminal lines wrapped at spaces.

A terminal cuts a line that is too long wherever the width ends, inside a word or a date. So, on a
terminal only, each line longer than the width (`$COLUMNS`, else the terminal's) is wrapped at
spaces, the further lines indented two spaces more than the first; a word longer than the width
stays whole. Piped or redirected output is left exactly as written (scripts read it), and so is
data on a terminal too (JSON, CSV, Markdown, TRF, a chart: written to `unwrapped`). Tables lay
themselves out to the same width, so their lines are never touched; a line holding an escape
sequence or a carriage return (a styled heading, a progress bar) is passed through as it is.

Whatever the locale, output that is not a terminal is UTF-8 (JSON and CSV are data, `Авакян` as
written); a terminal that cannot show a character gets a `?` instead of a failed command.
"""
from __future__ import annotations

import os
import sys
import textwrap
from typing import Any, TextIO

INDENT = "  "


def width_of(stream: TextIO) -> int | None:
    """The columns of the terminal the stream writes to ($COLUMNS first, as tables take it)."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isascii() and columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return None


def wrap_line(line: str, width: int | None) -> str:
    """The line wrapped at spaces to `width` (newlines between the pieces); never inside a word."""
    if width is None or len(line) <= width or "\x1b" in line or "\r" in line or width < 20:
        return line
    lead = line[:len(line) - len(line.lstrip(" "))]
    pieces = textwrap.wrap(line, width, initial_indent="", subsequent_indent=lead + INDENT,
                           break_on_hyphens=False, break_long_words=False)
    return "\n".join(pieces) if pieces else line


class WrappingStream:
    """A text stream that wraps each whole line it is given (wrap_line) before writing it on."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._partial = ""     # the start of a line not ended yet
        self._raw = False      # part of this line was written already (a prompt): the rest goes as it is

    def write(self, text: str) -> int:
        lines = (self._partial + text).split("\n")
        self._partial = lines.pop()
        if lines:
            width = width_of(self._stream)
            first, *rest = lines
            shown = [first if self._raw else wrap_line(first, width)] + [wrap_line(line, width) for line in rest]
            self._raw = False
            self._stream.write("\n".join(shown) + "\n")
        return len(text)

    def flush(self) -> None:
        if self._partial:   # e.g. a question before input(): shown now, unwrapped
            self._stream.write(self._partial)
            self._partial, self._raw = "", True
        self._stream.flush()

    def isatty(self) -> bool:
        return True

    @property
    def unwrapped(self) -> TextIO:
        """The stream itself, for data (JSON, CSV, TRF: never re-wrapped), after what waits is written."""
        self.flush()
        return self._stream

    def __getattr__(self, name: str) -> Any:  # encoding, fileno, buffer, …: the stream's own
        return getattr(self._stream, name)


def _utf8(stream: Any) -> None:
    """Data leaves as UTF-8 whatever the locale; a terminal that cannot show a character gets '?'."""
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    if encoding == "utf8" or not hasattr(stream, "reconfigure"):
        return
    try:
        if stream.isatty():
            stream.reconfigure(errors="replace")
        else:
            stream.reconfigure(encoding="utf-8")
    except (ValueError, OSError):  # already written to, or closed: leave it
        pass


def set_up_streams() -> None:
    """UTF-8 output, and wrapping on terminals: for the command line's own run (cli.main)."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            continue
        _utf8(stream)
        try:
            terminal = stream.isatty()
        except (AttributeError, ValueError):
            terminal = False
        if terminal and not isinstance(stream, WrappingStream):
            setattr(sys, name, WrappingStream(stream))


def data_stream(stream: Any) -> Any:
    """Where data goes: the stream, unwrapped if it is a WrappingStream."""
    return getattr(stream, "unwrapped", stream)
