"""What a CSV journal's cells mean, for the bulk reader (csvfast.py) and the [fast] extra's:
ids, dates and lengths by the journal's rules, each distinct text of a column judged once (Judged)."""
from __future__ import annotations

import json
import re
from functools import partial
from array import array
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..digits import whole_number
from ..i18n import _
from .limits import FIRST_DAY, LAST_DAY, MAX_LENGTH, RULES
from .textrules import id_message, valid_id
from .ids import MAX_ID, is_plain_id

if TYPE_CHECKING:
    from .columns import Codes

T = TypeVar("T")


class Judged(dict[str, T]):
    """text → convert(text), each distinct text converted once, when first looked up.

    One pass of map(judged.__getitem__, column) in C converts a column: no set of its
    texts is built first, and a text met in an earlier block of the file is not judged again.
    `refused`: whether any text converted to `bad` (the value that marks a refused one), so that
    a block needs no pass over the file's distinct texts (a player column's 10,000) to know.
    """

    __slots__ = ("convert", "bad", "refused")

    def __init__(self, convert: Callable[[str], T], bad: object = None) -> None:
        super().__init__()
        self.convert, self.bad, self.refused = convert, bad, False

    def __missing__(self, text: str) -> T:
        value = self[text] = self.convert(text)
        if value == self.bad:
            self.refused = True
        return value


def judged(memo: dict[str, Judged[Any]], name: str, convert: Callable[[str], T], bad: object = None) -> Judged[T]:
    """The file's converter of column `name` (made on first use); `bad`: what a refused text converts to."""
    if name not in memo:
        memo[name] = Judged(convert, bad)
    return memo[name]


def extend_column(column: Sequence[Any], values: Iterable[object]) -> None:
    """column += values. Into a machine array, which converts each item it is given (about 25 ns
    each, 60 through extend()): from a list, or a range made one; a run of one value (a block's
    source, and mostly its tournament, rated, forfeit and discipline) as one item repeated, in C."""
    if isinstance(column, array) and isinstance(values, (list, range)):
        items = values if isinstance(values, list) else list(values)
        if items and items.count(items[0]) == len(items):
            column.extend(array(column.typecode, items[:1]) * len(items))
        else:
            column.fromlist(items)
    else:  # a list, or a cached column with the rows appended to it kept apart (columns.Appended)
        cast("MutableSequence[object]", column).extend(values)


def checked(values: list[T | None]) -> list[T]:
    """A converted column once its rows' problems were reported: a None would have returned early."""
    return cast("list[T]", values)


_ID_BYTES = bytes(range(ord("0"), ord("9") + 1)) + bytes(range(ord("A"), ord("Z") + 1)) + \
    bytes(range(ord("a"), ord("z") + 1)) + b"_-"


_LONG_ID = re.compile(rb"\n[^\n]{%d}" % (MAX_ID + 1))


def is_id(text: str) -> bool:
    """id_problem(text) is None: a plain ASCII id (most are) is known one at once, any other is judged by the rule."""
    return is_plain_id(text) is not None or valid_id(text)


def plain_ids(ids: list[str]) -> bool:
    """Are all these ids (none empty) plain ASCII ids, the usual bulk case? Decided in C, not id by id.

    False when some may not be: id_problem then judges each (the id rule is that function's).
    """
    if not ids:
        return True
    blob = "\n".join(ids)
    if not blob.isascii():
        return False
    data = blob.encode("ascii")
    # What is left are the separators, and nothing else (not even a newline inside a quoted cell);
    # then no id is longer than MAX_ID (one pass over contiguous bytes, not a million len() calls).
    return (len(data.translate(None, _ID_BYTES)) == len(ids) - 1 and len(ids[0]) <= MAX_ID
            and _LONG_ID.search(data) is None)


def player_refused(column: str, name: str) -> str:
    example = "-".join("".join(ch if valid_id(ch) else " " for ch in name.lower()).split())[:MAX_ID]
    example = example if example and valid_id(example) else "player-1"
    return _("{column}: {problem}. A CSV names players by id: declare the player in a TOML journal with a valid "
             "id and this name ([[player]] id = \"{example}\", name = {name}) and write the id in this column").format(
        column=column, problem=id_message(name), example=example, name=json.dumps(name, ensure_ascii=False))


def coded(codes: Codes, name: str, given: str) -> int | None:
    """The code of a discipline or tournament id; None (with the reason kept) for one that breaks the id rule."""
    return None if given and not valid_id(given) else codes.code(name)


_FIRST_ORDINAL, _LAST_ORDINAL = FIRST_DAY.toordinal(), LAST_DAY.toordinal()


def ordinal(text: str) -> int | None:
    """A CSV `date` cell as a date's ordinal, or None where it is not a date the rules take."""
    value = text.strip()
    try:
        ordinal = date.fromisoformat(value).toordinal() if len(value) == 10 else None
    except ValueError:
        return None
    return ordinal if ordinal is None or _FIRST_ORDINAL <= ordinal <= _LAST_ORDINAL else None


def date_refused(text: str) -> str:
    try:
        if len(text.strip()) != 10:
            raise ValueError
        date.fromisoformat(text.strip())
    except ValueError:
        from ..periods import written_date

        meant = written_date(text)[1]   # 07.12.2026: the day to write, where it is sure
        if meant is not None:
            return _("date {text!r} is not an ISO date like 2009-01-15; write {day}").format(text=text, day=meant)
        return _("date {text!r} is not an ISO date like 2009-01-15").format(text=text)
    return _("date {text!r} is not {rule}").format(text=text.strip(), rule=_(RULES["date"]))


def length_cell(text: str) -> int | None:
    """A CSV `length` cell as a match length (empty: 1), or None where it is not one; the fast reader uses it too."""
    value = whole_number(text) if text.strip() else 1   # ASCII digits: int() would read "٣" and "1_0"
    return value if value is not None and 1 <= value <= MAX_LENGTH else None


def mapped(columns: Sequence[Sequence[str]], col: dict[str, int], name: str, n: int, memo: dict[str, Judged[Any]],
            convert: Callable[[str], T | None], bad: Callable[[int, Callable[[], str], str | None], bool], ids: list[str],
            message: Callable[[str], str]) -> list[T | None]:
    """Convert a column through the file's dict of its distinct values (Judged); report rows that fail.

    `message(text)` words a failing row's problem; `bad` calls it only for a problem it reports (the
    words are translated then: not for each of a million failing rows past the file's limit)."""
    if name not in col:
        return [convert("")] * n
    column = columns[col[name]]
    converted: Judged[T | None] = judged(memo, name, convert)
    values = list(map(converted.__getitem__, column))
    if converted.refused:
        for k, text in enumerate(column):
            if converted[text] is None:
                if not bad(k, partial(message, text), ids[k]):
                    break  # the file's problems are full: no more are reported
    return values
