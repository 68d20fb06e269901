"""Period syntax (hledger's) and calendar helpers."""
from datetime import date, timedelta

import pytest
from hypothesis import given, strategies as st

from nardrating.periods import add_months, months_between, parse_period, period_containing


@pytest.mark.parametrize("text, start, end", [
    ("2009", date(2009, 1, 1), date(2009, 12, 31)),
    ("2009-Q1", date(2009, 1, 1), date(2009, 3, 31)),
    ("2009Q1", date(2009, 1, 1), date(2009, 3, 31)),
    ("2009q4", date(2009, 10, 1), date(2009, 12, 31)),
    ("2009-H1", date(2009, 1, 1), date(2009, 6, 30)),
    ("2009-H2", date(2009, 7, 1), date(2009, 12, 31)),
    ("2009-03", date(2009, 3, 1), date(2009, 3, 31)),
    ("2008-02", date(2008, 2, 1), date(2008, 2, 29)),   # leap year
    ("2009-01-15..2009-02-20", date(2009, 1, 15), date(2009, 2, 20)),
    ("2009-Q1..2009-Q3", date(2009, 1, 1), date(2009, 9, 30)),
    ("2009-01-15", date(2009, 1, 15), date(2009, 1, 15)),
])
def test_parse(text, start, end):
    period = parse_period(text)
    assert (period.start, period.end) == (start, end)


@pytest.mark.parametrize("text", ["2009-Q5", "2009-13", "09", "Q1", "2009-02-20..2009-01-15", "", "2009-H3"])
def test_rejects(text):
    with pytest.raises(ValueError):
        parse_period(text)


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2200, 12, 31)))
def test_quarter_forms_agree_and_contain_their_days(day):
    q = (day.month - 1) // 3 + 1
    period = parse_period(f"{day.year}-Q{q}")
    assert period == parse_period(f"{day.year}Q{q}")
    assert day in period
    assert period == period_containing(day, "quarter")
    # The next day after the quarter's end starts a new quarter.
    assert period_containing(period.end + timedelta(days=1), "quarter").start == period.end + timedelta(days=1)


@given(st.text(max_size=30))
def test_any_text_parses_or_raises_value_error(text):
    try:
        period = parse_period(text)
    except ValueError as exc:
        assert str(exc)
    else:
        assert period.start <= period.end


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2200, 1, 1)), st.integers(0, 120))
def test_months_between_inverts_add_months(day, months):
    later = add_months(day, months)
    assert months_between(day, later) == months or (later.day < day.day)  # clamped month ends
    assert months_between(day, later + timedelta(days=0)) <= months


def test_months_between_is_calendar_months():
    # 15 Jan → 14 Apr is 2 whole months; → 15 Apr is 3.
    assert months_between(date(2009, 1, 15), date(2009, 4, 14)) == 2
    assert months_between(date(2009, 1, 15), date(2009, 4, 15)) == 3


@pytest.mark.parametrize("day, months, expected", [
    # worked by hand from the calendar: the same day of the month, or the month's last day
    (date(2009, 1, 31), 1, date(2009, 2, 28)),
    (date(2008, 1, 31), 1, date(2008, 2, 29)),    # 2008: a leap year (every 4th)
    (date(1900, 1, 31), 1, date(1900, 2, 28)),    # 1900: not (every 100th)
    (date(2000, 1, 31), 1, date(2000, 2, 29)),    # 2000: again (every 400th)
    (date(2100, 3, 31), -1, date(2100, 2, 28)),
    (date(2009, 3, 31), 1, date(2009, 4, 30)),
    (date(2009, 8, 31), 1, date(2009, 9, 30)),
    (date(2009, 12, 31), 2, date(2010, 2, 28)),
    (date(2009, 1, 15), 25, date(2011, 2, 15)),
    (date(2009, 1, 29), -12, date(2008, 1, 29)),
    (date(2009, 3, 29), -1, date(2009, 2, 28)),
    (date(2009, 5, 28), 9, date(2010, 2, 28)),
])
def test_add_months_keeps_the_day_or_the_months_last(day, months, expected):
    assert add_months(day, months) == expected


@given(st.dates(min_value=date(1, 3, 1), max_value=date(9998, 10, 1)), st.integers(-24, 24))
def test_add_months_is_the_calendars(day, months):
    # The day of the month kept where that month has it, else the month's last day: the next
    # month's first day minus one.
    year, month = divmod(day.year * 12 + day.month - 1 + months, 12)
    first_of_next = date(year + (month == 11), (month + 1) % 12 + 1, 1)
    last = (first_of_next - timedelta(days=1)).day
    assert add_months(day, months) == date(year, month + 1, min(day.day, last))
