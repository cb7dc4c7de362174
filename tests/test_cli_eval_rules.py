"""``uth eval`` and ``uth rules``: output, JSON and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from uth.cli.main import app
from uth.rules import PRESET_NAMES, preset

runner = CliRunner()


def _one_line_error(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in stderr
    return lines[0]


# --- uth eval ----------------------------------------------------------------


def test_eval_royal_flush_json() -> None:
    result = runner.invoke(app, ["eval", "--json", "As", "Ks", "Qs", "Js", "Ts", "2c", "3d"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "category": "royal_flush",
        "best_five": ["As", "Ks", "Qs", "Js", "Ts"],
    }


def test_eval_royal_flush_words() -> None:
    result = runner.invoke(app, ["eval", "As", "Ks", "Qs", "Js", "Ts", "2c", "3d"])
    assert result.exit_code == 0, result.output
    assert "Royal flush" in result.stdout
    assert "As Ks Qs Js Ts" in result.stdout


@pytest.mark.parametrize(
    ("cards", "category", "best_five", "words"),
    [
        (
            "As Ad Ah Kd Kc",
            "full_house",
            ["As", "Ah", "Ad", "Kd", "Kc"],
            "Full house, aces over kings",
        ),
        ("5c 4d 3h 2s As 9d", "straight", ["5c", "4d", "3h", "2s", "As"], "Straight, five high"),
        (
            "Qc Qd 7c 7s Ah Kd",
            "two_pair",
            ["Qd", "Qc", "7s", "7c", "Ah"],
            "Two pair, queens and sevens",
        ),
        ("6c 6d 9h Js 2c 3d 4h", "pair", ["6d", "6c", "Js", "9h", "4h"], "Pair of sixes"),
        ("2c 5d 9h Js Kc 3d 7h", "high_card", ["Kc", "Js", "9h", "7h", "5d"], "High card, king"),
    ],
)
def test_eval_categories(cards: str, category: str, best_five: list[str], words: str) -> None:
    result = runner.invoke(app, ["eval", "--json", *cards.split()])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"category": category, "best_five": best_five}
    human = runner.invoke(app, ["eval", *cards.split()])
    assert words in human.stdout


def test_eval_accepts_a_run_of_cards() -> None:
    result = runner.invoke(app, ["eval", "--json", "AsKsQsJsTs"])
    assert json.loads(result.stdout)["category"] == "royal_flush"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["As", "Xx", "Qs", "Js", "Ts"], "cards[1]: 'Xx' is not a card"),
        (["As", "Ks"], "cards: a hand needs 5 to 7 cards, got 2"),
        ([], "cards: a hand needs 5 to 7 cards, got 0"),
        (["As", "Ks", "Qs", "Js", "Ts", "2c", "3d", "4h"], "got 8"),
        (["As", "As", "Qs", "Js", "Ts"], "cards: duplicate card As"),
    ],
)
def test_eval_bad_input_is_one_line(args: list[str], needle: str) -> None:
    result = runner.invoke(app, ["eval", *args])
    assert result.exit_code == 2
    assert needle in _one_line_error(result.stderr)
    assert result.stdout == ""


def test_eval_bad_input_json() -> None:
    result = runner.invoke(app, ["eval", "--json", "As", "Ks", "Qs", "Js", "1s"])
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {
        "error": "cards[4]: '1s' is not a card (expected e.g. 'As', 'Td', '10d')"
    }


# --- uth rules ---------------------------------------------------------------


def test_rules_list() -> None:
    result = runner.invoke(app, ["rules", "list"])
    assert result.exit_code == 0, result.output
    for name in PRESET_NAMES:
        assert name in result.stdout
    assert "001" in result.stdout


def test_rules_list_json() -> None:
    result = runner.invoke(app, ["rules", "list", "--json"])
    assert result.exit_code == 0, result.output
    listed = json.loads(result.stdout)
    assert [r["name"] for r in listed] == list(PRESET_NAMES)
    assert listed[0] == {
        "name": "casino",
        "title": preset("casino").title,
        "seed": "001",
        "banking": "house",
    }


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_show_json_is_the_model_dump(name: str) -> None:
    result = runner.invoke(app, ["rules", "show", name, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == preset(name).model_dump(mode="json")


def test_rules_show_casino() -> None:
    result = runner.invoke(app, ["rules", "show", "casino"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for needle in (
        preset("casino").title,
        "001",
        "single_deck",
        "house",
        "pair or better",
        "player_hand",
        "50,000.00",
        "Blind pay table",
        "Trips pay table",
        "500:1",
        "8:1",
        "Notes",
        "4x or 3x",
    ):
        assert needle in out, needle
    assert "Bad Beat pay table" not in out


def test_rules_show_california_bad_beat() -> None:
    result = runner.invoke(app, ["rules", "show", "california-bad-beat"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for needle in (
        "player-dealer",
        "two_alternating_decks",
        "board_only",
        "Bad Beat pay table",
        "7500:1",
        "100,000.00",
        "may not exceed the Ante",
    ):
        assert needle in out, needle
    assert "payout cap" in out and "none" in out


def test_rules_show_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        'extends = "casino"\nname = "mine"\ntitle = "My table"\nante = { min = 10 }\n', "utf-8"
    )
    result = runner.invoke(app, ["rules", "show", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["name"] == "mine"
    assert data["ante"] == {"min": "10.00", "max": "1000.00"}
    human = runner.invoke(app, ["rules", "show", str(path)])
    assert "My table" in human.stdout
    assert "10.00 to 1,000.00" in human.stdout


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (None, "cannot read"),
        ("ante = [", "not valid TOML"),
        ('extends = "casino"\nante = { min = 0 }\n', "ante"),
    ],
)
def test_rules_show_bad_file(tmp_path: Path, content: str | None, needle: str) -> None:
    path = tmp_path / "bad.toml"
    if content is not None:
        path.write_text(content, "utf-8")
    result = runner.invoke(app, ["rules", "show", str(path)])
    assert result.exit_code == 2
    assert needle in _one_line_error(result.stderr)


def test_rules_show_unknown_preset() -> None:
    result = runner.invoke(app, ["rules", "show", "vegas"])
    assert result.exit_code == 2
    line = _one_line_error(result.stderr)
    assert "unknown preset 'vegas'" in line


def test_version() -> None:
    result = runner.invoke(app, ["version"])
    assert result.exit_code == 0
    assert result.stdout.strip()
