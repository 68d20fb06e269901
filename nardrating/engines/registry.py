"""Engine names → classes, imported only when a club uses them.

Adding an engine: one module with an `Engine` subclass, and one line here
(or `register("name", "package.module:Class")` from outside, as tests do).
`init`, the config check and the leaderboard read everything else from the class.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any

_ENGINES = {
    "elo": "nardrating.engines.elo:EloEngine",          # seed 003
    "fibs": "nardrating.engines.fibs:FibsEngine",       # seeds 004 and 001
    "placement": "nardrating.engines.placement:PlacementEngine",  # seed 001
    "chips": "nardrating.engines.chips:ChipsEngine",    # seed 001
    "mfsnb": "nardrating.engines.mfsnb:MfsnbEngine",    # seed 000
    "fide": "nardrating.engines.fide:FideEngine",       # seed 002
    "glicko": "nardrating.engines.glicko:GlickoEngine",  # Glickman, "The Glicko system"
    "glicko2": "nardrating.engines.glicko2:Glicko2Engine",  # Glickman, "Example of the Glicko-2 system"
}


def register(name: str, target: str) -> None:
    """Make the engine class at `target` ("module:Class") known as `name`."""
    _ENGINES[name] = target


def unregister(name: str) -> None:
    _ENGINES.pop(name, None)


def engine_names() -> list[str]:
    return list(_ENGINES)


def engine_class(name: str) -> Any:
    module, _, attr = _ENGINES[name].partition(":")
    return getattr(import_module(module), attr)
