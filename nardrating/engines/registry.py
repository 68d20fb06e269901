"""Engine names → classes, imported only when a club uses them."""
from __future__ import annotations

from importlib import import_module

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


def engine_names() -> list[str]:
    return list(_ENGINES)


def engine_class(name: str):
    module, _, attr = _ENGINES[name].partition(":")
    return getattr(import_module(module), attr)
