"""Engine names → classes, imported only when a club uses them."""
from __future__ import annotations

from importlib import import_module

_ENGINES = {
    "elo": "nardrating.engines.elo:EloEngine",
}


def engine_names() -> list[str]:
    return list(_ENGINES)


def engine_class(name: str):
    module, _, attr = _ENGINES[name].partition(":")
    return getattr(import_module(module), attr)
