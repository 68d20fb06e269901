"""contract.batches.newcomers: the players of a batch in the order they first appear, block by block."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from nardrating.contract import batches


@pytest.mark.parametrize("block", [1, 2, 3, 1 << 15])
def test_players_in_the_order_they_first_appear_across_blocks(monkeypatch, block):
    # Rows 0..4 of players a/b: (3, 1), (1, 0), (3, 4), (2, 4), (0, 3). Sides a, b, a, b…:
    # 3 1 | 1 0 | 3 4 | 2 4 | 0 3, so the first appearances are 3, 1, 0, 4, 2 whatever the block.
    monkeypatch.setattr(batches, "NEWCOMER_BLOCK", block)
    batch = SimpleNamespace(a=[3, 1, 3, 2, 0], b=[1, 0, 4, 4, 3])
    present, order = bytearray(5), []
    batches.newcomers(batch, [0, 1, 2, 3, 4], present, order)
    assert order == [3, 1, 0, 4, 2] and present == bytearray([1] * 5)


def test_players_already_present_keep_their_place_and_everyone_present_stops_the_look():
    # Player 2 is present (an adjustment came first): the batch adds 0 and 1 after it. Then, with
    # all three present, a batch naming a code the view does not have is not even looked at.
    batch = SimpleNamespace(a=[1, 2], b=[0, 1])
    present, order = bytearray([0, 0, 1]), [2]
    batches.newcomers(batch, [0, 1], present, order)
    assert order == [2, 1, 0]
    batches.newcomers(SimpleNamespace(a=[99], b=[98]), [0], present, order)
    assert order == [2, 1, 0]
