"""What the tests of the entries taken without the model share (test_plainmatch.py,
test_plainadjust.py): tables drawn from a good one with a few of their values replaced, and the
check that an entry taken plain is the model's, field by field with its type, and is written as the
model's is."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import strategies as st

Table = dict[str, object]


def drawn_tables(good: Table, values: dict[str, list[object]], instead: tuple[str, str]) -> st.SearchStrategy[Table]:
    """Mostly `good`, with a few of its fields (or keys the model does not know) drawn anew from
    `values`: each value is met beside otherwise good fields. Drawing `instead[0]` may drop
    `instead[1]` (a result instead of the winner, a delta instead of the set)."""
    @st.composite
    def tables(draw: st.DrawFn) -> Table:
        raw: Table = dict(good) if draw(st.integers(0, 3)) else {}
        for key in draw(st.lists(st.sampled_from(sorted(values)), max_size=4)):
            value = draw(st.sampled_from(values[key]))
            if key == instead[0] and draw(st.booleans()):
                raw.pop(instead[1], None)
            raw[key] = value
        return raw
    return tables()


def model_or_none(model: Callable[..., Any], raw: Table) -> Any:
    try:
        return model(**raw)
    except ValueError:   # (pydantic's ValidationError)
        return None


def assert_same_fields(plain: Any, model: Any, fields: Iterable[str]) -> None:
    """Every field the same value of the same type, and the same fields in the same order as the
    writer serialises them."""
    for key in fields:
        mine, theirs = getattr(plain, key), getattr(model, key)
        assert (mine, type(mine)) == (theirs, type(theirs)), key
    assert list(plain.model_dump(exclude_defaults=True).items()) == list(model.model_dump(exclude_defaults=True).items())
    assert list(plain.model_dump().items()) == list(model.model_dump().items())


def taken_as_the_model_takes_it(plain_entry: Callable[[Table], Any], model: Callable[..., Any], raw: Table,
                                same: Callable[[Any, Any], None]) -> bool:
    """Whether `raw` is taken plain; if it is, the model takes it too, and `same` holds them alike."""
    plain = plain_entry(raw)
    if plain is not None:
        made = model_or_none(model, raw)
        assert made is not None, raw
        same(plain, made)
    return plain is not None
