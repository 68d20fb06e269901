"""The checked config, cached: what a command needs of nardrating.toml without checking it again (no
pydantic model of the config is built, none of its modules imported).

Stored in the club's cache folder as JSON after a full check, where every list's parameters are
plain fields (PLAIN_MODELS) or have a class to come back as (an engine's `param_values`): the
[club] table, and per rating list its engine, disciplines, line and the values the engine's model
gave its parameters (tuples and dicts tagged, so that each value comes back as the very type it was). Used only for the exact
config text (its SHA-256), program (source digest) and Python it was written by; a damaged,
foreign or stale file, or any value not plain JSON, means the config is checked again.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..config import Club, ClubConfig, ParamValues, RatingList

NAME = "config.json"


def _encode(value: Any) -> Any:
    """A parameter value as JSON, its type kept: tuples and dicts tagged; anything else is refused."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tuple):
        return {"tuple": [_encode(v) for v in value]}
    if isinstance(value, list):
        return {"list": [_encode(v) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[_encode(k), _encode(v)] for k, v in value.items()]}
    raise TypeError(f"a parameter of type {type(value).__name__} is not cached")


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        (kind, items), = value.items()
        if kind == "tuple":
            return tuple(_decode(v) for v in items)
        if kind == "list":
            return [_decode(v) for v in items]
        if kind == "dict":
            return {_decode(k): _decode(v) for k, v in items}
        raise ValueError(f"unknown tag {kind!r}")
    if isinstance(value, list):
        raise ValueError("an untagged list")
    return value


def _key(path: Path, text: str) -> dict[str, Any]:
    import sys

    from .._version import __version__
    from .cache import source_digest

    return {"club": str(path.resolve()), "config": hashlib.sha256(text.encode("utf-8")).hexdigest(),
            "source": source_digest(), "version": __version__, "python": list(sys.version_info[:2])}


def save(config: ClubConfig) -> None:
    """Keep the checked config for read-only commands (nothing where the cache cannot be written)."""
    from .cachedir import CacheFolder

    body = {"key": _key(config.path, config.text),
            "club": [config.club.name, config.club.journal, config.club.default_discipline, config.club.as_of,
                     config.club.language, config.club.pairing_command],
            "ratings": [[r.name, r.engine, {k: _encode(v) for k, v in _fields(r.params).items()},
                         None if r.disciplines is None else list(r.disciplines), r.line, _kind(r)]
                        for r in config.ratings.values()]}
    data = json.dumps(body, ensure_ascii=False, sort_keys=True).encode("utf-8")
    with CacheFolder(config, create=True) as folder:
        folder.write(NAME, hashlib.sha256(data).hexdigest().encode("ascii") + b"\n" + data)


# The models whose engines read nothing of their parameters but the fields (engines/params.py: elo,
# fibs, chips, placement, glicko, glicko2), given back as ParamValues. An engine that reads more of
# them (mfsnb's first ratings, fide's ruleset numbers) names the class that has it as
# `param_values`, which its model shares the rules of; any other engine's config (one written
# elsewhere) is checked every time.
PLAIN_MODELS = "nardrating.engines.params"


def _kind(rating: RatingList) -> str:
    """How the values come back: "plain" (ParamValues) or "engine" (the engine's `param_values`)."""
    from ..engines.registry import engine_class

    if type(rating.params).__module__ == PLAIN_MODELS:
        return "plain"
    values = engine_class(rating.engine).param_values
    rules = tuple(base for base in values.__bases__ if base is not ParamValues) if values is not None else ()
    if rules and isinstance(rating.params, rules):
        return "engine"
    raise TypeError(f"{type(rating.params).__name__} is not cached")


def _fields(params: Any) -> dict[str, Any]:
    """The model's values by field (not model_dump, which would turn tuples into lists and models into dicts)."""
    return {name: getattr(params, name) for name in type(params).model_fields}


def _values(engine: str, kind: str) -> type[ParamValues]:
    if kind == "plain":
        return ParamValues
    if kind == "engine":
        from ..engines.registry import engine_class

        values = engine_class(engine).param_values
        if isinstance(values, type) and issubclass(values, ParamValues):
            return values
    raise ValueError(f"cached parameters of an unknown kind {kind!r}")


def load(path: Path) -> ClubConfig:
    """The cached config of this very nardrating.toml; raises (FileNotFoundError, ValueError…) when there is none to use."""
    from ..journal.tomlsource import read_text
    from ..errors import Problem
    from .cachedir import CacheFolder

    problems: list[Problem] = []
    text = read_text(path, problems, str(path))
    if text is None:
        raise ValueError("config unreadable")
    probe = ClubConfig(path=path, club=Club(), text=text)
    with CacheFolder(probe, create=False) as folder:
        raw, _ = folder.read(NAME)
    digest, _, data = raw.partition(b"\n")
    if hashlib.sha256(data).hexdigest().encode("ascii") != digest:
        raise ValueError("cached config damaged")
    body = json.loads(data)
    if body["key"] != _key(path, text):
        raise ValueError("cached config of another text or program")
    from ..i18n import LANGUAGES

    name, journal, default_discipline, as_of, language, pairing_command = body["club"]
    if not (isinstance(name, str) and isinstance(journal, list) and all(isinstance(j, str) for j in journal)
            and isinstance(default_discipline, str) and as_of in ("last-entry", "today") and language in LANGUAGES
            and (pairing_command is None or isinstance(pairing_command, list)
                 and all(isinstance(word, str) for word in pairing_command))):
        raise ValueError("cached [club] malformed")
    ratings: dict[str, RatingList] = {}
    for list_name, engine, values, disciplines, line, kind in body["ratings"]:
        if not (isinstance(list_name, str) and isinstance(engine, str) and isinstance(values, dict)
                and (disciplines is None or all(isinstance(d, str) for d in disciplines))
                and (line is None or type(line) is int)):
            raise ValueError("cached rating list malformed")
        ratings[list_name] = RatingList(list_name, engine, _values(engine, kind)({k: _decode(v) for k, v in values.items()}),
                                        None if disciplines is None else tuple(disciplines), line)
    return ClubConfig(path=path, club=Club(name, journal, default_discipline, as_of, language, pairing_command),
                      ratings=ratings, text=text)
