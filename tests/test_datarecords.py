"""`datarecord` makes the same classes as `dataclasses.dataclass` (nardrating/datarecords.py).

The reference is the standard library itself: each class below is made twice from the same body,
once by each, and every record of the package is described twice, in a process where
`datarecord` is the standard library's dataclass and in one where it is the package's. The
descriptions (signature, fields, repr, equality, hash, frozenness, pickling, copying) must match.
"""
from __future__ import annotations

import copy
import dataclasses
import inspect
import json
import os
import pickle
import re
import subprocess
import sys
from array import array
from dataclasses import FrozenInstanceError, field
from pathlib import Path
from typing import Any, Callable, ClassVar

import pytest

from nardrating.datarecords import datarecord, is_frozen

ROOT = Path(__file__).resolve().parents[1]


class Probe:
    """A distinct argument for a required field: equal and hashed by its number, shown as probeN."""

    def __init__(self, k: int) -> None:
        self.k = k

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Probe) and other.k == self.k

    def __hash__(self) -> int:
        return hash(("probe", self.k))

    def __repr__(self) -> str:
        return f"probe{self.k}"


def _outcome(call: Callable[[], Any]) -> Any:
    try:
        text = repr(call())
    except Exception as e:   # (the same exception, with the same words, from both)
        text = f"{type(e).__name__}: {e}"
    return re.sub(" at 0x[0-9a-f]+", " at 0x…", text)   # (an object's address: another in every process)


def describe(cls: type) -> dict[str, Any]:
    """What a user of the class can see of it, as plain data."""
    fields = dataclasses.fields(cls)
    required = [p for p in inspect.signature(cls.__init__).parameters.values()
                if p.name != "self" and p.default is inspect.Parameter.empty]

    def make(k: int) -> Any:
        return cls(*(Probe(k + n) for n in range(len(required))))

    out: dict[str, Any] = {
        "signature": str(inspect.signature(cls.__init__)),
        "fields": [(f.name, f.init, f.repr, f.compare, f.hash, "factory" if f.default_factory is not dataclasses.MISSING
                    else "none" if f.default is dataclasses.MISSING else repr(f.default)) for f in fields],
        "match_args": list(getattr(cls, "__match_args__", ())), "slots": list(cls.__dict__.get("__slots__", ())),
        "hashable": cls.__hash__ is not None, "frozen": is_frozen(cls)}
    try:
        a, same, other = make(0), make(0), make(100)
    except Exception as e:
        out["made"] = f"{type(e).__name__}: {e}"
        return out
    out["repr"] = _outcome(lambda: repr(a))
    out["eq"] = [_outcome(lambda: a == same), _outcome(lambda: a == other), _outcome(lambda: a != same),
                 _outcome(lambda: a == object())]
    out["hash"] = _outcome(lambda: hash(a) == hash(same) and (hash(a) == hash(other)) == (a == other))
    # (as dataclass hashes: the tuple of the fields compared, unless a field says otherwise)
    out["hash value"] = _outcome(lambda: hash(a) == hash(tuple(getattr(a, f.name) for f in fields
                                                              if (f.compare if f.hash is None else f.hash))))
    name = fields[0].name if fields else "anything"
    out["set"] = _outcome(lambda: setattr(a, name, Probe(7)) or getattr(a, name))
    out["delete"] = _outcome(lambda: delattr(same, name))
    # A name that is no field: Python 3.11's frozen slotted dataclass refuses it with a TypeError
    # (its __setattr__ names the class as it was before slots remade it), datarecord with a
    # FrozenInstanceError; what must agree is that it is refused.
    out["set other"] = _outcome(lambda: setattr(same, "not_a_field", 1) or same.not_a_field)
    if out["set other"].startswith(("TypeError: super(type, obj)", "FrozenInstanceError: cannot assign to field 'not_a_field'")):
        out["set other"] = "refused"
    if not fields:
        out["set"] = out["delete"] = "no field"
    out["pickled"] = _outcome(lambda: repr(pickle.loads(pickle.dumps(other))) == repr(other))
    out["copied"] = _outcome(lambda: repr(copy.copy(other)) == repr(other) and repr(copy.deepcopy(other)) == repr(other))
    out["replaced"] = _outcome(lambda: repr(dataclasses.replace(other)) == repr(other))
    out["astuple"] = _outcome(lambda: repr(dataclasses.astuple(make(200))))
    return out


