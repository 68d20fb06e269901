"""Shell completion of the club's own words: player ids, rating lists, tournament ids, disciplines.

The shell runs the program for every Tab, so these read the club's config and its journal as
parsed (the cache makes that a file read) and never replay it: no engine runs. The club is the
one the command line names so far (`--club`), else the one every command would find. Anything
that goes wrong (no club here, a broken journal) completes nothing, silently: a Tab never prints
an error into the line being typed.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..replay.ledger import Ledger

Choices = list[tuple[str, str]]   # (the word, what it is: shown by zsh and fish)


def _club(ctx: Any, journal: bool = True) -> Ledger | None:
    from ..replay.loader import load_club

    club = None
    while ctx is not None and club is None:  # `--club` of this command, else of a group above it
        club = (getattr(ctx, "params", None) or {}).get("club")
        ctx = getattr(ctx, "parent", None)
    try:
        return load_club(club, config_only=not journal)
    except Exception:  # noqa: BLE001 - no club, a broken journal: nothing to offer
        return None


def _matching(words: dict[str, str], incomplete: str) -> Choices:
    folded = incomplete.casefold()
    return [(word, help_text) for word, help_text in sorted(words.items()) if word.casefold().startswith(folded)]


def players(ctx: Any, incomplete: str) -> Choices:
    """The club's player ids, each with the player's name."""
    ledger = _club(ctx)
    if ledger is None:
        return []
    return _matching({pid: p.name for pid, p in ledger.journal.players.items()}, incomplete)


def ratings(ctx: Any, incomplete: str) -> Choices:
    """The rating lists of the config, each with its engine (the journal is not read)."""
    ledger = _club(ctx, journal=False)
    if ledger is None:
        return []
    return _matching({name: r.engine for name, r in ledger.config.ratings.items()}, incomplete)


def tournaments(ctx: Any, incomplete: str) -> Choices:
    """The journal's tournament ids, each with its name."""
    ledger = _club(ctx)
    if ledger is None:
        return []
    return _matching({tid: t.name for tid, t in ledger.journal.tournaments.items()}, incomplete)


def disciplines(ctx: Any, incomplete: str) -> Choices:
    """The disciplines the club knows: its default, the journal's, those its lists name."""
    ledger = _club(ctx)
    if ledger is None:
        return []
    known = [ledger.config.club.default_discipline, *ledger.journal.disciplines()]
    known += [d for r in ledger.config.ratings.values() for d in (r.disciplines or ())]
    return _matching(dict.fromkeys(known, ""), incomplete)


def formats(ctx: Any, incomplete: str) -> Choices:
    """--format of the commands that print data."""
    from ..i18n import _

    return _matching({"table": "", "csv": "", "json": "", "md": _("Markdown")}, incomplete)


def board_formats(ctx: Any, incomplete: str) -> Choices:
    """leaderboard's --format: also FIDE's fixed-width list and a spreadsheet."""
    from ..i18n import _

    return _matching({"table": "", "csv": "", "json": "", "md": _("Markdown"), "fide-list": _("FIDE's fixed-width list"),
                      "xlsx": _("Excel, with --output FILE")}, incomplete)
