"""STYLE.md, point 11: data flows one way; a lower layer never imports a higher one.

Absolute and relative imports are both checked (a relative import is resolved
against the importing module's package), in every package under ``src/uth``,
the table machine (``uth.engine.table``) included.
"""

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
#: The longest module of the server, in lines (issue 8).
SERVER_MODULE_LINES = 400


def _module_name(path: Path, root: Path) -> list[str]:
    """``uth.engine.table.machine`` for ``<root>/engine/table/machine.py`` (a package's
    ``__init__`` is the package itself).
    """
    parts = ["uth", *path.relative_to(root).with_suffix("").parts]
    return parts[:-1] if parts[-1] == "__init__" else parts


def _is_module(root: Path, name: str) -> bool:
    return (root / name).is_dir() or (root / f"{name}.py").exists()


def _imports(path: Path, root: Path = SRC) -> set[str]:
    """The uth layers (``engine``, ``server``, ...) or base modules a file imports."""
    tree = ast.parse(path.read_text("utf-8"))
    module = _module_name(path, root)
    package = module if path.name == "__init__.py" else module[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[list[str]] = []
        if isinstance(node, ast.Import):
            names = [alias.name.split(".") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = (node.module or "").split(".")
            else:
                up = package[: len(package) - (node.level - 1)]
                base = up + (node.module.split(".") if node.module else [])
            # ``from uth import engine`` or ``from .. import server``: the names that
            # are modules of uth are layers (``__version__`` is not).
            if len(base) == 1:
                names = [[*base, a.name] for a in node.names if _is_module(root, a.name)]
            else:
                names = [base]
        for parts in names:
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


def test_relative_imports_are_resolved(tmp_path: Path) -> None:
    root = tmp_path / "uth"
    table = root / "engine" / "table"
    table.mkdir(parents=True)
    (table / "__init__.py").write_text("from .machine import X\nfrom ... import money\n")
    (table / "machine.py").write_text(
        "from ...server import app\nfrom ..round import Round\nfrom .. import views\n"
    )
    (root / "cli").mkdir()
    (root / "analysis").mkdir()
    (root / "money.py").write_text("")
    (root / "engine" / "views.py").write_text(
        "from ..cli import main\nfrom uth import analysis, __version__\n"
    )
    assert _imports(table / "__init__.py", root) == {"engine", "money"}
    assert _imports(table / "machine.py", root) == {"server", "engine"}
    assert _imports(root / "engine" / "views.py", root) == {"cli", "analysis"}


def test_the_table_machine_is_in_the_engine_layer() -> None:
    machine = SRC / "engine" / "table"
    assert (machine / "__init__.py").exists()
    for path in sorted(machine.rglob("*.py")):
        assert _imports(path) - BASE <= {"engine", "cards", "evaluator", "rules"}, path.name


def test_base_modules_import_no_layer() -> None:
    for name in BASE:
        assert _imports(SRC / f"{name}.py") <= BASE


def test_every_package_is_a_known_layer() -> None:
    packages = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages <= set(ALLOWED) | {"web"}


def test_engine_is_pure() -> None:
    """No clock, randomness or I/O inside the engine (STYLE.md, point 1). The table
    machine handles times given to it: ``datetime`` is imported for its types and
    arithmetic only, and nothing in the engine asks any clock for the time.
    """
    forbidden = {"random", "secrets", "time", "os", "socket", "asyncio", "sqlalchemy", "threading"}
    datetime_names = {"UTC", "datetime", "timedelta", "timezone"}
    clock_calls = {"now", "utcnow", "today", "fromtimestamp", "time", "monotonic", "perf_counter"}
    for path in sorted((SRC / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                assert node.func.attr not in clock_calls, f"{path.name} calls .{node.func.attr}()"
            if isinstance(node, ast.Import):
                mods = {alias.name.split(".")[0] for alias in node.names}
                assert "datetime" not in mods, f"{path.name} imports the datetime module"
            elif isinstance(node, ast.ImportFrom) and node.module:
                mods = {node.module.split(".")[0]}
                if node.module == "datetime":
                    names = {a.name for a in node.names}
                    assert names <= datetime_names, f"{path.name} imports {names}"
            else:
                continue
            assert not mods & forbidden, f"{path.name} imports {mods & forbidden}"


def test_no_server_module_is_over_400_lines() -> None:
    long = {
        str(p.relative_to(SRC)): n
        for p in sorted((SRC / "server").rglob("*.py"))
        if (n := len(p.read_text("utf-8").splitlines())) > SERVER_MODULE_LINES
    }
    assert long == {}
