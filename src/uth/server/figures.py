"""The return-to-player figures of the tables' rule sets, for the Rules panel.

Figures are never typed: they come from :mod:`uth.analysis`. A rule set whose
result is stored (the presets ship theirs) is known at once; any other is
analysed in a background thread when the server starts (one numba thread, so
the tables keep their cores), and reads as ``{"status": "computing"}`` until
the figures are ready (then they are also in the user cache for the next start).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from typing import Any

from uth.analysis import AnalysisResult, cached_result, fingerprint, result_for
from uth.rules import RuleSet

log = logging.getLogger("uth.server")


def figures_json(result: AnalysisResult) -> dict[str, Any]:
    """The figures the Rules panel shows (fractions of one, not percent)."""
    return {
        "status": "ready",
        "house_edge": float(result.house_edge),
        "rtp_initial_bet": float(result.rtp_initial_bet),
        "rtp_total_bet": float(result.rtp_total_bet),
        "trips_rtp": None if result.trips is None else float(result.trips[0]),
        "bad_beat_rtp": None if result.bad_beat is None else float(result.bad_beat[0]),
    }


class Figures:
    """Figures per rule-set fingerprint, analysing unknown rule sets in the background."""

    def __init__(self) -> None:
        self._known: dict[str, dict[str, Any]] = {}
        self._failed: dict[str, str] = {}
        self._lock = threading.Lock()
        self.threads: list[threading.Thread] = []

    def start(self, rule_sets: Iterable[RuleSet]) -> None:
        """Load the stored figures of ``rule_sets`` and start one background analysis
        per rule set (fingerprint) that has none.
        """
        pending: dict[str, RuleSet] = {}
        for rules in rule_sets:
            key = fingerprint(rules)
            if key in self._known or key in pending:
                continue
            known = cached_result(rules)
            if known is not None:
                self._known[key] = figures_json(known)
            else:
                pending[key] = rules
        for key, rules in pending.items():
            thread = threading.Thread(
                target=self._analyse, args=(key, rules), name=f"analysis-{key}", daemon=True
            )
            self.threads.append(thread)
            thread.start()

    def _analyse(self, key: str, rules: RuleSet) -> None:
        log.info("analysing rule set %s (%s) in the background", rules.name, key)
        try:
            result = result_for(rules, threads=1)
        except Exception as exc:  # reported in the figures, never kills the server
            log.exception("analysis of rule set %s failed", rules.name)
            with self._lock:
                self._failed[key] = str(exc)
            return
        with self._lock:
            self._known[key] = figures_json(result)
        log.info("rule set %s analysed in %.1f s", rules.name, result.elapsed_s)

    def for_rules(self, rules: RuleSet) -> dict[str, Any]:
        """The figures of ``rules``: ``{"status": "ready", ...}``, ``{"status":
        "computing"}`` while the background analysis runs, or ``{"status":
        "failed", "error": ...}``.
        """
        key = fingerprint(rules)
        with self._lock:
            if key in self._known:
                return self._known[key]
            if key in self._failed:
                return {"status": "failed", "error": self._failed[key]}
        return {"status": "computing"}
