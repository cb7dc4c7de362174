"""``uth eval`` and ``uth rules``: output, JSON and one-line errors."""

from __future__ import annotations

import json
import tomllib
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
        "title": "Casino table, house-banked, $50,000 payout cap",
        "seed": "001",
        "banking": "house",
    }


# The presets as RULES.md ("Presets", "Pay tables", "Wagers") gives them, written out
# here by hand (not taken from the code the CLI calls); notes are counted only.
_BLIND = {
    "royal_flush": "500:1",
    "straight_flush": "50:1",
    "four_of_a_kind": "10:1",
    "full_house": "3:1",
    "flush": "3:2",
    "straight": "1:1",
}
_TRIPS = {
    "royal_flush": "50:1",
    "straight_flush": "40:1",
    "four_of_a_kind": "30:1",
    "full_house": "8:1",
    "flush": "7:1",
    "straight": "4:1",
    "three_of_a_kind": "3:1",
}
_BAD_BEAT = {
    "straight_flush": "7500:1",
    "four_of_a_kind": "500:1",
    "full_house": "50:1",
    "flush": "30:1",
    "straight": "20:1",
    "three_of_a_kind": "9:1",
}
_LIMIT = {"min": "5.00", "max": "1000.00"}
_COMMON = {
    "max_consecutive_banks": 2,
    "ante": _LIMIT,
    "trips": _LIMIT,
    "play_multiples": {"pre_flop": [4, 3], "flop": [2], "river": [1]},
    "dealer_qualifier": "pair",
    "blind_pays": _BLIND,
    "trips_pays": _TRIPS,
}
EXPECTED_RULES_JSON = {
    "casino": {
        **_COMMON,
        "name": "casino",
        "title": "Casino table, house-banked, $50,000 payout cap",
        "seed": "001",
        "banking": "house",
        "deck_procedure": "single_deck",
        "seats": 7,
        "back_line_bets": False,
        "shared_hand": False,
        "bad_beat": None,
        "bank": None,
        "side_bets_not_above_ante": False,
        "settlement_order": "right_to_left",
        "decision_order": "at_once",
        "folded_trips": "player_hand",
        "payout_cap": {"amount": "50000.00", "min_bettor_rule": True},
        "bad_beat_pays": {},
    },
    "california": {
        **_COMMON,
        "name": "california",
        "title": "California game, player-dealer banks, two alternating decks",
        "seed": "000",
        "banking": "player_dealer",
        "deck_procedure": "two_alternating_decks",
        "seats": 7,
        "back_line_bets": True,
        "shared_hand": False,
        "bad_beat": None,
        "bank": {"min": "100.00", "max": "100000.00"},
        "side_bets_not_above_ante": False,
        "settlement_order": "clockwise",
        "decision_order": "in_turn",
        "folded_trips": "player_hand",
        "payout_cap": None,
        "bad_beat_pays": {},
    },
    "california-bad-beat": {
        **_COMMON,
        "name": "california-bad-beat",
        "title": "California game with Bad Beat Bonus, player-dealer banks",
        "seed": "002",
        "banking": "player_dealer",
        "deck_procedure": "two_alternating_decks",
        "seats": 7,
        "back_line_bets": True,
        "shared_hand": False,
        "bad_beat": _LIMIT,
        "bank": {"min": "100.00", "max": "100000.00"},
        "side_bets_not_above_ante": True,
        "settlement_order": "clockwise",
        "decision_order": "in_turn",
        "folded_trips": "board_only",
        "payout_cap": None,
        "bad_beat_pays": _BAD_BEAT,
    },
    "live": {
        **_COMMON,
        "name": "live",
        "title": "Live online table, house-banked, unlimited players",
        "seed": "004",
        "banking": "house",
        "deck_procedure": "single_deck",
        "seats": None,
        "back_line_bets": False,
        "shared_hand": True,
        "bad_beat": None,
        "bank": None,
        "side_bets_not_above_ante": False,
        "settlement_order": "right_to_left",
        "decision_order": "at_once",
        "folded_trips": "player_hand",
        "payout_cap": None,
        "bad_beat_pays": {},
    },
}
EXPECTED_NOTES = {"casino": 6, "california": 7, "california-bad-beat": 8, "live": 8}


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_show_json_gives_the_preset_of_rules_md(name: str) -> None:
    result = runner.invoke(app, ["rules", "show", name, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    notes = data.pop("notes")
    assert data == EXPECTED_RULES_JSON[name]
    assert len(notes) == EXPECTED_NOTES[name]
    assert all(isinstance(n, str) and n.endswith(".") for n in notes)


def _options(name: str) -> list[str]:
    """The lines of ``uth rules show NAME`` up to the limits, blanks squeezed."""
    result = runner.invoke(app, ["rules", "show", name], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    lines = [" ".join(line.split()) for line in result.stdout.splitlines()]
    return lines[: lines.index("Limits")]


def test_rules_show_names_each_option_in_words() -> None:
    # Readable labels, not the rule set's field names (those are in --json).
    assert _options("california-bad-beat") == [
        "California game with Bad Beat Bonus, player-dealer banks",
        "Rule set california-bad-beat",
        "Rules document 002",
        "Banker a player-dealer (the bank)",
        "Decks two decks with different backs, used in alternate rounds",
        "Seats 7",
        "Back-line bets allowed",
        "Player hands two hole cards to each hand",
        "Banks in a row at most 2",
        "Decisions in turn, clockwise from the player-dealer's left",
        "Play before the flop 4x or 3x the Ante, or check",
        "Play after the flop 2x the Ante, or check",
        "Play at the river 1x the Ante, or fold",
        "Dealer qualifies with pair or better",
        "Trips of a folded hand settled on the five community cards",
        "Payout cap none",
    ]


def test_rules_show_casino() -> None:
    result = runner.invoke(app, ["rules", "show", "casino"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert _options("casino")[3:5] == [
        "Banker the house",
        "Decks one deck, shuffled after every round",
    ]
    for needle in (
        preset("casino").title,
        "001",
        "pair or better",
        "settled on the player's best hand",
        "50,000.00",
        "Blind pay table",
        "Trips pay table",
        "500:1",
        "8:1",
        "Notes",
        "4x or 3x",
    ):
        assert needle in out, needle
    assert "Bad Beat Bonus pay table" not in out


def test_rules_show_california_bad_beat() -> None:
    result = runner.invoke(app, ["rules", "show", "california-bad-beat"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for needle in (
        "player-dealer",
        "Bad Beat Bonus pay table",
        "7500:1",
        "100,000.00",
        "Trips and Bad Beat Bonus may not exceed the Ante.",
    ):
        assert needle in out, needle
    assert "Payout cap none" in _options("california-bad-beat")


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


@pytest.mark.parametrize(
    "args",
    [
        ["rules", "show", "vegas"],
        ["play", "--rules", "vegas"],
        ["advise", "--rules", "vegas", "--hole", "Ah Kd"],
        ["simulate", "--rules", "vegas", "--hands", "10"],
    ],
)
def test_every_rules_option_reads_through_one_loader(args: list[str]) -> None:
    # uth.rules.resolve: a preset by name or a TOML file by path, the same error
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert _one_line_error(result.stderr) == (
        "error: rules: unknown preset 'vegas' (one of casino, california, california-bad-beat, live)"
    )


def test_version() -> None:
    result = runner.invoke(app, ["version"])
    assert result.exit_code == 0
    assert result.stdout == "0.1.0\n"
    # the same version as the package metadata in pyproject.toml
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    assert tomllib.loads(pyproject.read_text("utf-8"))["project"]["version"] == "0.1.0"
