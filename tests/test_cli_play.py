"""``uth play``: the terminal game, driven through stdin with a seeded deck.

Each scripted game first checks the cards the seed deals (through the same
SeededShuffler and deck procedure the command uses), then asserts the exact
money worked out by hand from those cards.
"""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner, Result

from uth.cards import AlternatingDecks, SeededShuffler, SingleDeck, parse_cards
from uth.cli.play import play_command

app = typer.Typer()
app.command("play")(play_command)
app.command("noop")(lambda: None)  # two commands, so "play" is named as in `uth play`


def play(*args: str, input: str = "") -> Result:
    return CliRunner().invoke(app, ["play", *args], input=input)


def balances(output: str) -> list[str]:
    return re.findall(r"^Balance: ([\d,.]+)$", output, flags=re.MULTILINE)


# Seed 7, one deck (casino): the first two decks, in deal order
# (player's two cards, dealer's two, board five).
SEED = "7"


def test_seed_7_deals_the_cards_the_scripts_expect() -> None:
    decks = SingleDeck(SeededShuffler(7))
    first, second = decks.next_deck(), decks.next_deck()
    # round 1: you 6d Js, dealer 9s 4h, board Qc 4s 2c 6s 5h
    assert first.order[:9] == parse_cards("6d Js 9s 4h Qc 4s 2c 6s 5h")
    # round 2: you Td 8d, dealer Qd Qc, board 5c 9h 7d 6d 4c
    assert second.order[:9] == parse_cards("Td 8d Qd Qc 5c 9h 7d 6d 4c")


