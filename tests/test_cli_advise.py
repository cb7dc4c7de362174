"""``uth advise`` and ``uth play --trainer`` (issue 11)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from uth.analysis.advisor import advise as advise_spot
from uth.analysis.advisor import flop_advice, river_advice
from uth.cards import parse_cards
from uth.cli.advise import action_label
from uth.cli.main import app
from uth.rules import preset

runner = CliRunner()
CASINO = preset("casino")


def advise(*args: str) -> Result:
    return runner.invoke(app, ["advise", *args])


def test_flop_json_gives_every_legal_action_and_the_best() -> None:
    result = advise("--rules", "casino", "--hole", "Ah Kd", "--flop", "Qs 7d 2c", "--json")
    assert result.exit_code == 0, result.output
    expected = flop_advice(CASINO, parse_cards("Ah Kd"), parse_cards("Qs 7d 2c"))
    data = json.loads(result.output)
    assert data == {
        "actions": {name: float(ev) for name, ev in expected.actions.items()},
        "best": "raise_2x",
    }
    assert list(data["actions"]) == ["raise_2x", "check"]


def test_river_json() -> None:
    result = advise("--hole", "Ah Kd", "--board", "Qs 7d 2c 9h 3s", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["best"] == "raise_1x"
    assert data["actions"]["fold"] == -2.0
    assert data["actions"]["raise_1x"] == pytest.approx(-1.4212121212121211, abs=1e-12)


def test_table_marks_the_best_action() -> None:
    result = advise("--rules", "live", "--hole", "Ah Kd", "--flop", "Qs 7d 2c")
    assert result.exit_code == 0, result.output
    rows = [
        line.split() for line in result.output.splitlines() if line.startswith(("Play", "Check"))
    ]
    assert rows == [
        ["Play", "2x", "-0.3118", "0.0000", "best"],
        ["Check", "-0.4247", "0.1129"],
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hole", "Ah Xd", "--flop", "Qs 7d 2c"], "error: hole[1]: 'Xd' is not a card"),
        (["--hole", "Ah", "--flop", "Qs 7d 2c"], "error: hole: expected 2 cards, got 1"),
        (["--hole", "Ah Kd", "--flop", "Qs 7d"], "error: flop: expected 3 cards, got 2"),
        (["--hole", "Ah Kd", "--board", "Qs 7d 2c 9h"], "error: board: expected 5 cards, got 4"),
        (["--hole", "Ah Kd", "--flop", "Ah 7d 2c"], "error: flop: Ah is also a hole card"),
        (["--hole", "Ah Kd", "--board", "Qs Qs 2c 9h 3s"], "error: board: duplicate card Qs"),
        (
            ["--hole", "Ah Kd", "--flop", "Qs 7d 2c", "--board", "Qs 7d 2c 9h 3s"],
            "error: board: give either --flop",
        ),
        (["--rules", "nope", "--hole", "Ah Kd"], "error: rules: unknown preset 'nope'"),
    ],
)
def test_bad_input_is_one_line_naming_the_field(args: list[str], message: str) -> None:
    result = advise(*args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(message)


def test_bad_input_json() -> None:
    result = advise("--hole", "Ah Kd", "--flop", "Qs 7d", "--json")
    assert result.exit_code == 2
    assert json.loads(result.output) == {"error": "flop: expected 3 cards, got 2"}


def test_play_trainer_scores_every_decision() -> None:
    # Seed 7 (see test_cli_play): round 1 you 6d Js, Play 4x pre-flop; round 2 you
    # Td 8d, board 5c 9h 7d 6d 4c: check, check, fold a straight.
    script = ["10", "5", "4", "", "", "c", "c", "f", "q"]
    result = runner.invoke(
        app, ["play", "--seed", "7", "--trainer"], input="\n".join(script) + "\n"
    )
    assert result.exit_code == 0, result.output
    out = result.output
    first = advise_spot(CASINO, parse_cards("6d Js"))
    hole = parse_cards("Td 8d")
    pre_flop = advise_spot(CASINO, hole)
    flop = flop_advice(CASINO, hole, parse_cards("5c 9h 7d"))
    river = river_advice(CASINO, hole, parse_cards("5c 9h 7d 6d 4c"))
    # J-6 offsuit checks by the strategy: the 4x Play cost something.
    assert first.best == "check"
    assert first.cost("raise_4x") > 0
    assert re.search(
        rf"│ Pre-flop\s+│ Play 4x\s+│ Check\s+│\s+{float(first.cost('raise_4x')):.4f} │", out
    )
    assert f"session cost {float(first.cost('raise_4x')):.4f} Antes after 1 round." in out
    # Round 2: the check of T-8 suited, then the flop check (the open-ended draw
    # checks: cost 0) and the folded straight.
    assert flop.best == "check"
    assert river.best == "raise_1x"
    costs = [pre_flop.cost("check"), flop.cost("check"), river.cost("fold")]
    assert costs[1] == 0
    assert costs[2] > 1
    street_rows = [
        rf"│ Pre-flop\s+│ Check\s+│ {action_label(pre_flop.best)}\s+│\s+{float(costs[0]):.4f} │",
        r"│ Flop\s+│ Check\s+│ Check\s+│\s+0.0000 │",
        rf"│ River\s+│ Fold\s+│ Play 1x\s+│\s+{float(costs[2]):.4f} │",
    ]
    for row in street_rows:
        assert re.search(row, out), row
    total = first.cost("raise_4x") + sum(costs, Fraction(0))
    assert f"session cost {float(total):.4f} Antes after 2 rounds." in out
    # The advice table before each of the four decisions.
    assert out.count("Trainer: EV of each option, in Antes") == 4


def test_custom_rules_without_a_stored_analysis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UTH_CACHE_DIR", str(tmp_path / "cache"))
    rules = tmp_path / "flush2.toml"
    rules.write_text(
        'extends = "casino"\nname = "flush2"\n\n[blind_pays]\nflush = "2:1"\n', "utf-8"
    )
    pre = advise("--rules", str(rules), "--hole", "Ah Kd")
    assert pre.exit_code == 2
    assert pre.output.strip().splitlines() == [
        "error: rules: no stored exact analysis for rule set 'flush2', so no pre-flop EVs; "
        "compute it once with `uth analyze --rules` and this rule set's preset or file "
        "(the result is cached)"
    ]
    # The flop and the river are computed on the spot for any rule set.
    flop = advise("--rules", str(rules), "--hole", "Ah Kh", "--flop", "Qh 7h 2c", "--json")
    assert flop.exit_code == 0, flop.output
    assert json.loads(flop.output)["best"] == "raise_2x"
