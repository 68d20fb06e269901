"""Periods in hledger's syntax: 2009, 2009-Q1/2009Q1, 2009-H1, 2009-03, a..b.

Also the calendar arithmetic that the period-based engines share.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, timedelta

from .datarecords import datarecord
from .i18n import N_, _


@datarecord(frozen=True, slots=True)
class Period:
    """A span of days, both ends included (2009-Q1: 2009-01-01..2009-03-31)."""

    start: date
    end: date  # inclusive

    def __contains__(self, day: date) -> bool:
        return self.start <= day <= self.end

    def __str__(self) -> str:
        return f"{self.start.isoformat()}..{self.end.isoformat()}"


_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def days_in_month(year: int, month: int) -> int:
    """28–31, by the Gregorian calendar's leap years (every 4th, not every 100th, every 400th)."""
    if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        return 29
    return _MONTH_DAYS[month - 1]


def month_end(year: int, month: int) -> date:
    return date(year, month, days_in_month(year, month))


def add_months(day: date, months: int) -> date:
    """The same day-of-month `months` later, clamped to the month's end.

    (Called per player and game by the inactivity rules: a few integer steps, no dates made
    on the way.)"""
    year, month = divmod(day.year * 12 + day.month - 1 + months, 12)
    month += 1
    d = day.day
    return date(year, month, d if d <= 28 else min(d, days_in_month(year, month)))


def month_number(day: date) -> int:
    """The calendar month of `day` as one number, counted from year 0: consecutive months differ by 1."""
    return day.year * 12 + day.month - 1


def month_start(number: int) -> date:
    """The first day of the month `month_number` gave."""
    return date(number // 12, number % 12 + 1, 1)


def months_between(earlier: date, later: date) -> int:
    """Whole calendar months from `earlier` to `later` (15 Jan → 14 Apr is 2)."""
    months = (later.year - earlier.year) * 12 + later.month - earlier.month
    if add_months(earlier, months) > later:
        months -= 1
    return months


# The dates nardrating works with. Engines add months and days to dates (the next list,
# a break's end); date.max is 9999-12-31, and a bound far inside it keeps every such
# step, and every command's date, clear of an overflow.
FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(2999, 12, 31)


def _outside(text: str) -> str:
    return _("{text!r} is outside the dates nardrating handles ({first} to {last})").format(
        text=text, first=FIRST_DAY, last=LAST_DAY)


# Three runs of digits, as people write dates on paper: 07.12.2026, 2026-1-5, 2026/12/07, 12/07/2026.
_AS_WRITTEN = re.compile(r"(\d{1,4})([-./])(\d{1,2})\2(\d{1,4})")


def written_date(text: str) -> tuple[bool, date | None]:
    """(whether `text` is written as a date, the day it means where that is sure): year first
    (2026-1-5, 2026/12/07), or day.month.year as Russian writes it (07.12.2026); 12/07/2026 (the
    7th of December, or the 12th of July) and a day the calendar has not (2026-02-30) give None."""
    m = _AS_WRITTEN.fullmatch(text.strip())
    if m is None:
        return False, None
    first, sep, middle, last = m.groups()
    parts = (first, middle, last) if len(first) == 4 else (last, middle, first) if len(last) == 4 and sep == "." else None
    try:
        return True, date(*map(int, parts)) if parts is not None else None
    except ValueError:
        return True, None


def check_day(day: date, text: str) -> date:
    """`day` if nardrating handles it; else ValueError with a plain sentence naming `text`."""
    if not FIRST_DAY <= day <= LAST_DAY:
        raise ValueError(_outside(text))
    return day


# A period as people write it, for the hint of a --period typo: the year, and a quarter (Q1, 1кв, I квартал),
# a half (H1, 1 полугодие) or a month's name (March, mar, март, марта) before or after it.
_MONTH_NAMES = {name: k for k, names in enumerate((
    "jan january янв январь января", "feb february фев февраль февраля", "mar march мар март марта",
    "apr april апр апрель апреля", "may май мая", "jun june июн июнь июня", "jul july июл июль июля",
    "aug august авг август августа", "sep sept september сен сент сентябрь сентября",
    "oct october окт октябрь октября", "nov november ноя нояб ноябрь ноября", "dec december дек декабрь декабря"),
    start=1) for name in names.split()}
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4}
_QUARTER = re.compile(r"q([1-4])|([1-4]|iv|i{1,3})\s*(?:-?й\s*)?(?:кв|квартал)\.?")
_HALF = re.compile(r"h([12])|([12]|i{1,2})\s*(?:-?е\s*)?(?:полугодие|пг)\.?")
_RANGE_DASH = re.compile(r"(.+?)\s*(?:\s[-–—]\s|[–—]|\s(?:to|по)\s|-(?=\d{4}-))\s*(.+)")


