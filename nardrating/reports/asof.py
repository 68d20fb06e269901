"""The date a command means, and the checks every report makes of its arguments."""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from ..datarecords import datarecord
from ..errors import ActionRefused, player_hint
from ..i18n import N_, _
from ..replay.cacheadjusts import adjust_ordinals

if TYPE_CHECKING:
    from ..journal.model import Journal
    from ..replay.ledger import Ledger


@datarecord(frozen=True)
class AsOf:
    """The day a report is as of, and why, when --as-of did not give it (today, the journal's last entry)."""
    day: date
    why: str | None = None  # None: given with --as-of

    def __str__(self) -> str:
        return _("as of {day}").format(day=self.day) + (", " + _(self.why) if self.why else "")


def last_entry_date(journal: Journal, today: date | None = None) -> date | None:
    """The date of the journal's last entry: a match, an adjustment or the end of a tournament that
    has ended. A tournament entered ahead of its end (one being played, or announced) ends on a day
    still to come: counting it would show every list as of that day, decayed or halved up to it."""
    days = [journal.max_date] if journal.max_date else []
    days += adjust_ordinals(journal.adjusts)
    reached = (today or date.today()).toordinal()
    days += [end for end in journal.tournament_ends() if end <= reached]
    return date.fromordinal(max(days)) if days else None


def as_of(ledger: Ledger, given: date | None) -> AsOf:
    """--as-of if given; else the journal's last entry, or today (club.as_of = "today", or no entries)."""
    if given is not None:
        return AsOf(given)
    last = last_entry_date(ledger.journal)
    if ledger.config.club.as_of == "today" or last is None:
        return AsOf(date.today(), N_("today"))
    return AsOf(last, N_("the journal's last entry"))


def known_disciplines(club: Ledger) -> list[str]:
    """Every discipline the club knows: its default, those of the journal, those a list names."""
    known = [club.config.club.default_discipline, *club.journal.disciplines()]
    for rating in club.config.ratings.values():
        known += rating.disciplines or []
    return list(dict.fromkeys(known))


def known_player(ledger: Ledger, player: str) -> None:
    """Refuse an unknown player id, with the nearest known ones."""
    if player not in ledger.journal.players:
        from ..journal.identities import final_ids

        journal = ledger.journal
        now = final_ids(journal.identities).get(player)
        first = next((x for x in journal.identities if x.player == player), None)
        if now is not None and now in journal.players and first is not None:
            said = (_("unknown player {player!r} (did you mean {now!r}? {player!r} was renamed {new!r} at "
                      "{file}:{line}, and every entry of theirs is under {now!r} now)") if first.kind == "rename" else
                    _("unknown player {player!r} (did you mean {now!r}? {player!r} was merged into {new!r} at "
                      "{file}:{line}, and every entry of theirs is under {now!r} now)"))
            raise ActionRefused(said.format(player=player, new=first.into, now=now, file=first.file, line=first.line))
        raise ActionRefused(_("unknown player {player!r}{hint}").format(
            player=player, hint=player_hint(player, ledger.journal.players)))

