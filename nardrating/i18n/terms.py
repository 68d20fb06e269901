"""Words that are data in the machine formats and words in the human ones: statuses and column keys.

A status ("active", "inactive (3 months)", "provisional") is a value: JSON and CSV keep it in
English, as the engines set it. Tables, Markdown, xlsx and the site show it in words of the
language (`status_text`). Likewise a column's key is its JSON and CSV name, its heading the words
(`heading_words`).
"""
from __future__ import annotations

import re
from functools import cache, lru_cache

from . import DEFAULT, N_, _, current, ngettext, pgettext
from .numbers import localized

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
    "ranked": N_("ranked"),                     # placement: a place in a tournament counts
    "no tournament": N_("no tournament"),
    "existing (id)": N_("existing (id)"),       # import: a player of the journal, found by id
    "existing (name)": N_("existing (name)"),   # … or by name or alias
}
_INACTIVE_MONTHS = r"inactive \((\d+) months\)"


def status_text(status: str) -> str:
    """A status as the current language writes it (English: as the engine set it)."""
    if current() == DEFAULT:
        return status
    return _status_text(current(), status)


@cache
def _status_text(lang: str, status: str) -> str:
    if status in STATUSES:
        return _(STATUSES[status])
    found = re.fullmatch(_INACTIVE_MONTHS, status)
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
    "opponent_boost": N_("Opponent boost"), "opponent_rating": N_("Opponent rating"), "opponents": N_("Opponents"), "participants": N_("Participants"),
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


# The names of explain's inputs (JSON keys of `inputs`), in words for the `inputs:` line of a table.
INPUTS = {
    "before": N_("before"), "break_since": N_("break since"), "chips": N_("chips"),
    "competition": N_("competition"), "competitions": N_("competitions"), "daily_decay": N_("daily decay"),
    "date": N_("date"), "days": N_("days"), "event": N_("event"), "events": N_("events"),
    "experience": N_("experience"), "factor": N_("factor"), "games": N_("games"),
    "games_in_period": N_("games in the period"), "gives": N_("gives"), "opponents_mean": N_("opponents' mean"),
    "rule": N_("rule"), "inactivity": N_("inactivity"), "k": "K", "kind": N_("kind"),
    "last_rated_game": N_("last rated game"), "length": N_("length"), "loss_share": N_("loss share"),
    "monthly_factor": N_("monthly factor"), "months": N_("months"), "opponent": N_("opponent"),
    "opponent_experience": N_("opponent's experience"), "opponent_rating": N_("opponent's rating"),
    "opponent_ratings": N_("opponents' ratings"), "opponent_rd_before": N_("opponent's RD before"),
    "participants": N_("participants"), "period": N_("period"), "place": N_("place"),
    "places_from": N_("places from"), "points": N_("points"), "rating": N_("rating"),
    "rating_at_period_start": N_("rating at the period's start"), "rd_before": N_("RD before"),
    "reason": N_("reason"), "ruleset": N_("ruleset"), "scale": N_("scale"), "score": N_("score"),
    "system": N_("system"), "tournament": N_("tournament"), "win_share": N_("win share"),
}


def input_text(key: str, value: str) -> str:
    """One of explain's inputs as `key value` in the current language: English keeps the key (as JSON
    has it); another language says it in words, and an event's kind and reason too."""
    if current() == DEFAULT:
        return f"{key} {value}"
    if key == "kind":
        value = kind_text(value)
    elif key == "reason":
        value = reason_text(value)
    return f"{_(INPUTS[key]) if key in INPUTS else key} {value}"


# typer's own words in --help, its gettext messages (answered by our catalogue: _startup.help_in_language).
TYPER_WORDS = (N_("Options"), N_("Arguments"), N_("Commands"), N_("default: {default}"), N_("required"),
               N_("env var: {var}"), N_("Missing command."), N_("No such command {name!r}."), N_("Aborted!"))


# --- history events: their kind and reason are engine values (JSON and CSV keep them), words in tables.

def kind_text(kind: str) -> str:
    """A history event's kind ("match", "adjust", "list"…) as the current language writes it."""
    if current() == DEFAULT:
        return kind
    return _kinds(current()).get(kind, kind)


