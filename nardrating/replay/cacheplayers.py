"""The journal's players as the cache read them: a table that makes a Player entry only when one
is asked for.

A leaderboard or a history of a 10,000-player club shows names, not records: it reads a name
from the checked row (`display_name`) and makes no Player at all, where making them all took a
tenth of the command. Anything added or removed (an add-player's preview, an edit) turns the
table into a plain dict of every entry, as cachetables.Table does for tournaments.

The snapshot keeps the players as nine columns and the names the CSV files gave as runs of one
file (player_columns, named_runs): 10,000 rows read back as JSON were 10,000 lists to parse and check.
"""
from __future__ import annotations

from collections.abc import ItemsView, Iterable, Iterator, MutableMapping, ValuesView
from typing import TYPE_CHECKING, Any

from .cachecheck import PLAYER

if TYPE_CHECKING:
    from ..journal.model import Journal, Player

# A checked snapshot row: id, name, alias, qualification, title, joined (a date or None),
# file (as this command shows it), line, declared (cachecheck.PLAYER).
Row = list[Any]


class PlayerTable(MutableMapping[str, "Player"]):
    """id → Player over the snapshot's checked rows, in their order."""

    def __init__(self, rows: list[Row]) -> None:
        self.rows = {row[0]: row for row in rows}
        self.made: dict[str, Player] = {}
        self.plain: dict[str, Player] | None = None   # once changed: every entry, in order

    @classmethod
    def of_columns(cls, fields: list[list[Any]], labels: list[str]) -> PlayerTable:
        """The table of player_columns' columns (checked), each file as this command shows it."""
        fields[6] = list(map(labels.__getitem__, fields[6]))
        return cls(list(map(list, zip(*fields))))

    def untouched(self) -> bool:
        """Whether the table holds exactly what was read (the entries made from it are immutable)."""
        return self.plain is None

    def display_name(self, player: str, public: bool = False) -> str:
        """The name a report shows (the alias where `public` and there is one); the id if unknown."""
        if self.plain is not None:
            found = self.plain.get(player)
            return player if found is None else found.public_name() if public else found.name
        row = self.rows.get(player)
        if row is None:
            return player
        name: str = (row[2] or row[1]) if public else row[1]
        return name

    def display_names(self, players: list[str], public: bool = False) -> list[str]:
        """display_name of each, in one comprehension (a leaderboard's 10,000)."""
        if self.plain is not None or public:
            return [self.display_name(player, public) for player in players]
        get = self.rows.get
        return [player if row is None else row[1] for player, row in zip(players, map(get, players))]

    def __getitem__(self, player: str) -> Player:
        if self.plain is not None:
            return self.plain[player]
        found = self.made.get(player)
        if found is None:
            from ..journal.model import Player

            found = self.made[player] = Player(*self.rows[player])
        return found

    def every(self) -> dict[str, Player]:
        """Every entry, made where not yet, in the rows' order (one pass: a players list shows them all)."""
        if self.plain is not None:
            return self.plain
        if len(self.made) < len(self.rows):
            from ..journal.model import Player

            made = self.made
            self.made = {pid: made.get(pid) or Player(*row) for pid, row in self.rows.items()}
        return self.made

    def facts(self) -> list[tuple[str, str, str | None, str | None, str | None]]:
        """Every player's id, name, alias, qualification and title, in order (a players list's)."""
        if self.plain is not None:
            return [(p.id, p.name, p.alias, p.qualification, p.title) for p in self.plain.values()]
        return [(row[0], row[1], row[2], row[3], row[4]) for row in self.rows.values()]

    def values(self) -> ValuesView[Player]:
        return self.every().values()

    def items(self) -> ItemsView[str, Player]:
        return self.every().items()

    def __contains__(self, player: object) -> bool:
        return player in (self.plain if self.plain is not None else self.rows)

    def __iter__(self) -> Iterator[str]:
        return iter(self.plain if self.plain is not None else self.rows)

    def __len__(self) -> int:
        return len(self.plain if self.plain is not None else self.rows)

    def _changing(self) -> dict[str, Player]:
        if self.plain is None:
            self.plain = dict(self.every())
        return self.plain

    def __setitem__(self, player: str, entry: Player) -> None:
        self._changing()[player] = entry

    def __delitem__(self, player: str) -> None:
        del self._changing()[player]


# The 10,000 players of a club as columns, not rows: read back, JSON makes nine lists, not 10,000,
# and the checks go a column at a time; the file of each is its index in `files`.

def player_columns(journal: Journal) -> list[list[Any]]:
    """The players' fields in Player's order, a column each; joined as ISO text, file as its index."""
    rows = list(player_rows(journal))
    if not rows:
        return [[] for _ in PLAYER]
    columns = [list(column) for column in zip(*rows)]
    columns[5] = [day.isoformat() if day else None for day in columns[5]]
    source = {label: k for k, label in enumerate(journal.files)}
    columns[6] = [source.get(label, -1) for label in columns[6]]   # (-1, no file of the journal: refused when read)
    return columns


def named_runs(journal: Journal) -> list[list[Any]]:
    """The players the CSV files named, in order, as runs of one file: [[file's index, [names]], ...]."""
    source = {label: k for k, label in enumerate(journal.files)}
    runs: list[list[Any]] = []
    for name, (label, _) in journal.csv_named.items():
        k = source.get(label, -1)
        if not runs or runs[-1][0] != k:
            runs.append([k, []])
        runs[-1][1].append(name)
    return runs


def player_rows(journal: Journal) -> Iterable[list[Any]]:
    """Every player's fields in Player's order: the cached table's rows as read, without making entries."""
    table = journal.players
    if isinstance(table, PlayerTable) and table.untouched():
        return table.rows.values()
    return ([p.id, p.name, p.alias, p.qualification, p.title, p.joined, p.file, p.line, p.declared]
            for p in table.values())


def named_from_runs(runs: list[list[Any]], labels: list[str]) -> dict[str, tuple[str, int | None]]:
    """journal.csv_named from named_runs' runs (checked: cachecheck.check_journal_meta), the files
    as this command shows them."""
    named: dict[str, tuple[str, int | None]] = {}
    for k, names in runs:
        named.update(dict.fromkeys(names, (labels[k], None)))
    return named
