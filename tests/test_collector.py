import gc

import pytest

from nardrating.collector import collector_paused


def test_the_collector_is_paused_inside_and_as_it_was_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # a caller's own pause is left alone
    finally:
        gc.enable()