def written_period(text: str) -> str | None:
    """The period `text` means where it is written in another way than --period takes, and sure:
    "Q1 2009", "1кв2009", "март 2009" or "2009-01-01 - 2009-03-31" give 2009-Q1, 2009-03 and
    2009-01-01..2009-03-31; None otherwise."""
    words = " ".join(text.casefold().replace(",", " ").split())
    if (pair := _RANGE_DASH.fullmatch(words)) and ".." not in words:   # a range written with a dash, "to" or "по"
        left, right = written_period(pair[1]) or pair[1], written_period(pair[2]) or pair[2]
        try:
            parse_period(f"{left}..{right}")
            return f"{left}..{right}"
        except ValueError:
            pass
    years = re.findall(r"(?<!\d)\d{4}(?!\d)", words)
    if len(years) != 1:
        return None
    rest = re.sub(r"(?<!\d)\d{4}(?!\d)", " ", words).strip(" -/.")
    year, month = years[0], _MONTH_NAMES.get(rest.rstrip("."))
    if (q := _QUARTER.fullmatch(rest)):
        meant = f"{year}-Q{int(q[1]) if q[1] else int(q[2]) if q[2].isdigit() else _ROMAN[q[2]]}"
    elif (h := _HALF.fullmatch(rest)):
        meant = f"{year}-H{int(h[1]) if h[1] else int(h[2]) if h[2].isdigit() else _ROMAN[h[2]]}"
    elif month:
        meant = f"{year}-{month:02d}"
    else:
        return None
    try:   # (a year nardrating does not handle: the message says so, not a hint)
        parse_period(meant)
    except ValueError:
        return None
    return meant


PERIOD_HELP = N_("2009, 2009-Q1 (or 2009Q1), 2009-H1, 2009-03, 2009-01-15, or 2009-01-15..2009-02-20")


class NotAPeriod(ValueError):
    """A text that is no period at all (a typo, or a range whose end comes before its start), told
    apart by its class from one out of range."""


_FORMS = (
    (re.compile(r"^(\d{4})$"), lambda y: Period(date(y, 1, 1), date(y, 12, 31))),
    (re.compile(r"^(\d{4})-?[Qq]([1-4])$"), lambda y, q: Period(date(y, 3 * q - 2, 1), month_end(y, 3 * q))),
    (re.compile(r"^(\d{4})-?[Hh]([12])$"), lambda y, h: Period(date(y, 6 * h - 5, 1), month_end(y, 6 * h))),
    (re.compile(r"^(\d{4})-(\d{1,2})$"), lambda y, mo: Period(date(y, mo, 1), month_end(y, mo))),
    (re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$"), lambda y, mo, d: Period(date(y, mo, d), date(y, mo, d))),
)


def _single(text: str) -> Period:
    """One period; ValueError without a message when `text` is none (the caller words it)."""
    for pattern, build in _FORMS:
        if m := pattern.match(text):
            year = int(m[1])
            if not FIRST_DAY.year <= year <= LAST_DAY.year:
                raise ValueError(_outside(text))
            try:
                return build(*(int(g) for g in m.groups()))
            except ValueError:  # month 13, 30 February: not a period
                raise ValueError from None
    raise ValueError


def parse_period(text: str) -> Period:
    """Parse a period; raise ValueError with a plain sentence when it is not one."""
    text = text.strip()
    try:
        if ".." in text:
            left, right = text.split("..", 1)
            start = _single(left.strip()).start
            end = _single(right.strip()).end
            if end < start:
                raise NotAPeriod(_("period {text!r} ends before it starts; write its start first: {swapped}").format(
                    text=text, swapped=f"{right.strip()}..{left.strip()}"))
            return Period(start, end)
        return _single(text)
    except ValueError as exc:
        if exc.args:
            raise
        raise NotAPeriod(_("{text!r} is not a period; write {forms}").format(text=text, forms=_(PERIOD_HELP))) from None


PERIOD_UNITS = {"month": 1, "quarter": 3, "half": 6, "year": 12}


def period_containing(day: date, unit: str) -> Period:
    """The month/quarter/half/year that contains `day`."""
    months = PERIOD_UNITS[unit]
    first_month = (day.month - 1) // months * months + 1
    start = date(day.year, first_month, 1)
    last = add_months(start, months - 1)
    return Period(start, month_end(last.year, last.month))


def periods_from(first: date, unit: str) -> Iterator[Period]:
    """Endless consecutive periods of `unit`, the first containing `first`."""
    period = period_containing(first, unit)
    while True:
        yield period
        period = period_containing(period.end + timedelta(days=1), unit)
