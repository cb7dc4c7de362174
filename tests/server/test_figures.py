"""The return-to-player figures of GET /api/tables/{id} (uth.server.figures)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from helpers import live_server

from uth.analysis import AnalysisResult
from uth.analysis.cache import shipped_result
from uth.rules import preset, rules_from_data
from uth.server import figures as figures_module
from uth.server.figures import Figures


def test_table_info_carries_the_shipped_figures(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'uth.db'}"
    with live_server(url, tmp_path) as srv:
        live = srv.client.get("/api/tables/t1").json()["figures"]
    assert live["status"] == "ready"
    assert round(live["rtp_total_bet"], 4) == 0.9947
    assert round(live["rtp_initial_bet"], 4) == 0.9782
    assert round(live["house_edge"], 5) == 0.02185
    assert round(live["trips_rtp"], 4) == 0.9650
    assert live["bad_beat_rtp"] is None


def test_unanalysed_rule_set_is_computed_in_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UTH_CACHE_DIR", str(tmp_path))
    custom = rules_from_data({"extends": "casino", "play_multiples": {"pre_flop": [4]}})
    release = threading.Event()
    asked: list[str] = []
    stand_in = shipped_result(preset("casino"))
    assert stand_in is not None

    def slow_analysis(rules: object, *, threads: int) -> AnalysisResult:
        # The analysis itself is tested in tests/test_analysis.py; here the server
        # must answer "computing" until it is done, then the figures.
        asked.append(getattr(rules, "name", ""))
        assert threads == 1
        release.wait(timeout=30)
        return stand_in

    monkeypatch.setattr(figures_module, "result_for", slow_analysis)
    figures = Figures()
    figures.start([preset("casino"), custom, custom])
    assert figures.for_rules(preset("live"))["status"] == "ready"
    assert figures.for_rules(custom) == {"status": "computing"}
    release.set()
    for thread in figures.threads:
        thread.join(timeout=30)
    assert asked == [custom.name]  # one background analysis per fingerprint
    assert figures.for_rules(custom)["status"] == "ready"
    assert figures.for_rules(custom)["rtp_total_bet"] == pytest.approx(0.99474, abs=1e-5)


def test_failed_background_analysis_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UTH_CACHE_DIR", str(tmp_path))
    custom = rules_from_data({"extends": "casino", "play_multiples": {"flop": [3]}})

    def broken(rules: object, *, threads: int) -> AnalysisResult:
        raise MemoryError("out of memory")

    monkeypatch.setattr(figures_module, "result_for", broken)
    figures = Figures()
    figures.start([custom])
    for thread in figures.threads:
        thread.join(timeout=30)
    assert figures.for_rules(custom) == {"status": "failed", "error": "out of memory"}
