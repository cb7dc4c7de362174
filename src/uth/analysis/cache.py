"""Stored results: the presets' results shipped with the package, and a disk cache.

A result is stored as JSON (:meth:`AnalysisResult.to_json`) in a file named
after the rule set's :func:`~uth.analysis.params.fingerprint`, so rule sets that
differ only in fields that do not change the math share one file. Lookup order:
the package's ``uth/analysis/data/`` (made by ``uth analyze --store``), then the
user cache directory: ``$UTH_CACHE_DIR``, else ``$XDG_CACHE_HOME/uth/analysis``,
else ``~/.cache/uth/analysis``. Nothing recomputes what is known: a stored result
is used unless the caller asks for a new run (``uth analyze --no-cache``).
"""

from __future__ import annotations

import contextlib
import json
import os
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from uth.analysis.params import fingerprint
from uth.analysis.result import AnalysisResult
from uth.rules import RuleSet

if TYPE_CHECKING:
    from uth.analysis.exact import Progress


def cache_dir() -> Path:
    """The user cache directory for analysis results (see the module docstring)."""
    explicit = os.environ.get("UTH_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "uth" / "analysis"


def _file_name(key: str) -> str:
    return f"{key}.json"


def shipped_result(rules: RuleSet) -> AnalysisResult | None:
    """The result shipped with the package for ``rules``' fingerprint, or None."""
    entry = resources.files("uth.analysis").joinpath("data", _file_name(fingerprint(rules)))
    if not entry.is_file():
        return None
    return AnalysisResult.from_json(json.loads(entry.read_text("utf-8")))


def cached_result(rules: RuleSet) -> AnalysisResult | None:
    """The stored result for ``rules`` (shipped, then the user cache), or None.

    A cache file that cannot be read is ignored (and recomputed by
    :func:`result_for`).
    """
    shipped = shipped_result(rules)
    if shipped is not None:
        return shipped
    path = cache_dir() / _file_name(fingerprint(rules))
    try:
        return AnalysisResult.from_json(json.loads(path.read_text("utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store_result(result: AnalysisResult, directory: Path | None = None) -> Path:
    """Write ``result`` into ``directory`` (default: the user cache) and return the path.

    Raises:
        OSError: the directory cannot be created or written.

    """
    directory = directory or cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / _file_name(result.fingerprint)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(result.to_json(), indent=1) + "\n", "utf-8")
    tmp.replace(path)
    return path


def result_for(
    rules: RuleSet,
    *,
    use_cache: bool = True,
    threads: int | None = None,
    progress: Progress | None = None,
    ray_address: str | None = None,
) -> AnalysisResult:
    """The figures of ``rules``: stored if known (unless ``use_cache`` is false),
    otherwise computed by :func:`uth.analysis.exact.analyze` and stored in the
    user cache (a cache that cannot be written is skipped).
    """
    from uth.analysis.exact import analyze

    if use_cache:
        known = cached_result(rules)
        if known is not None:
            return known
    result = analyze(rules, threads=threads, progress=progress, ray_address=ray_address)
    with contextlib.suppress(OSError):
        store_result(result)
    return result
