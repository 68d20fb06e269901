"""The layout rules, checked on the source: no import cycles (type-only imports included), modules a
reader can hold, and the contract between replay and engines below both."""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import nardrating

PACKAGE = Path(nardrating.__file__).parent
LONGEST = 410  # lines: the "no module over ~400 lines"


def modules() -> dict[str, tuple[Path, bool]]:
    """Dotted name → (file, is a package's __init__)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def imports(name: str, path: Path, is_package: bool, known: set[str]) -> set[str]:
    """The package's modules this one imports, at module level, inside functions (a lazy import
    still ties the two together) or for types only (`if TYPE_CHECKING:`: a reader still has to hold
    both to read either)."""
    found: set[str] = set()

    def absolute(level: int, module: str | None) -> str:
        base = name.split(".")[: len(name.split(".")) - level + (1 if is_package else 0)]
        return ".".join(base + ([module] if module else []))

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = absolute(node.level, node.module) if node.level else node.module or ""
            for alias in node.names:
                found.add(f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module)
    # A module's own packages are imported before it anyway: an edge to them is no cycle.
    return {m for m in found if m in known and m != name and not name.startswith(m + ".")}


@cache
def import_graph() -> dict[str, set[str]]:
    """Each module of the package → the package's modules it imports (read once per test process)."""
    known = modules()
    return {name: imports(name, path, is_package, set(known)) for name, (path, is_package) in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_no_import_cycles():
    graph = import_graph()
    assert cycles(graph) == []


def test_the_cycle_check_can_fail():
    # a → b → c → a is found; d → a is not part of it.
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_modules_a_reader_can_hold():
    lengths = {path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
               for path, _ in modules().values()}
    assert {name: n for name, n in lengths.items() if n > LONGEST} == {}


def test_replay_and_engines_meet_only_in_the_contract():
    # contract/ (events, batches, the view protocol) is below both: it imports neither; no engine
    # imports replay/ or the [fast] extra, and the view replay hands engines imports no engine.
    graph = import_graph()

    def reaches(source: str, target: str) -> list[str]:
        return sorted(m for m in graph[source] if m == target or m.startswith(target + "."))

    contract = [m for m in graph if m.startswith("nardrating.contract")]
    engines = [m for m in graph if m.startswith("nardrating.engines")]
    assert contract and engines
    assert {m: reaches(m, "nardrating.replay") + reaches(m, "nardrating.engines") for m in contract} == dict.fromkeys(contract, [])
    assert {m: reaches(m, "nardrating.replay") + reaches(m, "nardrating.fast") for m in engines} == dict.fromkeys(engines, [])
    assert reaches("nardrating.replay.view", "nardrating.engines") == ["nardrating.engines.registry"]  # replay() runs one
