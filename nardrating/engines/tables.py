"""The expected-score table shared by seed 000 (МФСНБ 2009) and seed 002 (FIDE, table b).

Both seeds print the same bands: a rating difference D (rounded to a whole
number) maps to the expected share of points of the higher-rated player
("Сильнее", H) in whole percent; the lower-rated player's share is 100 − that.
Percentages are kept as integers so that callers can compute exactly.
"""
from __future__ import annotations

from bisect import bisect_left
from functools import cache

from ..i18n import _

# (upper end of the band, percent for the stronger player); the last band is open.
BANDS: tuple[tuple[int, int], ...] = (
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57),
    (61, 58), (68, 59), (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65),
    (121, 66), (129, 67), (137, 68), (145, 69), (153, 70), (162, 71), (170, 72), (179, 73),
    (188, 74), (197, 75), (206, 76), (215, 77), (225, 78), (235, 79), (245, 80), (256, 81),
    (267, 82), (278, 83), (290, 84), (302, 85), (315, 86), (328, 87), (344, 88), (357, 89),
    (374, 90), (391, 91), (411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97),
    (619, 98), (735, 99),
)
_UPPER = [upper for upper, _ in BANDS]


@cache   # a few thousand distinct differences over a journal of a million games (a refusal is not kept)
def expected_percent(difference: int) -> int:
    """Expected share in whole percent for a player `difference` points above (+) or below (−).

    `difference` must be a whole number: the seeds' bands are of whole points.
    """
    if difference != int(difference):
        raise ValueError(f"the table takes a whole-number difference, not {difference}")
    gap = abs(int(difference))
    k = bisect_left(_UPPER, gap)
    stronger = BANDS[k][1] if k < len(BANDS) else 100
    return stronger if difference >= 0 else 100 - stronger


def band_of(difference: int) -> str:
    """The table row a difference falls in, as the seeds print it: "18–25, stronger: 53 %" (weaker: 100 − that),
    in the current language (explain shows it)."""
    gap = abs(int(difference))
    k = bisect_left(_UPPER, gap)
    low = _UPPER[k - 1] + 1 if k else 0
    rows = f"{low}–{_UPPER[k]}" if k < len(BANDS) else _("{low} and more").format(low=low)
    side = _("{rows}, stronger: {percent} %") if difference >= 0 else _("{rows}, weaker: {percent} %")
    return side.format(rows=rows, percent=expected_percent(difference))
