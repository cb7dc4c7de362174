"""``uth analyze`` and the figures in ``uth rules show`` (from the shipped results)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from uth.cli.main import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def _empty_user_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UTH_CACHE_DIR", str(tmp_path / "cache"))


def test_analyze_json_has_the_documented_keys_and_figures() -> None:
    result = runner.invoke(app, ["analyze", "--rules", "live", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {
        "house_edge", "element_of_risk", "rtp_initial_bet", "rtp_total_bet",
        "average_total_bet", "std_dev", "frequencies", "outcomes", "wagers", "trips",
        "bad_beat", "elapsed_s",
    }  # fmt: skip
    assert round(data["house_edge"], 5) == 0.02185
    assert round(data["rtp_initial_bet"], 4) == 0.9782
    assert round(data["rtp_total_bet"], 4) == 0.9947
    assert round(data["trips"]["rtp"], 4) == 0.9650
    assert data["bad_beat"] is None
    assert set(data["frequencies"]) == {"raise_4x", "raise_3x", "raise_2x", "raise_1x", "fold"}
    assert data["frequencies"]["raise_3x"] == 0
    assert sum(data["frequencies"].values()) == pytest.approx(1, abs=1e-12)
    assert sum(data["outcomes"].values()) == pytest.approx(1, abs=1e-12)
    assert sum(data["wagers"].values()) == pytest.approx(-data["house_edge"], abs=1e-12)
    assert data["element_of_risk"] == pytest.approx(data["house_edge"] / data["average_total_bet"])


def test_analyze_bad_beat_preset_reports_the_bad_beat() -> None:
    result = runner.invoke(app, ["analyze", "--rules", "california-bad-beat", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert 0 < data["bad_beat"]["hit_frequency"] < data["bad_beat"]["rtp"] < 1


def test_analyze_table_and_chart(tmp_path: Path) -> None:
    chart = tmp_path / "chart.png"
    result = runner.invoke(app, ["analyze", "--rules", "casino", "--chart", str(chart)])
    assert result.exit_code == 0, result.output
    assert "House edge (per Ante)" in result.stdout
    assert "2.1850%" in result.stdout
    assert "99.474%" in result.stdout
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert chart.stat().st_size > 20_000


def test_analyze_store_writes_the_result_file(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["analyze", "--rules", "casino", "--json", "--store", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    (stored,) = tmp_path.glob("*.json")
    assert json.loads(stored.read_text())["ev"] == "-50643648973/2317817502000"


def test_analyze_unknown_rules_is_a_one_line_error() -> None:
    result = runner.invoke(app, ["analyze", "--rules", "nope"])
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("error: rules: unknown preset 'nope'")
    assert len(result.stderr.strip().splitlines()) == 1


def test_rules_show_prints_the_return_to_player() -> None:
    result = runner.invoke(app, ["rules", "show", "casino"])
    assert result.exit_code == 0, result.output
    assert "Return to player (exact analysis, perfect play)" in result.stdout
    assert "99.47%" in result.stdout
    assert "97.82%" in result.stdout
    assert "2.185%" in result.stdout
    assert "96.50%" in result.stdout


def test_rules_show_of_an_unanalysed_rule_set_says_how_to_compute(tmp_path: Path) -> None:
    custom = tmp_path / "even-flush.toml"
    custom.write_text(
        'extends = "casino"\n[blind_pays]\nroyal_flush = "500:1"\nstraight_flush = "50:1"\n'
        'four_of_a_kind = "10:1"\nfull_house = "3:1"\nflush = "1:1"\nstraight = "1:1"\n'
    )
    result = runner.invoke(app, ["rules", "show", str(custom)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "Return to player: not yet computed for this rule set" in text
    assert "`uth analyze --rules FILE` computes it" in text
