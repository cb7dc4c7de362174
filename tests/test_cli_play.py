"""``uth play``: the terminal game, driven through stdin with a seeded deck.

Each scripted game first checks the cards the seed deals (through the same
SeededShuffler and deck procedure the command uses), then asserts the exact
money worked out by hand from those cards.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
import typer
from typer.testing import CliRunner, Result

from uth.cards import SeededShuffler, SingleDeck, parse_cards
from uth.cli.play import TableDecks, play_command
from uth.rules import preset

app = typer.Typer()
app.command("play")(play_command)
app.command("noop")(lambda: None)  # two commands, so "play" is named as in `uth play`


def play(*args: str, input: str = "") -> Result:
    return CliRunner().invoke(app, ["play", *args], input=input)


def played(*args: str, lines: Sequence[str]) -> str:
    """The output of ``uth play`` given one input line per item of ``lines``,
    after checking that it exited 0."""
    result = play(*args, input="".join(f"{line}\n" for line in lines))
    assert result.exit_code == 0, result.output
    return result.output


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
    out = played("--seed", SEED, lines=script)
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
    out = played("--seed", SEED, lines=script)
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
    out = played("--seed", SEED, "--balance", "20", lines=["10", "0"])
    assert "0.00 left would not cover a 1x Play" in out
    assert "0.00 left does not cover a Play before the flop." in out
    assert "0.00 left does not cover a Play at the river." in out
    assert "You fold." in out
    assert "play 4x" not in out
    assert "Game over." in out
    assert out.rstrip().endswith("You leave the table with 0.00 (-20.00 after 1 round).")


def test_004_when_the_input_ends_mid_round_the_timer_checks_then_folds() -> None:
    out = played("--seed", SEED, lines=["10", "0"])  # nothing after the wagers
    assert out.count("No answer: auto checked.") == 2
    assert out.count("No answer: auto folded.") == 1
    assert "You fold (auto)." in out
    assert out.rstrip().endswith("You leave the table with 980.00 (-20.00 after 1 round).")


# Seed 3, two alternating decks: the first (blue) deck in deal order.
SEED_3_BLUE = "5d 9c 2s 6s 9d 8h As 7h Jc 4h Tc"


def test_seed_3_deals_the_cards_the_card_room_scripts_expect() -> None:
    deck = TableDecks(preset("california"), SeededShuffler(3)).deal()
    assert deck.colour == "blue"
    assert deck.order[:11] == parse_cards(SEED_3_BLUE)


def test_000_card_room_you_decline_a_computer_banks_and_decisions_go_in_turn() -> None:
    # california, seed 3, bank 100, two computers: you (seat 1) decline; Ada (seat 2)
    # banks 100; you and Ben (seat 3) play. Blue deck: you 5d 9c, Ben 2s 6s, the
    # player-dealer 9d 8h, board As 7h Jc 4h Tc.
    script = ["", "50", "0", "4", "q"]  # decline, Ante 50, no Trips, Play 4x = 200
    out = played(
        "--rules", "california", "--bank", "100", "--seed", "3", "--computers", "2",
        lines=script,
    )  # fmt: skip
    assert "Seats: You (seat 1), Ada (seat 2), Ben (seat 3)." in out
    assert out.count("The player-dealer position is offered to you.") == 1
    assert "You decline the bank.\nAda is the player-dealer with a bank of 100.00." in out
    assert "Dealing from the blue deck." in out
    # in turn from the player-dealer's left: you, then Ben, street by street
    assert re.search(r"You play 4x: 200.00 on Play.\nBen checks.\nFlop: ", out)
    assert re.search(r"Ben checks.\nTurn and river: .*\nBen folds.\nDealer shows: 9♦ 8♥", out)
    # Ben's fold (Ante and Blind 5 each) is collected first: the bank is at 110. The
    # player-dealer's straight beats your ace high: your Ante 50 is collected (160),
    # then 40 of your Blind (200: the player-dealer may win only the bank); 10 of the
    # Blind and your Play of 200 are returned.
    assert "Blind: 10.00 of the stake not covered by the bank, returned." in out
    assert "Play: 200.00 of the stake not covered by the bank, returned." in out
    assert "  Ben: -10.00, bank left 110.00\n  You: -90.00, bank left 200.00" in out
    assert "Player-dealer: +100.00" in out
    # round 2: Ada may keep the position (one round banked): you are not asked
    assert "Round 2" in out and out.count("offered to you") == 1
    assert out.rstrip().endswith("You leave the table with 910.00 (-90.00 after 1 round).")


def test_000_card_room_you_bank_and_refused_banks_are_asked_again() -> None:
    # seed 3, one computer: you bank 300 after three refused answers; Ada (seat 2)
    # plays 5d 9c against your 2s 6s on 9d 8h As 7h Jc: she checks, plays 2x with
    # her pair of nines on the flop; your ace high does not qualify: her Ante and
    # Blind push, her Play wins 10 from your bank. Round 2: the offer comes back to
    # you first (you banked one round): you decline, then leave.
    script = ["50", "5000", "abc", "300", "", "q"]
    out = played("--rules", "california", "--seed", "3", "--computers", "1", lines=script)
    assert "Bank (100.00 to 1,000.00), or Enter to decline" in out
    assert (
        "'50' refused: the bank must be between 100.00 and 1,000.00 (your balance), got 50.00."
        in out
    )
    assert (
        "'5000' refused: the bank must be between 100.00 and 1,000.00 (your balance), "
        "got 5,000.00." in out
    )
    assert "'abc' refused: expected a plain decimal amount" in out
    assert "You are the player-dealer with a bank of 300.00: no hand of yours this round." in out
    assert "Ada checks.\nFlop: 9♦ 8♥ A♠\nAda plays 2x (10.00)." in out
    assert "Dealer has high card, does not qualify" in out
    assert "Ada shows 5♦ 9♣: pair of nines, wins" in out
    assert "  Ada: +10.00, bank left 290.00\nPlayer-dealer: -10.00" in out
    assert "Ante (5.00" not in out.split("Round 2")[0]  # no wagers of yours in round 1
    assert "Bank (100.00 to 990.00), or Enter to decline: You decline the bank." in out
    assert "Ada is the player-dealer with a bank of 10,000.00." in out
    assert balances(out) == ["1,000.00", "990.00", "990.00"]
    assert out.rstrip().endswith("You leave the table with 990.00 (-10.00 after 1 round).")


def test_000_card_room_a_player_who_banked_twice_is_passed_over() -> None:
    # One computer: you decline twice (Ada banks rounds 1 and 2; in round 2 she keeps
    # it without asking you); you check, check and fold each round (-20 each). Round
    # 3: the offer comes to you, you decline, and Ada, who banked two rounds in a row,
    # is passed over: nobody banks, no round is dealt, the game ends.
    script = ["", "10", "0", "c", "c", "f", "", "", "c", "c", "f", ""]
    out = played("--rules", "california", "--seed", "3", "--computers", "1", lines=script)
    assert out.count("The player-dealer position is offered to you.") == 2
    assert out.count("Ada is the player-dealer with a bank of 10,000.00.") == 2
    assert "Dealing from the blue deck." in out and "Dealing from the red deck." in out
    assert (
        "Nobody takes the player-dealer position (Ada banked the last two rounds): "
        "no round is dealt." in out
    )
    assert out.rstrip().endswith("You leave the table with 960.00 (-40.00 after 2 rounds).")


def test_000_card_room_a_balance_below_the_minimum_bank_declines_without_asking() -> None:
    # Balance 50, minimum bank 100: the offer is declined for you, with the reason.
    script = ["5", "0", "c", "c", "f", "q"]
    out = played(
        "--rules", "california", "--balance", "50", "--seed", "3", "--computers", "1",
        lines=script,
    )  # fmt: skip
    assert (
        "The player-dealer position is offered to you, but your balance of 50.00 is below "
        "the minimum bank of 100.00: you cannot bank, you decline.\n"
        "Ada is the player-dealer with a bank of 10,000.00." in out
    )
    assert "Bank (" not in out
    assert out.rstrip().endswith("You leave the table with 40.00 (-10.00 after 1 round).")


def test_000_card_room_you_are_told_when_the_position_passes_you_over() -> None:
    # Computers bank 100,000 but hold 50,000: they decline. You bank rounds 1 and 2
    # (Ada's Play wins 10 from your bank each time); round 3: Ada declines and you,
    # who banked the last two rounds, are passed over: no round is dealt.
    script = ["300", "300"]
    out = played(
        "--rules", "california", "--seed", "3", "--computers", "1", "--bank", "100000",
        lines=script,
    )  # fmt: skip
    assert out.count("You bank 300.00.") == 2
    assert (
        "Ada declines the bank.\n"
        "You have banked 2 rounds in a row: the position passes on.\n"
        "Nobody takes the player-dealer position: no round is dealt.\n"
        "You leave the table with 980.00 (-20.00 after 2 rounds)." in out
    )


def test_004_live_table_deals_the_shared_hand_face_up() -> None:
    # live: one deck, like the casino, so seed 7 deals the same first round; Ante 25,
    # Play 3x = 75. Pair of sixes beats the dealer's pair of fours: Ante +25, Blind push,
    # Play +75: +100.
    out = played("--rules", "live", "--seed", SEED, lines=["25", "0", "3", "q"])
    assert "Your cards: 6♦ J♠  (one hand, face up, played by every player" in out
    assert "You play 3x: 75.00 on Play." in out
    assert out.rstrip().endswith("You leave the table with 1,100.00 (+100.00 after 1 round).")


def test_a_balance_below_the_minimum_bets_ends_the_game_at_once() -> None:
    out = played("--balance", "9.99", lines=[])
    assert "does not cover the minimum Ante and Blind (10.00). Game over." in out
    assert "after 0 rounds" in out


def test_q_leaves_before_the_first_deal_with_a_secure_shuffle() -> None:
    out = played(lines=["q"])
    assert "Casino table" in out
    assert "You leave the table with 1,000.00 (even after 0 rounds)." in out


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
        (
            ["--rules", "california", "--bank", "50"],
            "--bank: must be between 100.00 and 100000.00, got 50",
        ),
        (
            ["--rules", "california", "--bank", "lots"],
            "--bank: expected a plain decimal amount such as 10 or 12.50, got 'lots'",
        ),
        (["--balance", "-5"], "--balance: must not be negative, got -5"),
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
            "--balance: amounts have at most two decimal places, got 100.005",
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