def test_two_scripted_rounds_end_with_the_exact_balance() -> None:
    script = [
        "10",  # Ante 10 (Blind 10)
        "5",  # Trips 5
        "4",  # pre-flop: Play 4x = 40
        "",  # round 2: Enter repeats the Ante (10)
        "",  # and the Trips (5)
        "c",  # check
        "c",  # check
        "f",  # fold a straight at the river
        "q",
    ]
    result = play("--seed", SEED, input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    # Round 1: 6d Js on Qc 4s 2c 6s 5h is a pair of sixes; the dealer's 9s 4h a pair
    # of fours (qualifies). Ante +10, Blind push (below a straight), Play +40,
    # Trips -5 (a pair): +45.
    assert "Your cards: 6♦ J♠" in out
    assert "Dealer has a pair, qualifies" in out
    assert "You have pair of sixes (6♠ 6♦ Q♣ J♠ 5♥): you win" in out
    # Round 2: Td 8d on 5c 9h 7d 6d 4c is a ten-high straight; folded: Ante -10,
    # Blind -10, and the Trips still has action on the player's hand (casino,
    # player_hand): a straight pays 4:1, +20. Net 0.
    assert "Your cards: T♦ 8♦" in out
    assert "You fold." in out
    assert "Your hand is folded face down." in out
    assert balances(out) == ["1,000.00", "1,045.00", "1,045.00", "1,045.00", "1,045.00"]
    assert out.rstrip().endswith("You leave the table with 1,045.00 (+45.00 after 2 rounds).")
    assert "Traceback" not in out


def test_bad_input_reprompts_with_a_clear_message() -> None:
    script = [
        "abc",  # not an amount
        "3",  # below the table minimum
        "600",  # Ante + Blind 1,200 is more than the balance
        "10.001",  # a fraction of a cent
        "1e3",  # not a plain decimal (issue 7, item 5)
        "10",
        "x",  # Trips: not an amount
        "1000",  # 1,020 in all is more than the balance
        "-5",
        "5",
        "z",  # not a decision
        "q",  # cannot leave in the middle of a round
        "play_2x",  # not legal before the flop
        "4x",
        "q",
    ]
    result = play("--seed", SEED, input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'abc' is not an amount" in out
    assert "'1e3' is not an amount" in out
    assert "The Ante must be between 5.00 and 1000.00, got 3.00" in out
    assert "does not cover 1,200.00 (Ante and Blind 1,200.00)" in out
    assert "'10.001' is not a valid amount (amounts have at most two decimal places" in out
    assert "'x' is not an amount" in out
    assert re.search(r"does not cover 1,020\.00 \(Ante and Blind 20\.00, Trips\s+1,000\.00\)", out)
    assert "'-5' is not a valid amount (must not be negative" in out
    assert "'z' is not a choice here: type one of 4/3/c." in out
    assert "the round is under way" in out
    assert "'play_2x' is not a choice here" in out
    assert out.count("Ante (5.00 to 1,000.00)") == 6 + 1  # six tries, then round 2
    # the same first round as the scripted game: +45
    assert out.rstrip().endswith("You leave the table with 1,045.00 (+45.00 after 1 round).")
    assert "Traceback" not in out


def test_004_with_too_little_left_only_check_and_fold_are_offered() -> None:
    # Balance 20: Ante 10 + Blind 10 leave nothing for a Play, so the player is warned,
    # checks twice and can only fold at the river (RULES.md, "Online table").
    result = play("--seed", SEED, "--balance", "20", input="10\n0\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "0.00 left would not cover a 1x Play" in out
    assert "0.00 left does not cover a Play before the flop." in out
    assert "0.00 left does not cover a Play at the river." in out
    assert "You fold." in out
    assert "play 4x" not in out
    assert "Game over." in out
    assert out.rstrip().endswith("You leave the table with 0.00 (-20.00 after 1 round).")


def test_004_when_the_input_ends_mid_round_the_timer_checks_then_folds() -> None:
    result = play("--seed", SEED, input="10\n0\n")  # nothing after the wagers
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("No answer: auto checked.") == 2
    assert out.count("No answer: auto folded.") == 1
    assert "You fold (auto)." in out
    assert out.rstrip().endswith("You leave the table with 980.00 (-20.00 after 1 round).")


def test_000_player_dealer_table_bank_covers_only_its_amount() -> None:
    # california-bad-beat, seed 3, blue deck: you 5d 9c, dealer 2s 6s, board 9d 8h As 7h Jc.
    deck = AlternatingDecks(SeededShuffler(3)).next_deck()
    assert deck.colour == "blue"
    assert deck.order[:9] == parse_cards("5d 9c 2s 6s 9d 8h As 7h Jc")
    script = ["50", "5", "5", "4", "q"]  # Ante 50, Trips 5, Bad Beat 5, Play 4x = 200
    result = play(
        "--rules", "california-bad-beat", "--bank", "100", "--seed", "3",
        input="\n".join(script) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert "The computer is the player-dealer and banks 100.00 each round." in out
    assert "Bad Beat (5.00 to 50.00, 0 for none)" in out  # 002: not above the Ante
    assert "Dealing from the blue deck." in out
    # The dealer's A-J-9-8-7 does not qualify: the Ante is returned, the Blind pushes
    # (a pair of nines is below a straight), the Play wins 200 but the bank covers only
    # 100; Trips (a pair) and Bad Beat (dealer not qualifying) lose 5 each: +90.
    assert "Dealer has high card, does not qualify" in out
    assert "The dealer does not qualify: your Ante is returned." in out
    # issue 7, item 4: which amount is the returned stake and which the unpaid winnings
    assert (
        "Play: 100.00 of the stake not covered by the bank, returned; "
        "100.00 of winnings not paid by the bank." in out
    )
    assert "Player-dealer (computer): -90.00" in out
    assert out.rstrip().endswith("You leave the table with 1,090.00 (+90.00 after 1 round).")


def test_004_live_table_deals_the_shared_hand_face_up() -> None:
    # live: one deck, like the casino, so seed 7 deals the same first round; Ante 25,
    # Play 3x = 75. Pair of sixes beats the dealer's pair of fours: Ante +25, Blind push,
    # Play +75: +100.
    result = play("--rules", "live", "--seed", SEED, input="25\n0\n3\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Your cards: 6♦ J♠  (one hand, face up, played by every player" in out
    assert "You play 3x: 75.00 on Play." in out
    assert out.rstrip().endswith("You leave the table with 1,100.00 (+100.00 after 1 round).")


def test_a_balance_below_the_minimum_bets_ends_the_game_at_once() -> None:
    result = play("--balance", "9.99")
    assert result.exit_code == 0
    assert "does not cover the minimum Ante and Blind (10.00). Game over." in result.output
    assert "after 0 rounds" in result.output


def test_q_leaves_before_the_first_deal_with_a_secure_shuffle() -> None:
    result = play(input="q\n")
    assert result.exit_code == 0, result.output
    assert "Casino table" in result.output
    assert "You leave the table with 1,000.00 (even after 0 rounds)." in result.output


def _dealt(output: str) -> list[str]:
    """Every card line of one played round: hole cards, flop, turn and river, dealer."""
    return re.findall(r"(?:Your cards|Flop|Turn and river|Dealer shows): [^\n]*", output)


def test_without_a_seed_the_deck_comes_from_the_secure_shuffler(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # RULES.md, "Decks and shuffling": real play shuffles with a cryptographically
    # secure generator. Every shuffle of a game without --seed goes through
    # SecureShuffler (os.urandom), and two games deal different cards.
    import uth.cli.play as play_module
    from uth.cards import SecureShuffler

    used: list[str] = []

    class Spy(SecureShuffler):
        def shuffle(self, cards):  # type: ignore[no-untyped-def]
            used.append("secure")
            return super().shuffle(cards)

    class NoSeeded(SeededShuffler):
        def __init__(self, seed: int) -> None:  # pragma: no cover - must not be called
            raise AssertionError("uth play without --seed built a seeded shuffler")

    monkeypatch.setattr(play_module, "SecureShuffler", Spy)
    monkeypatch.setattr(play_module, "SeededShuffler", NoSeeded)
    script = "5\n0\nc\nc\nf\nq\n"  # Ante 5, no Trips, check, check, fold, leave
    first, second = play(input=script), play(input=script)
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert used == ["secure", "secure"]  # one shuffle per round, each by the secure shuffler
    one, two = _dealt(first.output), _dealt(second.output)
    assert len(one) == len(two) == 4  # hole cards, flop, turn and river, dealer
    # Nine cards of two independent shuffles agree with probability 44!/52!, below 1e-15.
    assert one != two


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "nope"], "unknown preset 'nope'"),
        (["--rules", "casino", "--bank", "100"], "--bank: rule set 'casino' is house-banked"),
        (["--rules", "california", "--bank", "50"], "--bank: must be between 100.00"),
        (
            ["--rules", "california", "--bank", "lots"],
            "--bank: expected a plain decimal amount such as 10 or 12.50, got 'lots'",
        ),
        (["--balance", "-5"], "--balance: must not be negative"),
        (
            ["--balance", "abc"],
            "--balance: expected a plain decimal amount such as 10 or 12.50, got 'abc'",
        ),
        # issue 7, item 5: one parser of plain decimals
        (
            ["--balance", "1e3"],
            "--balance: expected a plain decimal amount such as 10 or 12.50, got '1e3'",
        ),
        (
            ["--balance", "100.005"],
            "--balance: amounts have at most two decimal places, got '100.005'",
        ),
        (
            ["--rules", "california", "--bank", "1e3"],
            "--bank: expected a plain decimal amount such as 10 or 12.50, got '1e3'",
        ),
        (["--rules", "/no/such/rules.toml"], "cannot read"),
    ],
)
def test_bad_options_are_one_line_errors(args: list[str], message: str) -> None:
    result = play(*args)
    assert result.exit_code == 2
    assert "error:" in result.output
    assert message in result.output
    assert "Traceback" not in result.output
