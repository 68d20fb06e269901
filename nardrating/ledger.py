"""A club loaded and checked: config + journal, ready to replay.

read → validate → (sort and replay, per rating list and discipline, on demand).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from .config import ClubConfig, RatingList, display_path, find_club, load_config
from .errors import LedgerError, Problem
from .journal.model import Journal


def read_journal(config: ClubConfig) -> tuple[Journal, list[Problem]]:
    from .journal.reader import read_csv_journal, read_toml_journal
    from .journal.validate import finish_players, validate

    journal = Journal()
    problems: list[Problem] = []
    for path in config.journal_paths():
        label = display_path(path)
        if not path.exists():
            problems.append(Problem(label, None, "journal file not found; create it (`nardrating init` makes an empty one) "
                                    "or fix [club] journal in nardrating.toml"))
            continue
        reader = read_csv_journal if path.suffix == ".csv" else read_toml_journal
        reader(path, label, journal, config.club.default_discipline, problems)
    finish_players(journal)
    problems += validate(journal, config)
    return journal, problems


@dataclass
class Ledger:
    config: ClubConfig
    journal: Journal
    _runs: dict = field(default_factory=dict)

    def rating(self, name: str | None = None) -> RatingList:
        return self.config.rating(name)

    def disciplines(self, rating: RatingList) -> list[str]:
        """The disciplines this list rates that the journal has entries in."""
        present = self.journal.disciplines() or [self.config.club.default_discipline]
        return [d for d in present if rating.rates(d)]

    def discipline(self, rating: RatingList, discipline: str | None) -> str:
        """The discipline a command means: --discipline, else the obvious one."""
        if discipline is not None:
            if not rating.rates(discipline):
                raise LedgerError([Problem(str(self.config.path), rating.line,
                    f"rating list {rating.name!r} does not rate {discipline!r}; it rates {', '.join(rating.disciplines or [])}")])
            return discipline
        candidates = self.disciplines(rating)
        default = self.config.club.default_discipline
        if default in candidates or not candidates:
            return default if rating.rates(default) or not rating.disciplines else rating.disciplines[0]
        return candidates[0]

    def run(self, rating: str | RatingList | None = None, discipline: str | None = None,
            as_of: date | None = None):
        """Replay one rating list for one discipline up to `as_of` (inclusive)."""
        from .replay import replay

        rating_list = rating if isinstance(rating, RatingList) else self.rating(rating)
        discipline = self.discipline(rating_list, discipline)
        key = (rating_list.name, discipline, as_of)
        if key not in self._runs:
            self._runs[key] = replay(self, rating_list, discipline, as_of)
        return self._runs[key]


def load_club(club=None, *, config_only: bool = False) -> Ledger:
    """Find, read and check a club; raise LedgerError with every problem found."""
    config = load_config(find_club(club))
    if config_only:
        return Ledger(config, Journal())
    journal, problems = read_journal(config)
    if problems:
        files = {name: k for k, name in enumerate(journal.files)}
        problems.sort(key=lambda p: (files.get(p.file, -1), p.line or 0))
        raise LedgerError(problems)
    return Ledger(config, journal)
