"""`import --ratings`: the ratings a file gives (TRF's rating column, PGN's WhiteElo/BlackElo) as
`[[adjust]]` entries, so that a club's Elo-scale list starts from them.

Each player of the import whom a list does not rate yet (no rating on it the day before) gets
`set = <the file's rating>` on that list, dated the day before the event: the tournament's
start, else the player's first game of the file. A list keeps its own ratings: a player it
rates already is left as it has them. Only lists on the Elo scale take them (a FIDE or club Elo
rating means nothing to FIBS, placement or chip points).
"""
from __future__ import annotations

from datetime import date, timedelta
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from ...datarecords import datarecord
from ...i18n import _, ngettext

if TYPE_CHECKING:
    from ...config import RatingList
    from ...replay.ledger import Ledger
    from .records import Parsed

ELO_SCALE = ("elo", "fide", "glicko", "glicko2")  # engines whose ratings are on a FIDE rating's scale


@datarecord
class Rated:
    """A player of one file the file gives a rating for: where it would go."""
    player: str        # the journal id
    rating: int
    day: date          # the day before the event
    discipline: str
    line: int          # of the imported file (the player's first game)


def file_ratings(parsed: Parsed, games: list[tuple[Any, str, str, str]]) -> list[Rated]:
    """The players of a file with the rating it gives them, in the order they first play.

    `games`: (the file's Game, id of a, id of b, discipline) of every game the import reads."""
    first: dict[str, Rated] = {}
    for game, a, b, discipline in games:
        info = parsed.tournaments.get(game.tournament) if game.tournament else None
        event = info.start if info is not None and info.start is not None else game.day
        for name, pid in ((game.a, a), (game.b, b)):
            player = parsed.players.get(name)
            if player is None or not player.rating or player.rating <= 0:
                continue  # no rating in the file (TRF writes 0 or blanks for the unrated)
            day = event - timedelta(days=1)
            known = first.get(pid)
            if known is None or day < known.day:
                first[pid] = Rated(pid, player.rating, day, discipline, game.line)
    return list(first.values())


def rating_entries(ledger: Ledger, file: str, rated: list[Rated], notes: list[str],
                   taken: set[tuple[str, str, str]]) -> list[tuple[dict[str, Any], int]]:
    """The [[adjust]] entries of one file, each with its line; what was set and left is told in `notes`.

    `taken`: (list, discipline, player) already given a rating by this import (by an earlier file)."""
    entries: list[tuple[dict[str, Any], int]] = []
    if not rated:
        return entries
    lists = [r for r in ledger.config.ratings.values() if r.engine in ELO_SCALE]
    runs: dict[tuple[str, str, date], Any] = {}
    for rating_list in lists:
        kept = count = 0
        days: set[date] = set()
        for one in rated:
            if not rating_list.rates(one.discipline):
                continue
            key = (rating_list.name, one.discipline, one.player)
            if key in taken or _rates(ledger, rating_list, one, runs):
                kept += 1
                continue
            taken.add(key)
            days.add(one.day)
            data = {"date": one.day, "player": one.player, "rating": rating_list.name,
                    "discipline": one.discipline, "set": one.rating,  # a whole number, as the file has it
                    "reason": f"rating in {PurePath(file).name}"}
            entries.append((data, one.line))
            count += 1
        if count:
            note = ngettext("{n} rating set on list {rating}, dated {days} (the day before the event)",
                            "{n} ratings set on list {rating}, dated {days} (the day before the event)",
                            count).format(n=count, rating=rating_list.name, days=", ".join(map(str, sorted(days))))
            if kept:
                note += ngettext("; {n} player it rates already keeps the list's rating",
                                 "; {n} players it rates already keep the list's rating", kept).format(n=kept)
            notes.append(note)
        elif kept:
            notes.append(ngettext("no rating set on list {rating}: it rates the file's {n} rated player "
                                          "already", "no rating set on list {rating}: it rates the file's {n} rated "
                                          "players already", kept).format(rating=rating_list.name, n=kept))
    if not any(r.rates(one.discipline) for r in lists for one in rated):
        notes.append(_("the file's ratings were not used: no rating list of the club rates {discipline} "
                               "on the Elo scale ({engines})").format(discipline=rated[0].discipline,
                                                                     engines=", ".join(ELO_SCALE)))
    return entries


def unused_note(ledger: Ledger, rated: list[Rated]) -> str | None:
    """What the summary says of a file's ratings without --ratings (None: no list of the club would take them)."""
    if not any(r.engine in ELO_SCALE and r.rates(one.discipline) for r in ledger.config.ratings.values()
               for one in rated):
        return None
    return ngettext("the file's rating of {n} player was not used; --ratings sets it as an [[adjust]] for a "
                    "player the club's Elo-scale lists do not rate yet",
                    "the file's ratings of {n} players were not used; --ratings sets them as [[adjust]] entries "
                    "for players the club's Elo-scale lists do not rate yet", len(rated)).format(n=len(rated))


def _rates(ledger: Ledger, rating_list: RatingList, one: Rated,
           runs: dict[tuple[str, str, date], Any]) -> bool:
    """Whether the list has a rating for the player on the day before the event."""
    if one.player not in ledger.journal.players:
        return False
    key = (rating_list.name, one.discipline, one.day)
    if key not in runs:
        runs[key] = ledger.run(rating_list, one.discipline, one.day)
    standing = runs[key].standings.get(one.player)
    return standing is not None and standing.rating is not None
