"""A value as a table cell: numbers with their column's decimals, scores, dates, booleans."""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from datetime import date
from itertools import repeat
from operator import itemgetter
from typing import Any

from ..engines.base import score_text
from ..i18n import DEFAULT, _, current
from ..i18n.numbers import localized, localizer, trimmed
from ..i18n.terms import kind_text, protected_text, reason_texts, status_text
from ..reports.table import Column, Table

NumberFormat = Callable[[int | float], str]


def _decimals_needed(value: float) -> int:
    text = f"{value:.2f}"
    return 0 if text.endswith("00") else 1 if text.endswith("0") else 2


def column_decimals(column: Column, values: list[Any]) -> int:
    """Decimals of every number in a column: ratings and changes 2, or 0 when all are whole numbers
    (engines that keep whole numbers give ints); one game's expected score or probability 4, a
    period's expected points 2; other numbers the fewest (0 to 2) that
    show each value of the column to two decimals."""
    if column.kind in ("rating", "change"):
        return 2 if any(isinstance(v, float) and math.isfinite(v) for v in values) else 0
    if column.kind in ("probability", "measure"):
        return 4  # one game's expected score, as the seeds print it (seed 003: 0.5144); a measure at most 4
    if column.key == "expected":
        return 2
    if not any(issubclass(kind, float) for kind in set(map(type, values))):
        return 0  # no float to look at (a column of text, ints or dates), found at C speed
    return max((_decimals_needed(v) for v in values if isinstance(v, float) and math.isfinite(v)), default=0)


def _specs(column: Column, decimals: int) -> tuple[str, str, str]:
    """(int format spec, float format spec, the zeros an int is written with): changes signed."""
    sign = "+" if column.kind == "change" else ""
    return sign + "d", f"{sign}.{decimals}f", "." + "0" * decimals if decimals else ""


def number_formats(column: Column, decimals: int) -> tuple[Callable[[int], str], Callable[[float], str]]:
    """How the ints and the floats of a column are written: changes signed, ints exact however large."""
    int_spec, float_spec, zeros = _specs(column, decimals)
    isfinite = math.isfinite
    symbols = localizer()   # another language's decimal comma and signs (None: as Python writes them)

    def int_text(value: int) -> str:
        return format(value, int_spec) + zeros

    def float_text(value: float) -> str:
        if isfinite(value):
            return format(round(value, decimals) + 0.0, float_spec)  # + 0.0: never -0.00
        return str(value)

    if symbols is not None:
        return (lambda value: int_text(value).translate(symbols)), (lambda value: float_text(value).translate(symbols))
    return int_text, float_text


def number_format(column: Column, decimals: int) -> NumberFormat:
    """How the numbers of a column are written (see number_formats)."""
    int_text, float_text = number_formats(column, decimals)
    return lambda value: int_text(value) if isinstance(value, int) else float_text(value)