@cache
def _kinds(lang: str) -> dict[str, str]:
    return {"match": pgettext("event kind", "match"), "adjust": pgettext("event kind", "adjust"),
            "penalty": pgettext("event kind", "penalty"), "list": pgettext("event kind", "list"),
            "tournament": pgettext("event kind", "tournament"), "decay": pgettext("event kind", "decay"),
            "competition": pgettext("event kind", "competition")}


def reason_text(reason: str, kind: str | None = None) -> str:
    """A history event's reason as the current language writes it: the reasons the engines give
    (why a game is not rated, what a list or a competition did) in words; anything else, such as
    an [[adjust]]'s own reason (the club's words: `kind` "adjust"), as it is."""
    if current() == DEFAULT or not reason:
        return reason
    return _reason_text(current(), reason, kind == "adjust")


def reason_texts(reasons: list[str], kinds: list[str | None] | None = None) -> list[str]:
    """A column of reasons (and their events' kinds) in words: the current language checked once."""
    if current() == DEFAULT:
        return reasons
    lang = current()
    if kinds is None:
        return [_reason_text(lang, r, False) if r else r for r in reasons]
    return [_reason_text(lang, r, k == "adjust") if r else r for r, k in zip(reasons, kinds)]


# The engines' wordings of a reason, as patterns: compiled on first use (re's own cache), as most
# commands word no reason at all.
_PAIR_LIMIT = r"pair limit: more than (\d+) rated (games|matches) of this pair on (\S+)"
_COUNTS_WHEN = r"counts when tournament (.+) ends \((\S+)\)"
_COUNTED_IN = r"counted in (.+) on the list of (\S+)"
_OF_ITS_OWN = r"a competition of its own, on the list of (\S+)"
_PROTECTED = r"protected, (.+): ([+-]\d+) → 0"
_WON_VS = r"won vs (.+) \(([+-]\d+)\)"
_PROTECTED_CELL = r"(.+): ([+-]\d+) → 0"
_PLACES_OF = r"counts through the places of ('.*'|\".*\") when it ends"
_INACTIVITY = r"inactivity: more than (\d+) months without a rated game"
_RATING_PERIOD = r"rating period: (\S+) rounded to (\S+) \(§8\.3\.4\)"
_BELOW_FLOOR = r"excluded: (\S+) is below the floor (\S+)"
_IGNORED = r"ignored: (.+)"
_AGAINST_RATED = r"(\d+) games? against rated opponents; 3 needed \(8\.2\)"
_FIRST_POINTS = r"first rated tournament with (\S+) points?; 1 needed \(8\.2\)"
_TOWARD_FIRST = r"unrated: counts toward a first rating \(list of (\S+)\)"
_SINCE = r"inactive: no rated game since (\S+)"
_WAITS = r"waits for the list of (\S+) \((.+) ends (\S+)\)"
_NO_RATING_TO_CHANGE = r"(?s)no published rating to change by (\S+): (.*)"  # (?s): a reason of several lines


@cache
def _fixed_reasons(lang: str) -> dict[str, str]:
    return {
        "voided": pgettext("reason", "voided"), "forfeit": pgettext("reason", "forfeit"),
        "unrated": pgettext("reason", "unrated"),
        "a draw: FIBS rates only won matches": _("a draw: FIBS rates only won matches"),
        "not an official competition (official_only)": _("not an official competition (official_only)"),
        "not a tournament match: only tournament places count":
            _("not a tournament match: only tournament places count"),
        "monthly halving": _("monthly halving"),
        "active again": _("active again"),
        "the opponent is unrated on the list in force": _("the opponent is unrated on the list in force"),
        "unrated against unrated: not counted": _("unrated against unrated: not counted"),
        "clear first place": _("clear first place"),
        "a match in which one player is unrated is not rated (§6.1)":
            _("a match in which one player is unrated is not rated (§6.1)"),
        "no game against a rated opponent (§7.1.4)": _("no game against a rated opponent (§7.1.4)"),
        "first event scored zero (§8.2.1)": _("first event scored zero (§8.2.1)"),
    }


def _protected_why(lang: str, why: str) -> str:
    """Why a change was stopped (mfsnb's 150-point rule, a clear first place), in `lang`."""
    if won := re.fullmatch(_WON_VS, why):
        return _("won vs {opponent} ({gap})").format(opponent=won[1], gap=localized(won[2]))
    return _fixed_reasons(lang).get(why, why)


