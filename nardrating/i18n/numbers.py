"""Numbers in the human formats (tables, Markdown, xlsx display, pages) as the language writes them.

The code writes a number as Python does (`6.5`, `-4.77`, `+17`, `1,234`); in another language
those symbols become the locale's, from CLDR through Babel: Russian `6,5`, `-4,77`, `+17`,
`1 234` (a no-break space groups thousands). Ratings are never grouped (seed 000 writes 2337).
English is the text as written, and never imports Babel (start-up time of the daily commands).
"""
from __future__ import annotations

from functools import cache

from . import DEFAULT, current


@cache
def _symbols(lang: str) -> dict[int, str] | None:
    """Python's number symbols → the language's (None: the same, as in English)."""
    if lang == DEFAULT:
        return None
    from babel.numbers import get_decimal_symbol, get_group_symbol, get_minus_sign_symbol, get_plus_sign_symbol

    table = str.maketrans({".": get_decimal_symbol(lang), ",": get_group_symbol(lang),
                           "-": get_minus_sign_symbol(lang), "+": get_plus_sign_symbol(lang)})
    return None if all(chr(k) == v for k, v in table.items()) else table


def localized(text: str, lang: str | None = None) -> str:
    """A number written by Python (`format(x, "+.2f")`, `f"{n:,}"`) in the language's symbols."""
    table = _symbols(lang or current())
    return text if table is None else text.translate(table)


def localizer(lang: str | None = None) -> dict[int, str] | None:
    """The translation table `localized` applies (None: none needed), for a whole column at once."""
    return _symbols(lang or current())


def decimal(value: float, decimals: int, lang: str | None = None) -> str:
    """`value` with `decimals` decimals in the language's symbols: 6.5 → "6,5" in Russian."""
    return localized(f"{value:.{decimals}f}", lang)


def trimmed(value: float, decimals: int = 4, lang: str | None = None) -> str:
    """`value` to `decimals` decimals without the zeros after the last digit that counts (5, 4.77,
    0.5144; never -0), in the language's symbols: explain's values and inputs."""
    return localized(f"{round(value, decimals) + 0.0:.{decimals}f}".rstrip("0").rstrip("."), lang)


def percent(share: float, decimals: int = 0, lang: str | None = None) -> str:
    """A share (0.53) as a percentage by the language's CLDR pattern: "53%", Russian "53 %"."""
    lang = lang or current()
    if lang == DEFAULT:
        return f"{share * 100:.{decimals}f}%"
    from babel import Locale
    from babel.numbers import format_percent

    pattern = Locale.parse(lang).percent_formats[None].pattern   # Russian "#,##0 %"
    if decimals:
        pattern = pattern.replace("0", "0." + "0" * decimals, 1)   # the pattern's one 0: its last digit
    return format_percent(share, format=pattern, locale=lang)
