"""STYLE.md, point 11: data flows one way; a lower layer never imports a higher one."""

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "uth"

# Each layer and the uth packages it may import (besides itself and the shared
# base modules uth.errors and uth.money).
ALLOWED: dict[str, set[str]] = {
    "cards": set(),
    "evaluator": {"cards"},
    "rules": {"cards", "evaluator"},
    "engine": {"cards", "evaluator", "rules"},
    "analysis": {"cards", "evaluator", "rules", "engine"},
    "server": {"cards", "evaluator", "rules", "engine", "analysis"},
    "cli": {"cards", "evaluator", "rules", "engine", "analysis", "server"},
}
BASE = {"errors", "money"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "uth" and len(parts) > 1:
                found.add(parts[1])
    return found


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_layers_below(layer: str) -> None:
    bad: list[str] = []
    for path in sorted((SRC / layer).rglob("*.py")):
        for target in _imports(path) - {layer} - BASE:
            if target not in ALLOWED[layer]:
                bad.append(f"{path.relative_to(SRC)} imports uth.{target}")
    assert bad == []


def test_base_modules_import_no_layer() -> None:
    for name in BASE:
        assert _imports(SRC / f"{name}.py") <= BASE


def test_every_package_is_a_known_layer() -> None:
    packages = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages <= set(ALLOWED) | {"web"}


def test_engine_is_pure() -> None:
    """No clock, randomness or I/O inside the engine (STYLE.md, point 1).

    The engine may take times from outside (a command's ``at``; a round record's
    times), so ``datetime`` is imported as a type, but no clock is ever read.
    """
    forbidden = {"random", "secrets", "time", "os", "socket", "asyncio", "sqlalchemy"}
    clock_reads = {"now", "utcnow", "today", "time", "monotonic", "perf_counter"}
    for path in sorted((SRC / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                assert node.func.attr not in clock_reads, f"{path.name} reads a clock"
                continue
            if isinstance(node, ast.Import):
                mods = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                mods = {node.module.split(".")[0]}
                if node.module == "datetime":
                    assert {a.name for a in node.names} <= {"UTC", "datetime", "timezone"}
            else:
                continue
            assert not mods & forbidden, f"{path.name} imports {mods & forbidden}"
