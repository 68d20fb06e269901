"""`datarecord`: the package's dataclasses, with only `__init__` compiled for each class.

`dataclasses.dataclass` compiles every method it writes (`__init__`, `__repr__`, `__eq__`, and for a
frozen class `__hash__`, `__setattr__`, `__delattr__`), each with an `exec`: on Python 3.11 0.73 ms
for a frozen slotted class of five fields, 0.39 ms for a plain one. A daily command defines about
forty classes at import: 30 ms of a 0.25 s `leaderboard`. `datarecord` lets the standard library do
everything but the methods (fields, defaults, ClassVars, inheritance, `__match_args__`, slots) and
compiles only `__init__` (called for every standing, game and event, so written out as dataclass
writes it), and that only when the class is first used (_LazyInit); the other methods are the same
code for every record, over its field names. About 0.1 ms a class, and 0.2 ms more for one whose
instances a command makes. tests/test_datarecords.py holds every record of the package to the dataclass the
standard library makes of the same class: signature, fields, repr, equality, hash, frozenness,
pickling, copying.

What `datarecord` does not offer, the package does not use: order, unsafe_hash, kw_only, InitVar.
`dataclasses.fields`, `replace`, `asdict` and `astuple` work on a record as on any dataclass;
`__dataclass_params__` describes the standard library's part only (no methods), so ask whether a
record is frozen with `is_frozen`. One difference is kept: a name that is no field, assigned to a
frozen slotted record, raises FrozenInstanceError; Python 3.11's dataclass raises a TypeError there
(its `__setattr__` names the class as it was before slots remade it). Both refuse.
"""
from __future__ import annotations

import dataclasses
from dataclasses import MISSING, Field, FrozenInstanceError, field
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, Callable, TypeVar, cast, dataclass_transform, overload

T = TypeVar("T", bound=type)

__all__ = ["datarecord", "field", "is_frozen"]   # (field: dataclasses' own, for the records' defaults)

_FROZEN = "__record_frozen__"


class _Factory:
    """An __init__ argument left out whose field has a default_factory (dataclasses' own sentinel is private)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


@overload
def datarecord(cls: T, /) -> T: ...
@overload
def datarecord(*, frozen: bool = False, slots: bool = False) -> Callable[[T], T]: ...


@dataclass_transform(field_specifiers=(field, Field))
def datarecord(cls: Any = None, /, *, frozen: bool = False, slots: bool = False) -> Any:
    """@datarecord, @datarecord(frozen=True, slots=True): as @dataclass with the same arguments."""
    def wrap(cls: T) -> T:
        return cast(T, _make(cls, frozen, slots))
    return wrap if cls is None else wrap(cls)


def is_frozen(cls: type) -> bool:
    """Whether instances of a record (or of a plain frozen dataclass) refuse to change."""
    params = getattr(cls, "__dataclass_params__", None)
    return bool(cls.__dict__.get(_FROZEN, False) or (params is not None and params.frozen))


def _make(cls: Any, frozen: bool, slots: bool) -> Any:
    own = set(cls.__dict__)   # methods the class writes itself, which dataclass would keep too
    # A __hash__ of the class's own (not the None Python sets beside an __eq__ of its own), as dataclass tells.
    class_hash = cls.__dict__.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or class_hash is None and "__eq__" in own)
    cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=slots)
    fields = dataclasses.fields(cls)
    methods: dict[str, Callable[..., Any]] = {}
    if "__init__" not in own:
        cls.__init__ = _LazyInit(cls, fields, frozen, slots)   # (compiled when first used)
    if "__repr__" not in own:
        methods["__repr__"] = recursive_repr()(_repr(tuple(f.name for f in fields if f.repr)))
    if "__eq__" not in own:
        methods["__eq__"] = _eq(_values([f.name for f in fields if f.compare]))
    if frozen and not explicit_hash:
        methods["__hash__"] = _hash(_values([f.name for f in fields if (f.compare if f.hash is None else f.hash)]))
    if frozen:
        for name in ("__setattr__", "__delattr__"):
            if name in own:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
        methods.update(_frozen(cls, frozenset(f.name for f in fields)))
    for name, method in methods.items():
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)
    if not frozen and "__eq__" not in own and not explicit_hash:
        cls.__hash__ = None   # (as dataclass: equal by value but changeable, so not hashable)
    if frozen and slots:
        # Pickling and copying a frozen slotted record: its fields set again without __setattr__.
        if "__getstate__" not in own:
            cls.__getstate__ = _getstate
        if "__setstate__" not in own:
            cls.__setstate__ = _setstate
    setattr(cls, _FROZEN, frozen)
    return cls


class _LazyInit:
    """A record's `__init__`, compiled the first time it is looked up: when the first instance is
    made, or the class's signature is asked for. A command makes instances of fewer than half the
    records it imports (a `leaderboard`: 17 of 42), and compiling one `__init__` is most of a
    record's cost (about 0.2 ms). Once compiled, the function replaces this on the class."""

    def __init__(self, cls: Any, fields: tuple[Field[Any], ...], frozen: bool, slots: bool) -> None:
        self.cls, self.fields, self.frozen, self.slots = cls, fields, frozen, slots

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        cls, fields = self.cls, self.fields
        env: dict[str, Any] = {"_object_setattr": object.__setattr__, "_FACTORY": _FACTORY}
        exec(_init(fields, self.frozen, self.slots, env, hasattr(cls, "__post_init__")), env)   # (its text: field names only)
        init = env["__init__"]
        init.__annotations__ = {f.name: f.type for f in fields if f.init} | {"return": None}
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        type.__setattr__(cls, "__init__", init)   # (also on a frozen record: its own __setattr__ is for instances)
        return init if instance is None else init.__get__(instance, owner)


