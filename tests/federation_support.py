"""Random federation journals for the tests of the kept histories (mfsnb and fide): one evening's
single matches at a time, as TOML blocks."""
from __future__ import annotations

import random
from datetime import date


def random_singles(rng: random.Random, active: list[str], day: date, n: int, blocks: list[str], most: int,
                   unrated: float, forfeit: float) -> int:
    """One to `most` single matches among `active` on `day` (wins, draws; some unrated, forfeited or
    voided), appended to `blocks` as g<n+1>, g<n+2>, …; the last match's number."""
    for _ in range(rng.randint(1, most)):
        a, b = rng.sample(active, 2)
        n += 1
        extra = ""
        roll = rng.random()
        if roll < unrated:
            extra = "rated = false\n"
        elif roll < forfeit:
            extra = "forfeit = true\n"
        blocks.append(f'[[match]]\nid = "g{n}"\ndate = {day}\nplayers = ["{a}", "{b}"]\n'
                      f'result = "{rng.choice(["1-0", "0-1", "1-0", "1/2-1/2"])}"\n{extra}')
        if rng.random() < 0.04:
            blocks.append(f'[[void]]\nmatch = "g{n}"\ndate = {day}\nreason = "entered twice"\n')
    return n
