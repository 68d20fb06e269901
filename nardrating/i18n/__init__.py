"""The languages nardrating speaks: gettext catalogues, chosen as gettext programs choose them.

English is written in the code; other languages are catalogues in `i18n/locale/LANG/LC_MESSAGES/`.
The command line follows the user's locale (`LANGUAGE`, then `LC_ALL`, `LC_MESSAGES`, `LANG`);
what a club publishes for others follows `club.language` or `--lang` (`using(lang)`).
Machine formats (JSON, CSV, TRF, fide-list) are never translated.

Messages are written `_("unknown player '{player}'").format(player=p)`: the placeholders stay in the
message, so that the translator sees them. Counts take `ngettext`, which knows each language's plural
forms (Russian has three: 1 партия, 2 партии, 5 партий). A constant defined at import time and shown
later is marked `N_("...")` and translated where it is shown.
"""
from __future__ import annotations

import gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

DOMAIN = "nardrating"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "ru")  # English, written in the code, and every catalogue shipped
DEFAULT = "en"

_chosen: ContextVar[str | None] = ContextVar("nardrating_language", default=None)


def language_of(tag: str | None) -> str | None:
    """The shipped language a locale name or tag means (`ru_RU.UTF-8` → `ru`, `en-GB` → `en`), else None."""
    if not tag:
        return None
    code = tag.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def locale_language(environ: Mapping[str, str] | None = None) -> str:
    """The command line's language, as gettext programs find it: the first of `LANGUAGE` (a
    colon-separated list: its first shipped language), `LC_ALL`, `LC_MESSAGES`, `LANG` that is set
    decides (as Python's gettext); `C`, `POSIX`, English or a language without a catalogue: English."""
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable)
        if not value:
            continue
        if variable == "LANGUAGE":
            # its first shipped language; none shipped: English (the other variables are not asked)
            return next((found for tag in value.split(":") if (found := language_of(tag))), DEFAULT)
        return language_of(value) or DEFAULT
    return DEFAULT


@cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of a language (English: the messages as written)."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def current() -> str:
    """The language messages are given in now."""
    chosen = _chosen.get()
    return chosen if chosen is not None else locale_language()


@contextmanager
def using(lang: str | None) -> Iterator[None]:
    """Give messages in `lang` (a shipped language) inside the block; None: the locale's."""
    token = _chosen.set(lang)
    try:
        yield
    finally:
        _chosen.reset(token)


@contextmanager
def command_scope() -> Iterator[None]:
    """One command's run: a language chosen inside it (`choose`) ends with it. The locale's
    language is read once, at the start: the environment does not change within a command, and
    `current()` is asked for every message (a replay may word thousands)."""
    with using(_chosen.get() or locale_language()):
        yield


def choose(lang: str) -> None:
    """Give messages in `lang` from here to the end of the command (its `command_scope`)."""
    _chosen.set(lang)


def _(message: str) -> str:
    """The message in the current language."""
    return catalogue(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The message for a count `n` in the current language's plural form."""
    return catalogue(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """The message in the current language, told apart from the same English words by `context`."""
    return catalogue(current()).pgettext(context, message)


def N_(message: str) -> str:
    """Marks a message for the catalogue without translating it yet (translated where shown)."""
    return message
