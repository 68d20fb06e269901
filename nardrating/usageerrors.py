"""A usage error (exit 2) said in the command line's language.

typer writes a usage error itself: "Usage: …", "Try '… --help' for help.", "Error: …". From typer
0.16 on, the click it vendors writes those words, and the usual messages (no such option, a missing
argument, an invalid value), as f-strings: a Russian user got them in English around our own Russian
words. Here the app's group (`_startup.LocalGroup.main`, click's public `main` with
`standalone_mode=False`) says them again from the exception's public attributes (`ctx`, `message`,
`param`, `param_hint`, `option_name`, `possibilities`) in our catalogue's words, whose msgids are
older click's gettext messages. In English the library says them, as before, word for word.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Any

from .i18n import N_, _

# The words of typer's click (and older click's) that reach a usage error's message as plain text.
_EXTRA = re.compile(r"Got unexpected extra arguments? ?(?:\(s\))? \((?P<args>.*)\)\Z", re.S)
_NEEDS_VALUE = re.compile(r"Option (?P<name>'[^']*') requires an argument\.\Z")
_SUGGESTED = re.compile(r"(?P<message>.*?)\.? Did you mean (?P<names>'.*')\?\Z", re.S)
_NO_COMMAND = re.compile(r"No such command '(?P<name>[^']*)'\.?\Z")
# typer's words for a value its own conversion refuses (pydantic's): said in ours.
_VALUES = {"Input should be a valid integer, unable to parse string as an integer": N_("not a whole number"),
           "Input should be a valid number, unable to parse string as a number": N_("not a number")}
_TYPES = {"argument": N_("Missing argument {name}."), "option": N_("Missing option {name}."),
          "parameter": N_("Missing parameter {name}.")}


def say(exc: Any) -> None:
    """Write a usage error as click does (the usage line, the --help hint, the error) in the language."""
    ctx = getattr(exc, "ctx", None)
    if type(exc).__name__ == "NoArgsIsHelpError":   # a group run without a command: its help, all in the language
        exc.show()
        return
    lines = []
    if ctx is not None:
        lines.append(ctx.get_usage())   # our format_usage: "Usage:" in the language
        if ctx.command.get_help_option(ctx) is not None:
            lines.append(_("Try '{command} {option}' for help.").format(command=ctx.command_path,
                                                                         option=ctx.help_option_names[0]))
        lines.append("")
    lines.append(_("Error: {message}").format(message=message(exc)))
    sys.stderr.write("\n".join(lines) + "\n")
    sys.stderr.flush()


def message(exc: Any) -> str:
    """The error's message in the language, where it is one of the library's usual ones; else its own."""
    kind = type(exc).__name__
    text = str(getattr(exc, "message", "") or "")
    if kind == "NoSuchOption" and getattr(exc, "option_name", None):
        said = _("No such option: {name}").format(name=exc.option_name)
        possible = sorted(getattr(exc, "possibilities", None) or ())
        if not possible:
            return said
        return said + " " + _("(Possible options: {possibilities})").format(possibilities=", ".join(possible))
    if kind == "MissingParameter":
        param, kind_of = getattr(exc, "param", None), getattr(exc, "param_type", None)
        kind_of = kind_of or getattr(param, "param_type_name", None)
        hint = _hint(exc)
        if kind_of in _TYPES and hint and not text:
            return _(_TYPES[kind_of]).format(name=hint)
        return str(exc.format_message())
    if any(c.__name__ == "BadParameter" for c in type(exc).__mro__):
        hint = _hint(exc)
        text = _(_VALUES[text]) if text in _VALUES else text
        if hint is None:
            return _("Invalid value: {message}").format(message=text)
        return _("Invalid value for {param_hint}: {message}").format(param_hint=hint, message=text)
    suggested = _SUGGESTED.match(text)   # typer's nearest commands after its message
    ours = _plain(suggested["message"] if suggested else text)
    if ours is None:
        return str(exc.format_message())
    if suggested:
        return _("{message}. Did you mean {names}?").format(message=ours.rstrip("."), names=suggested["names"])
    return ours


def _plain(text: str) -> str | None:
    """A usage error's own message in the language: None where it is not one of the library's usual ones."""
    extra, needs, command = _EXTRA.match(text), _NEEDS_VALUE.match(text), _NO_COMMAND.match(text)
    if extra:
        return _("Got unexpected extra arguments ({args})").format(args=extra["args"])
    if needs:
        return _("Option {name} requires an argument.").format(name=needs["name"])
    if command:   # (typer says it through gettext: in our words already where main() set the domain)
        return _("No such command {name!r}.").format(name=command["name"])
    return text if not text.isascii() else None   # said in our words already (typer's gettext, our catalogue)


def _hint(exc: Any) -> str | None:
    """The parameter an error names, as click writes it: its own hint, else the parameter's."""
    hint: str | Sequence[str] | None = getattr(exc, "param_hint", None)
    param = getattr(exc, "param", None)
    if hint is None and param is not None:
        try:   # (click 8.2 and typer's click take no context here; older click does)
            hint = param.get_error_hint(exc.ctx)
        except TypeError:
            hint = param.get_error_hint()
    if hint is None or isinstance(hint, str):
        return hint
    return " / ".join(repr(x) for x in hint)