# Only __init__ is compiled for its class (it is called for every standing, game and event); the
# other methods are the same code for every record, over its fields' names: a tuple of the values,
# as dataclass compares and hashes them.

def _values(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of `names` of an instance, as a tuple (one, or none, still a tuple)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        name = names[0]
        return lambda self: (getattr(self, name),)
    return lambda self: ()


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}({', '.join(f'{name}={getattr(self, name)!r}' for name in names)})"
    return __repr__


def _eq(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented
    return __eq__


def _hash(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))
    return __hash__


def _frozen(cls: Any, names: frozenset[str]) -> dict[str, Callable[..., None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return {"__setattr__": __setattr__, "__delattr__": __delattr__}


def _init(fields: tuple[Field[Any], ...], frozen: bool, slots: bool, env: dict[str, Any], post_init: bool) -> str:
    """__init__'s text, as dataclasses writes it: a default_factory called for an argument left out,
    a field outside __init__ set from its factory (or, in a slotted class, its default)."""
    parameters = ["self"]
    body = []
    for f in fields:
        default = f"_default_{f.name}"
        if f.default_factory is not MISSING:
            env[default] = f.default_factory
            if f.init:
                parameters.append(f"{f.name}=_FACTORY")
                value = f"{default}() if {f.name} is _FACTORY else {f.name}"
            else:
                value = f"{default}()"
        elif f.init:
            if f.default is not MISSING:
                env[default] = f.default
                parameters.append(f"{f.name}={default}")
            else:
                parameters.append(f.name)
            value = f.name
        elif slots and f.default is not MISSING:
            env[default] = f.default
            value = default
        else:
            continue   # (its default stays the class's attribute)
        body.append(f"_object_setattr(self, {f.name!r}, {value})" if frozen else f"self.{f.name} = {value}")
    if post_init:
        body.append("self.__post_init__()")
    return f"def __init__({', '.join(parameters)}):\n" + "".join(f"  {line}\n" for line in body or ["pass"])


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state):
        object.__setattr__(self, f.name, value)