def cell_text(value: Any, column: Column, decimals: int | None = None) -> str:
    """A value as a table cell: numbers with the column's decimals (see column_decimals; a lone
    value decides them alone), changes signed, scores as 1/½/0, dates ISO, booleans yes/no."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if column.kind == "score":
        return score_text(value)
    if column.kind == "measure":
        return _measure(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if decimals is None:
            decimals = column_decimals(column, [value])
        return number_format(column, decimals)(value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return _mapping_text(value)
    if isinstance(value, (list, tuple)):
        return _sequence_text(value)
    return str(value)


def _mapping_text(value: dict[Any, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in value.items())   # games per discipline: "chess 12, nardy 3"


def _mapping_texts(values: list[dict[Any, Any]]) -> list[str]:
    """_mapping_text of each mapping; where every key is text and every value an int (games per
    discipline: 10,000 players' fall on a few thousand), each distinct one is written once."""
    if not _text_to_int(values):
        return list(map(_mapping_text, values))   # (equal keys of other types may print apart: 1, 1.0, True)
    found: dict[tuple[tuple[str, int], ...], str] = {}
    texts = []
    for value in values:
        key = tuple(value.items())
        text = found.get(key)
        if text is None:
            text = found[key] = _mapping_text(value)
        texts.append(text)
    return texts


def _text_to_int(values: list[dict[Any, Any]]) -> bool:
    """Whether every key of these mappings is a str and every value an int (not a bool)."""
    return ({type(k) for value in values for k in value} <= {str}
            and {type(v) for value in values for v in value.values()} <= {int})


def _sequence_text(value: list[Any] | tuple[Any, ...]) -> str:
    return "; ".join(str(v) for v in value)


def column_texts(table: Table) -> dict[str, list[str]]:
    """Each column's cells over all rows (sections too), with one number of decimals per column."""
    rows = table.all_rows()
    keys = [column.key for column in table.columns]
    values: list[Sequence[Any]]
    if not rows or not keys:
        values = [[] for _ in keys]
    elif len(keys) == 1:
        values = [[row.get(keys[0]) for row in rows]]
    else:
        try:  # every row has every key (reports write them all): the columns by one C-level transpose
            values = list(zip(*map(itemgetter(*keys), rows)))
        except KeyError:
            values = [[row.get(key) for row in rows] for key in keys]
    texts = {column.key: _texts(column, list(column_values)) for column, column_values in zip(table.columns, values)}
    if "status" in texts:   # a value in JSON and CSV, words here (each distinct one worded once)
        texts["status"] = _worded(texts["status"], status_text)
    if current() != DEFAULT:   # a history event's kind and reason: the engine's values in JSON and CSV, words here
        if "kind" in texts:
            texts["kind"] = _worded(texts["kind"], kind_text)
        if "reason" in texts:
            texts["reason"] = reason_texts(texts["reason"], [row.get("kind") for row in rows])
        if "protected" in texts:   # a competition's: why its change was stopped
            texts["protected"] = _worded(texts["protected"], protected_text)
    return texts


def _worded(texts: list[str], words: Callable[[str], str]) -> list[str]:
    """Each text in words, looked up per distinct text (a column of 10,000 cells holds a few)."""
    found = {text: words(text) for text in set(texts)}
    return list(map(found.__getitem__, texts))


def _texts(column: Column, values: list[Any]) -> list[str]:
    """The column's cells: what cell_text writes. A column of one type of value (the usual: a
    10,000-row table is 70,000 cells) is written by one C-level map; a mixed one by one writer per
    type looked up once a cell; the rarer types through cell_text itself."""
    if column.kind == "formula":
        return _formulas(values)
    if column.kind == "measure":
        return list(map(_measure, values))
    decimals = column_decimals(column, values)
    if column.kind != "score":
        same = _one_type(column, values, decimals)
        if same is not None:
            return same
    writers: dict[type, Callable[[Any], str]] = {str: str, type(None): lambda value: ""}
    if column.kind != "score":  # a score column writes every value but text as a score: 1, ½, 0
        writers[int], writers[float] = number_formats(column, decimals)
        writers.update({date: date.isoformat, dict: _mapping_text, list: _sequence_text, tuple: _sequence_text})
    writer = writers.get

    def other(value: Any) -> str:
        return cell_text(value, column, decimals)

    return [writer(type(v), other)(v) for v in values]


def _measure(value: Any) -> str:
    """A step's value in explain (Ra 2312, Pe 0.53, E 4.77, R 17.3, an expected score 0.5144): to
    four decimals without the zeros after the last digit that counts, as the seeds print them, in
    the language's symbols; text as it is, none as nothing."""
    if isinstance(value, float) and math.isfinite(value):
        return trimmed(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return localized(str(value))
    return "" if value is None else value if isinstance(value, str) else str(value)


_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")


def _formulas(values: list[Any]) -> list[str]:
    """A formula column (explain's steps: `R = 10·(6.5 − 4.77)`) as the language writes its numbers:
    a point between digits becomes the decimal symbol (Russian `R = 10·(6,5 − 4,77)`), nothing else."""
    texts = ["" if v is None else v if isinstance(v, str) else str(v) for v in values]
    symbols = localizer()
    point = symbols.get(ord(".")) if symbols is not None else None
    if point is None or point == ".":
        return texts
    return [_DECIMAL_POINT.sub(point, text) for text in texts]


def _one_type(column: Column, values: list[Any], decimals: int) -> list[str] | None:
    """A column whose values are all text, all ints, all finite floats, all dates, all mappings or all None, as
    number_formats and cell_text write them; None for any other column."""
    types = set(map(type, values))
    if len(types) != 1:
        return None
    kind = types.pop()
    if kind is str:
        return values
    if kind is type(None):
        return [""] * len(values)
    if kind is date:   # each distinct day written once (10,000 players' last games fall on a few hundred)
        days = {day: day.isoformat() for day in set(values)}
        return list(map(days.__getitem__, values))
    if kind is dict:
        return _mapping_texts(values)
    texts = _numbers(kind, values, *_specs(column, decimals))
    symbols = localizer()   # another language's decimal comma and signs
    return texts if texts is None or symbols is None else [text.translate(symbols) for text in texts]


def _numbers(kind: type, values: list[Any], int_spec: str, spec: str, zeros: str) -> list[str] | None:
    """All ints or all finite floats as _one_type writes them; None for any other kind."""
    if kind is int:
        texts = list(map(str, values)) if int_spec == "d" else list(map(format, values, repeat(int_spec)))
        return [text + zeros for text in texts] if zeros else texts
    if kind is float and all(map(math.isfinite, values)):
        # format rounds as round(value, decimals) does (both correctly); only a negative value
        # that rounds to zero differs: "-0.00", where number_formats writes "0.00" (or "+0.00").
        texts = list(map(format, values, repeat(spec)))
        negative_zero = format(-0.0, spec)
        if negative_zero in texts:
            zero = format(0.0, spec)
            texts = [zero if text == negative_zero else text for text in texts]
        return texts
    return None
