"""Rules the engines keep as data, and their words in the current language where explain shows them.

fide's K rule (§8.3.3) and the clause of a first rating (seed 002 8.2, §8.2), mfsnb's reason for not
lowering a rating (seed 000, «Когда рейтинг не снижался»): an engine writes these in English into
its records and report, and the JSON, the CSV and the cache keep them so. Each is made from one of
the templates here (`TEMPLATE.format(...)`: a constant, at no cost in a replay). Where explain shows
one, `in_words` finds the template it was made from, takes the catalogue's words for it and puts the
same values back, themselves in words when they are such texts (`20: {why}, …`).

The reasons of history events ("pair limit: …", "counted in …") are put into words by
`i18n.terms.reason_text`, which the history table uses as well.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

from ..i18n import DEFAULT, N_, _, current

# --- mfsnb: why a change was not taken (seed 000, «Когда рейтинг не снижался») -----------------
CLEAR_FIRST_PLACE = N_("clear first place")
WON_VS = N_("won vs {opponent} ({gap})")   # gap: the rating difference with its sign, "+180"

# --- fide: K and why (§8.3.3), the clause of a first rating (seed 002 8.2, §8.2) --------------
K_OF_CONFIG = N_("k of the config (seed 002)")
K_JUNIOR = N_("40: listed with K 40 after 30 games, the under-18 K while under 2300 (§8.3.3)")
K_NEW = N_("40: {games} rated games, fewer than 30 (§8.3.3)")
K_TOP = N_("10: a published rating has reached 2400 (§8.3.3)")
K_PAST_30 = N_("20: {why}, never published at 2400 (§8.3.3)")
K_CAPPED = N_("{why}; K × n = {k} × {n} = {product} > 700, so K = {capped} ({capped_product} ≤ 700, §8.3.3)")
PAST_GAMES = N_("{games} rated games")
PAST_LISTED = N_("K {k} on the imported list")
PAST_ADJUST = N_("a rating set by [[adjust]] counts as past 30 games")
FIRST_FIDE = N_("Ra + dp, two 1800 draws added (§8.2.2–8.2.3)")
FIRST_CAPPED = N_("capped at 2200 (§8.2.3)")
FIRST_HALF = N_("50%: Rc (8.2.2)")
FIRST_ABOVE = N_("above 50%: Rc + 15 per half-point (8.2.3)")
FIRST_BELOW_ROUND_ROBIN = N_("below 50%, round-robin: Ra + dp·n/(n+1) (8.2.5)")
FIRST_BELOW = N_("below 50%: Rc + dp (8.2.4)")

TEMPLATES = (
    CLEAR_FIRST_PLACE, WON_VS, K_OF_CONFIG, K_JUNIOR, K_NEW, K_TOP, K_PAST_30, K_CAPPED, PAST_GAMES, PAST_LISTED,
    PAST_ADJUST, FIRST_FIDE, FIRST_CAPPED, FIRST_HALF, FIRST_ABOVE, FIRST_BELOW_ROUND_ROBIN, FIRST_BELOW,
)
# The fields that hold a text of this kind themselves (a player's id never is).
NESTED = frozenset({"why"})
_FIELD = re.compile(r"\{(\w+)(?:![rsa])?(?::[^{}]*)?\}")


def in_words(text: str | None) -> str:
    """A text an engine made from a template here, in the current language (English, and any
    other text: as it is). None: ""."""
    if not text:
        return ""
    if current() == DEFAULT:
        return text
    return _in_words(current(), text)


@lru_cache(maxsize=4096)
def _in_words(lang: str, text: str) -> str:
    return worded(text, TEMPLATES, lambda value: _in_words(lang, value))


def worded(text: str, templates: Sequence[str], nested: Callable[[str], str] | None = None) -> str:
    """`text`, made by one of `templates` (`template.format(...)`), in the catalogue's words for that
    template with the same values (the fields in NESTED put into words by `nested`); else as it is.
    The templates with the most words are tried first ("less than or equal to {le}" before "less than {lt}")."""
    for template in _most_words_first(tuple(templates)):
        found = _pattern(template).fullmatch(text)
        if found:
            values = {name: nested(value) if nested is not None and name in NESTED else value
                      for name, value in found.groupdict().items()}
            return _filled(_(template), values)
    return text


def _filled(template: str, values: dict[str, str]) -> str:
    """The template with each field replaced by its value as it is (a text, never formatted again)."""
    return _FIELD.sub(lambda field: values.get(field.group(1), field.group(0)), template)


@cache
def _most_words_first(templates: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(templates, key=lambda template: -len(_FIELD.sub("", template))))


@cache
def _pattern(template: str) -> re.Pattern[str]:
    """The texts a template makes: its words as they are, each field any text (a field named twice: the same)."""
    parts, seen, at = [], set(), 0
    for field in _FIELD.finditer(template):
        name = field.group(1)
        parts += [re.escape(template[at:field.start()]), f"(?P={name})" if name in seen else f"(?P<{name}>.+?)"]
        seen.add(name)
        at = field.end()
    parts.append(re.escape(template[at:]))
    return re.compile("".join(parts), re.DOTALL)