# --- each feature the package uses, made by both -------------------------------------------------

def _bodies() -> dict[str, Callable[[Callable[..., Any]], list[type]]]:
    """Class bodies, each made by a decorator given (the standard library's, or datarecord)."""

    def plain(deco: Callable[..., Any]) -> list[type]:
        @deco
        class Plain:
            a: int
            b: str = "x"
            c: list[int] = field(default_factory=list)
            limit: ClassVar[int] = 3
        return [Plain]

    def frozen_slotted(deco: Callable[..., Any]) -> list[type]:
        @deco(frozen=True, slots=True)
        class Point:
            """A point."""
            x: int
            y: float = 0.5
            tags: tuple[str, ...] = ()
            note: str = field(default="", compare=False, repr=False)
        return [Point]

    def one_field(deco: Callable[..., Any]) -> list[type]:
        @deco(frozen=True)
        class One:
            value: Any
        return [One]

    def no_field(deco: Callable[..., Any]) -> list[type]:
        @deco(frozen=True, slots=True)
        class Empty:
            pass
        return [Empty]

    def not_in_init(deco: Callable[..., Any]) -> list[type]:
        @deco(slots=True)
        class Late:
            a: int
            cache: dict[str, int] | None = field(default=None, init=False, repr=False)
            built: array[float] = field(default_factory=lambda: array("d", [0.0]), init=False)

        @deco
        class LateUnslotted:
            a: int
            cache: int | None = field(default=None, init=False)
        return [Late, LateUnslotted]

    def post_init(deco: Callable[..., Any]) -> list[type]:
        @deco
        class After:
            a: int
            b: int = 2

            def __post_init__(self) -> None:
                self.total = self.a + self.b   # type: ignore[attr-defined]
        return [After]

    def inherited(deco: Callable[..., Any]) -> list[type]:
        @deco
        class Base:
            name: str
            score: float = 0.0
            kind: ClassVar[str] = "base"

        @deco
        class Child(Base):
            extra: dict[str, int] = field(default_factory=dict)
            kind: ClassVar[str] = "child"

        @deco(frozen=True)
        class FrozenBase:
            a: int

        @deco(frozen=True)
        class FrozenChild(FrozenBase):
            b: int = 1
        return [Base, Child, FrozenBase, FrozenChild]

    def own_methods(deco: Callable[..., Any]) -> list[type]:
        @deco(frozen=True)
        class OwnHash:
            a: int
            b: int

            def __hash__(self) -> int:
                return self.a

        @deco
        class OwnEq:
            a: int

            def __eq__(self, other: object) -> bool:
                return True

        @deco(frozen=True)
        class OwnEqFrozen:
            a: int

            def __eq__(self, other: object) -> bool:
                return isinstance(other, OwnEqFrozen)

        @deco
        class OwnRepr:
            a: int

            def __repr__(self) -> str:
                return "mine"

        @deco(frozen=True)
        class NotHashed:
            a: int
            b: int = field(default=0, hash=False)
        return [OwnHash, OwnEq, OwnEqFrozen, OwnRepr, NotHashed]

    def recursive(deco: Callable[..., Any]) -> list[type]:
        @deco
        class Node:
            items: list[Any] = field(default_factory=list)
        return [Node]

    return {f.__name__: f for f in (plain, frozen_slotted, one_field, no_field, not_in_init, post_init, inherited,
                                    own_methods, recursive)}


BODIES = _bodies()


@pytest.mark.parametrize("body", sorted(BODIES))
def test_a_datarecord_is_the_dataclass_the_standard_library_makes_of_the_same_class(body):
    made = BODIES[body](dataclasses.dataclass), BODIES[body](datarecord)
    for theirs, ours in zip(*made):
        assert describe(ours) == describe(theirs), theirs.__qualname__


