"""Words that are data in the machine formats and words in the human ones: statuses and column keys.

A status ("active", "inactive (3 months)", "provisional") is a value: JSON and CSV keep it in
English, as the engines set it. Tables, Markdown, xlsx and the site show it in words of the
language (`status_text`). Likewise a column's key is its JSON and CSV name, its heading the words
(`heading_words`).
"""
from __future__ import annotations

import re
from functools import cache

from . import DEFAULT, N_, _, current, ngettext

STATUSES = {
    "active": N_("active"),
    "inactive": N_("inactive"),
    "excluded": N_("excluded"),
    "provisional": N_("provisional"),
    "established": N_("established"),
    "new": N_("new"),
    "reinstated": N_("reinstated"),
    "returned: commission decision needed": N_("returned: commission decision needed"),
    "rated": N_("rated"),
    "unrated": N_("unrated"),
    "titled-unrated": N_("titled-unrated"),
    "no tournament": N_("no tournament"),
}
_INACTIVE_MONTHS = re.compile(r"inactive \((\d+) months\)")


def status_text(status: str) -> str:
    """A status as the current language writes it (English: as the engine set it)."""
    if current() == DEFAULT:
        return status
    return _status_text(current(), status)


@cache
def _status_text(lang: str, status: str) -> str:
    if status in STATUSES:
        return _(STATUSES[status])
    found = _INACTIVE_MONTHS.fullmatch(status)
    if found:
        months = int(found.group(1))
        return ngettext("inactive ({months} month)", "inactive ({months} months)", months).format(months=months)
    return status


# Column keys whose heading is made from the key (reports.table.heading): an engine's extra
# columns and the details' keys. Keys not here keep their English words.
HEADINGS = {
    "adjust": N_("Adjust"), "after": N_("After"), "base": N_("Base"), "before": N_("Before"),
    "boost": N_("Boost"), "change": N_("Change"), "chips": N_("Chips"), "competitions": N_("Competitions"),
    "date": N_("Date"), "days": N_("Days"), "difference": N_("Difference"), "entry": N_("Entry"),
    "expected": N_("Expected"), "experience": N_("Experience"), "games": N_("Games"),
    "ignored": N_("Ignored"), "kind": N_("Kind"), "list": N_("List"), "opponent": N_("Opponent"),
    "opponent_boost": N_("Opponent boost"), "opponents": N_("Opponents"), "participants": N_("Participants"),
    "penalty": N_("Penalty"), "performance": N_("Performance"), "place": N_("Place"),
    "places_from": N_("Places from"), "points": N_("Points"), "pool": N_("Pool"),
    "probability": N_("Probability"), "protected": N_("Protected"), "rating": N_("Rating"),
    "ratings": N_("Ratings"), "reason": N_("Reason"), "result": N_("Result"), "system": N_("System"),
    "tournament": N_("Tournament"), "tournaments": N_("Tournaments"), "pending": N_("Pending"),
    "rd": N_("Rd"), "rd_before": N_("Rd before"), "volatility": N_("Volatility"), "period": N_("Period"),
    "event": N_("Event"), "k_rule": N_("K rule"), "rounding": N_("Rounding"), "pool_games": N_("Pool games"),
    "pool_rating": N_("Pool rating"),
}


def heading_words(key: str) -> str:
    """A column's heading: its key in words (`last_played` → "Last played"), in the current language."""
    words = key.replace("_", " ").capitalize()
    if current() == DEFAULT or key not in HEADINGS:
        return words
    return _(HEADINGS[key])


# typer's own words in --help, its gettext messages (answered by our catalogue: _startup.help_in_language).
TYPER_WORDS = (N_("Options"), N_("Arguments"), N_("Commands"), N_("default: {default}"), N_("required"),
               N_("env var: {var}"), N_("Missing command."), N_("No such command {name!r}."), N_("Aborted!"))
