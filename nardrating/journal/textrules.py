"""What an id or a text field of the journal may hold, in plain words: the one rule of the entry
models, both CSV readers, the config check and the command line (entries.py re-exports it).

Each check has two faces: `*_problem` says why in the current language; `valid_id`, `text_fault`
ask without words (a `Fault`: the message untranslated and its values), so that a column of a
million cells is judged without a translation until a problem is reported.
"""
from __future__ import annotations

import unicodedata

from ..i18n import N_, _
from .ids import MAX_ID, is_plain_id
from .limits import ID_RULE, MAX_TEXT
from .tomlsource import shown

Fault = tuple[str, dict[str, object]]  # a problem untranslated: (N_ message, its values)


def fault_text(fault: Fault) -> str:
    """A Fault in words of the current language."""
    return _(fault[0]).format(**fault[1])


def _char(ch: str) -> str:
    return f"{ch!r} (U+{ord(ch):04X})"


def id_problem(text: object) -> str | None:
    """Why `text` is not an id, or None: the one id rule of the journal, the CSV reader and the CLI.

    Each character is a letter (Unicode category L*), a combining mark (M*) on a letter,
    an ASCII digit, _ or -. A plain loop, not a regex: `$` would let a final newline
    through, and `\\w` takes digits of every script and signs like "²".
    """
    fault = _id_fault(text)
    return None if fault is None else fault_text(fault)


def _id_fault(text: object) -> Fault | None:
    """id_problem's reason untranslated, (message, its values): a yes-or-no question (valid_id) needs no words."""
    if not isinstance(text, str):
        return N_("it is not text"), {}
    if not text:
        return N_("it is empty"), {}
    if len(text) > MAX_ID:
        return N_("it is {length} characters long, more than {most}"), {"length": len(text), "most": MAX_ID}
    on_letter = False  # a combining mark must follow a letter (or a mark on one)
    for k, ch in enumerate(text, start=1):
        if "0" <= ch <= "9" or ch == "_" or ch == "-":
            on_letter = False
            continue
        category = unicodedata.category(ch)
        if category[0] == "L":
            on_letter = True
        elif not (category[0] == "M" and on_letter):
            return N_("character {k}, {char}, is not allowed"), {"k": k, "char": _char(ch)}
    return None


def valid_id(text: object) -> bool:
    # (ASCII letters, digits, _ and - decided in C: nearly every id; anything else by the rule itself)
    return isinstance(text, str) and is_plain_id(text) is not None or _id_fault(text) is None


def id_message(text: object) -> str:
    """"'x²' is not an id: …; an id is …" for a text that id_problem refuses."""
    return _("{text} is not an id: {problem}; {rule}").format(text=shown(text), problem=id_problem(text),
                                                             rule=_(ID_RULE))


def text_problem(text: str, limit: int = MAX_TEXT, multiline: bool = False) -> str | None:
    """Why `text` may not stand in a journal's text field, or None."""
    fault = text_fault(text, limit, multiline)
    return None if fault is None else fault_text(fault)


def text_fault(text: str, limit: int = MAX_TEXT, multiline: bool = False) -> Fault | None:
    """text_problem untranslated: a column of a million notes is judged without words (csvfast)."""
    if len(text) > limit:
        return N_("it is {length} characters long, more than {most}"), {"length": len(text), "most": limit}
    return _control_fault(text, multiline)


def control_problem(text: str, multiline: bool = False) -> str | None:
    """Control characters (C0, DEL, C1: an ESC would reach a terminal raw) are refused; a note
    or a reason may hold newlines and tabs. Lone surrogates are what a command line makes
    of bytes that are not UTF-8.
    """
    fault = _control_fault(text, multiline)
    return None if fault is None else fault_text(fault)


def _control_fault(text: str, multiline: bool = False) -> Fault | None:
    if text.isprintable() or multiline and text.replace("\n", "").replace("\t", "").isprintable():
        return None  # the usual case, decided in C
    for k, ch in enumerate(text, start=1):
        category = unicodedata.category(ch)
        if category == "Cc" and not (multiline and ch in "\n\t"):
            if multiline:
                return (N_("character {k} is a control character, {char}; a note may hold newlines and tabs, "
                           "no other"), {"k": k, "char": _char(ch)})
            return (N_("character {k} is a control character, {char}, which names and other text may not "
                       "hold"), {"k": k, "char": _char(ch)})
        if category == "Cs":
            return N_("character {k}, {char}, is not a character (the text was not UTF-8)"), {"k": k, "char": _char(ch)}
    return None


# What the entry model takes exactly as it is (plainmatch.py, plainadjust.py): it strips whitespace,
# so a value with some around it is the model's to take (or refuse), not these.

def plain_id(value: object) -> bool:
    """An id the model takes as it is: by the id rule, no space around it."""
    return type(value) is str and valid_id(value) and value == value.strip()


def plain_text(value: object, most: int, multiline: bool = False) -> bool:
    """A text the model takes as it is: no space around it, at most `most` long, no control character."""
    return (type(value) is str and value == value.strip() and len(value) <= most
            and control_problem(value, multiline) is None)