def test_what_the_description_compares_can_tell_classes_apart():
    # The check can fail: a field left out of equality, a class not frozen, a default changed.
    def body(deco: Callable[..., Any], compare: bool = True, frozen: bool = True, default: int = 1) -> type:
        @deco(frozen=frozen)
        class C:
            a: int
            b: int = field(default=default, compare=compare)
        return C
    reference = describe(body(dataclasses.dataclass))
    assert describe(body(datarecord)) == reference
    for changed in (dict(compare=False), dict(frozen=False), dict(default=2)):
        assert describe(body(datarecord, **changed)) != reference, changed


@datarecord(frozen=True, slots=True)
class Pickled:
    x: int
    y: float = 0.5
    tags: tuple[str, ...] = ()


def test_a_frozen_records_fields_cannot_change_and_it_says_which():
    point = Pickled(3)
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'x'"):
        point.x = 4
    with pytest.raises(FrozenInstanceError, match="cannot delete field 'y'"):
        del point.y
    assert point == pickle.loads(pickle.dumps(point)) and hash(point) == hash((3, 0.5, ()))  # (the fields compared, in order)


def test_post_init_runs_and_a_list_default_is_new_for_each_instance():
    after = BODIES["post_init"](datarecord)[0](1)
    assert after.total == 3
    plain = BODIES["plain"](datarecord)[0]
    first, second = plain(1), plain(2)
    first.c.append(5)
    assert second.c == [] and plain(1, "x", [5]) == first and repr(first).endswith(".Plain(a=1, b='x', c=[5])")



def test_a_records_init_is_compiled_when_first_used_then_kept_on_the_class():
    @datarecord(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 2

    class Named(Point):   # a plain subclass, whose first instance is made before the record's own
        __slots__ = ()

    assert not inspect.isfunction(Point.__dict__["__init__"])   # nothing compiled yet
    named = Named(1)
    assert (named.x, named.y) == (1, 2) and "__init__" not in Named.__dict__
    assert inspect.isfunction(Point.__dict__["__init__"])   # compiled for the record, where it is kept
    assert Point.__dict__["__init__"].__qualname__.endswith("Point.__init__")
    assert Point(3, y=4) == Point(3, 4) and str(inspect.signature(Point)) == "(x: 'int', y: 'int' = 2) -> None"

# --- every record of the package -------------------------------------------------------------------

DESCRIBE_ALL = """
import dataclasses, importlib, json, pkgutil, sys
sys.path.insert(0, {tests!r})
import nardrating.datarecords as records
if {stdlib!r}:
    def reference(cls=None, /, **kw):
        return dataclasses.dataclass(**kw) if cls is None else dataclasses.dataclass(cls, **kw)
    records.datarecord = reference
import nardrating
from test_datarecords import describe
out = {{}}
for info in sorted(pkgutil.walk_packages(nardrating.__path__, "nardrating."), key=lambda i: i.name):
    if info.name.startswith("nardrating.fast") or info.name.endswith("__main__"):
        continue
    try:
        module = importlib.import_module(info.name)
    except ImportError as e:
        out[info.name] = "not importable: " + str(e)
        continue
    for name, obj in sorted(vars(module).items()):
        if isinstance(obj, type) and obj.__module__ == info.name and "__dataclass_fields__" in obj.__dict__:
            out[info.name + "." + name] = describe(obj) | {{"made by": "dataclass" if obj.__dataclass_params__.init else "datarecord"}}
print(json.dumps(out, sort_keys=True))
"""


def _described(*stdlib: bool) -> list[dict[str, Any]]:
    """The descriptions of every record, one process for each of `stdlib`, run side by side."""
    running = [subprocess.Popen([sys.executable, "-c", DESCRIBE_ALL.format(tests=str(ROOT / "tests"), stdlib=flag)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                env={**os.environ, "PYTHONHASHSEED": "0"})   # (hash values compared across them)
               for flag in stdlib]
    found = []
    for process in running:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        found.append(json.loads(out))
    return found


def test_every_record_of_the_package_is_the_dataclass_the_standard_library_would_make():
    theirs, ours = _described(True, False)
    records = sorted(k for k, v in ours.items() if isinstance(v, dict))
    assert len(records) > 100   # (the package's dataclasses: 118 when this was written)
    # Each process made them as it was asked: the reference by the standard library's methods.
    assert {theirs[k].pop("made by") for k in records} == {"dataclass"}
    assert {ours[k].pop("made by") for k in records} == {"datarecord"}
    assert ours == theirs