def protected_text(text: str) -> str:
    """A competition's `protected` cell, "won vs umarov (-580): -3 → 0", in the current language
    (the engine's English in JSON and CSV); any other text (a list of competitions) as it is."""
    found = re.fullmatch(_PROTECTED_CELL, text)
    if found is None:
        return text
    return f"{_protected_why(current(), found[1])}: {localized(found[2])} → 0"


@lru_cache(maxsize=4096)
def _reason_text(lang: str, reason: str, adjust: bool) -> str:
    """`reason` in `lang` (the current language when called): the engines' wordings, matched whole."""
    if adjust:   # the club's own words, after what the engine says of them
        found = re.fullmatch(_NO_RATING_TO_CHANGE, reason)
        if found:
            return _("no published rating to change by {delta}: {reason}").format(
                delta=localized(found[1]), reason=found[2])
        return reason
    fixed = _fixed_reasons(lang).get(reason)
    if fixed is not None:
        return fixed
    if found := re.fullmatch(_PAIR_LIMIT, reason):
        limit, day = int(found[1]), found[3]
        if found[2] == "games":
            return ngettext("pair limit: more than {limit} rated games of this pair on {day}",
                            "pair limit: more than {limit} rated games of this pair on {day}", limit).format(
                limit=limit, day=day)
        return ngettext("pair limit: more than {limit} rated matches of this pair on {day}",
                        "pair limit: more than {limit} rated matches of this pair on {day}", limit).format(
            limit=limit, day=day)
    if found := re.fullmatch(_COUNTS_WHEN, reason):
        return _("counts when tournament {tournament} ends ({day})").format(tournament=found[1], day=found[2])
    if found := re.fullmatch(_COUNTED_IN, reason):
        return _("counted in {tournament} on the list of {day}").format(tournament=found[1], day=found[2])
    if found := re.fullmatch(_OF_ITS_OWN, reason):
        return _("a competition of its own, on the list of {day}").format(day=found[1])
    if found := re.fullmatch(_PROTECTED, reason):
        return _("protected, {why}: {change} → 0").format(why=_protected_why(lang, found[1]),
                                                           change=localized(found[2]))
    if found := re.fullmatch(_PLACES_OF, reason):
        return _("counts through the places of {tournament} when it ends").format(tournament=found[1])
    if found := re.fullmatch(_INACTIVITY, reason):
        months = int(found[1])
        return ngettext("inactivity: more than {months} months without a rated game",
                        "inactivity: more than {months} months without a rated game", months).format(months=months)
    if found := re.fullmatch(_RATING_PERIOD, reason):
        return _("rating period: {exact} rounded to {total} (§8.3.4)").format(
            exact=localized(found[1]), total=localized(found[2]))
    if found := re.fullmatch(_BELOW_FLOOR, reason):
        return _("excluded: {rating} is below the floor {floor}").format(rating=found[1], floor=found[2])
    if found := re.fullmatch(_IGNORED, reason):
        return _("ignored: {why}").format(why=_ignored_text(lang, found[1]))
    if found := re.fullmatch(_TOWARD_FIRST, reason):
        return _("unrated: counts toward a first rating (list of {day})").format(day=found[1])
    if found := re.fullmatch(_SINCE, reason):
        return _("inactive: no rated game since {day}").format(day=found[1])
    if found := re.fullmatch(_WAITS, reason):
        return _("waits for the list of {day} ({event} ends {end})").format(day=found[1], event=found[2], end=found[3])
    return reason


def _ignored_text(lang: str, why: str) -> str:
    """Why fide ignores an event (its wordings; one already in another language stays as it is)."""
    if found := re.fullmatch(_AGAINST_RATED, why):
        n = int(found[1])
        return ngettext("{n} game against rated opponents; 3 needed (8.2)",
                        "{n} games against rated opponents; 3 needed (8.2)", n).format(n=n)
    if found := re.fullmatch(_FIRST_POINTS, why):
        points = found[1]
        return ngettext("first rated tournament with {points} point; 1 needed (8.2)",
                        "first rated tournament with {points} points; 1 needed (8.2)",
                        1 if points == "1" else 2).format(points=localized(points))
    return _fixed_reasons(lang).get(why, why)
