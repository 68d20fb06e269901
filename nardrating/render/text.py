"""Strings as data: control characters written out for a terminal, markup escaped for Markdown.

Every string in a table is data: player names, notes and titles are never read as rich markup,
emoji codes or Markdown, and control characters are shown escaped (`visible`).
"""
from __future__ import annotations

import re

# C0 and C1 controls, DEL, line and paragraph separators, bidirectional overrides: any of them
# would move the cursor, colour the terminal or reorder what is shown.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED_CONTROLS = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Characters Markdown (CommonMark, GitHub) would read as formatting, links, HTML, maths or a
# table cell's end; a colon only where it starts an emoji code (:x:) or a link (http://).
_MARKDOWN_ACTIVE = re.compile(r"[\\`*_\[\]<>&~|$]|:(?=[\w+-]+:|//)")
_MARKDOWN_BLOCK_START = re.compile(r"[#>+=-]|\d+[.)]")
_NEWLINE = re.compile("\r\n|\r|\n")


def _escape_control(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED_CONTROLS:
        return _NAMED_CONTROLS[char]
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def visible(text: str) -> str:
    """The text with its control characters written out: a newline as \\n, ESC as \\x1b."""
    return CONTROL.sub(_escape_control, text)


def needs_md_escape(text: str) -> bool:
    """Would md_text change the text? (Where not, a whole column is left as it is.)"""
    return bool(_MARKDOWN_ACTIVE.search(text) or CONTROL.search(text))


def md_text(text: str) -> str:
    """Text for a Markdown table cell: shown literally, a newline as <br>."""
    text = _MARKDOWN_ACTIVE.sub(lambda m: "\\" + m.group(), text)
    return visible(_NEWLINE.sub("<br>", text))


def md_paragraph(text: str) -> str:
    """A line of its own: also not a heading, quote, list item or rule."""
    text = md_text(text)
    return "\\" + text if _MARKDOWN_BLOCK_START.match(text) else text

