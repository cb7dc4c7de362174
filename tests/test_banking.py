"""The rotation of the player-dealer position (uth.engine.banking).

Seeds 000 (two consecutive rounds, then offered clockwise) and 002 (offered at the
start of every round, systematically and continuously clockwise; seven seats plus
the player-dealer); RULES.md, "Who banks".
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from uth.engine.banking import (
    Banker,
    NoBanker,
    NoBankReason,
    Offered,
    OfferStep,
    Rotation,
    RotationState,
)
from uth.errors import IllegalActionError, InvalidWagerError
from uth.rules import preset

D = Decimal
RICH = D(100000)


def table(*players: str, backer: str | None = None) -> Rotation:
    """A california table with the players in seats 1, 2, 3, ..."""
    rotation = Rotation(preset("california"), backer=backer)
    for seat, player in enumerate(players, start=1):
        rotation.sit(player, seat)
    return rotation


def run_round(rotation: Rotation, accepts: dict[str, int]) -> Banker | NoBanker:
    """One round: each offered player accepts with their bank in ``accepts`` or declines."""
    state = rotation.open_offer()
    while isinstance(state, Offered):
        bank = accepts.get(state.player)
        state = rotation.answer(state.player, bank, balance=RICH if bank else None)
    if isinstance(state, Banker):
        rotation.end_round()
    return state


def test_000_rotation_over_many_rounds_with_accepts_and_declines() -> None:
    # ann, bob, cat, dan in seats 1-4; bob always declines; the others accept 500.
    rotation = table("ann", "bob", "cat", "dan")
    accepts = {"ann": 500, "cat": 500, "dan": 500}
    bankers = []
    for _ in range(12):
        state = run_round(rotation, accepts)
        assert isinstance(state, Banker)
        bankers.append((state.player, state.consecutive))
    # Each banker keeps the position for two rounds, then it goes clockwise; bob
    # declines his turn, so cat gets it after ann; after dan it comes back to ann.
    assert bankers == [
        ("ann", 1), ("ann", 2), ("cat", 1), ("cat", 2), ("dan", 1), ("dan", 2),
        ("ann", 1), ("ann", 2), ("cat", 1), ("cat", 2), ("dan", 1), ("dan", 2),
    ]  # fmt: skip


def test_000_the_offer_sequence_is_recorded_for_the_audit() -> None:
    rotation = table("ann", "bob", "cat", "dan")
    accepts = {"ann": 500, "cat": 700}
    first = run_round(rotation, accepts)
    assert first == Banker("ann", 1, D(500), 1, (OfferStep("ann", 1, "accepted", D(500)),))
    run_round(rotation, accepts)
    third = run_round(rotation, accepts)
    # ann banked twice: the offer starts at her left, bob declines, cat accepts.
    assert third == Banker(
        "cat",
        3,
        D(700),
        1,
        (OfferStep("bob", 2, "declined"), OfferStep("cat", 3, "accepted", D(700))),
    )


def test_000_a_player_who_banked_twice_is_passed_over() -> None:
    # Only ann accepts: she banks twice, then everyone else declines and she is
    # passed over, so no round is dealt (no third-party banker).
    rotation = table("ann", "bob", "cat")
    assert [run_round(rotation, {"ann": 100}) for _ in range(2)] == [
        Banker("ann", 1, D(100), 1, (OfferStep("ann", 1, "accepted", D(100)),)),
        Banker("ann", 1, D(100), 2, (OfferStep("ann", 1, "accepted", D(100)),)),
    ]
    third = rotation.open_offer()
    assert third == Offered("bob", 2, ())
    assert rotation.answer("bob", None) == Offered("cat", 3, (OfferStep("bob", 2, "declined"),))
    assert rotation.answer("cat", None) == NoBanker(
        NoBankReason.ALL_DECLINED,
        (
            OfferStep("bob", 2, "declined"),
            OfferStep("cat", 3, "declined"),
            OfferStep("ann", 1, "passed_over"),
        ),
    )
    assert not rotation.in_round


def test_000_a_player_who_banked_twice_may_bank_again_after_another_banker() -> None:
    rotation = table("ann", "bob", "cat", backer="backer")
    run_round(rotation, {"ann": 100})
    run_round(rotation, {"ann": 100})
    third = run_round(rotation, {"ann": 100, "backer": 2000})
    assert isinstance(third, Banker)
    assert (third.player, third.seat, third.third_party) == ("backer", None, True)
    assert [s.outcome for s in third.steps] == ["declined", "declined", "passed_over", "accepted"]
    # The backer banked round 3; ann's streak is broken and she may accept again.
    fourth = run_round(rotation, {"ann": 100, "backer": 2000})
    assert isinstance(fourth, Banker)
    assert (fourth.player, fourth.consecutive) == ("ann", 1)


def test_nobody_accepts_without_a_third_party_banker_no_round_is_dealt() -> None:
    rotation = table("ann", "bob")
    state = run_round(rotation, {})
    assert state == NoBanker(
        NoBankReason.ALL_DECLINED,
        (OfferStep("ann", 1, "declined"), OfferStep("bob", 2, "declined")),
    )
    assert rotation.banker is None
    rotation.sit("cat", 3)  # between rounds again: seating is allowed


def test_nobody_accepts_the_third_party_banker_takes_it() -> None:
    rotation = table("ann", "bob", backer="backer")
    rotation.open_offer()
    rotation.answer("ann", None)
    rotation.answer("bob", None)
    state = rotation.answer("backer", 5000, balance=RICH)
    assert rotation.players() == ("ann", "bob")  # the backer banks: both seats play
    rotation.end_round()
    assert state == Banker(
        "backer",
        None,
        D(5000),
        1,
        (
            OfferStep("ann", 1, "declined"),
            OfferStep("bob", 2, "declined"),
            OfferStep("backer", None, "accepted", D(5000)),
        ),
    )
    # between rounds, every seated player may play a hand
    assert rotation.players() == ("ann", "bob")
    # 002, systematically: after a round banked by the backer the next offer starts
    # one seat further clockwise (bob first).
    assert rotation.open_offer() == Offered("bob", 2, ())


def test_the_third_party_banker_declining_too_means_no_round() -> None:
    rotation = table("ann", backer="backer")
    state = run_round(rotation, {})
    assert isinstance(state, NoBanker)
    assert state.reason is NoBankReason.ALL_DECLINED
    assert [s.player for s in state.steps] == ["ann", "backer"]


def test_an_empty_table_without_a_backer_has_no_players() -> None:
    assert table().open_offer() == NoBanker(NoBankReason.NO_PLAYERS, ())
    # with a backer, the backer is offered the position, but nobody plays
    assert table(backer="backer").open_offer() == Offered("backer", None, ())


def test_the_player_dealer_has_no_hand_of_their_own() -> None:
    rotation = table("ann", "bob", "cat")
    rotation.open_offer()
    rotation.answer("ann", None)
    rotation.answer("bob", 300, balance=D(300))
    assert rotation.players() == ("ann", "cat")
    assert rotation.banker is not None and rotation.banker.player == "bob"


@pytest.mark.parametrize(
    ("bank", "balance", "message"),
    [
        (99, D(1000), r"player_dealer.bank: the bank must be between 100.00 and 100000.00, got 99"),
        (100001, RICH * 2, r"must be between 100.00 and 100000.00, got 100001"),
        ("1.001", D(1000), r"player_dealer.bank: .*1.001"),
        (
            500,
            D("499.99"),
            r"player_dealer.bank: the balance of 499.99 does not cover a bank of 500.00$",
        ),
        (500, None, r"player_dealer.balance: the player's balance is needed"),
    ],
)
def test_a_bank_outside_the_limits_or_the_balance_is_refused_and_changes_nothing(
    bank: object, balance: Decimal | None, message: str
) -> None:
    rotation = table("ann", "bob")
    rotation.open_offer()
    with pytest.raises(InvalidWagerError, match=message):
        rotation.answer("ann", bank, balance=balance)
    # the offer is still ann's
    assert rotation.answer("ann", 500, balance=D(500)) == Banker(
        "ann", 1, D(500), 1, (OfferStep("ann", 1, "accepted", D(500)),)
    )


def test_only_the_offered_player_may_answer() -> None:
    rotation = table("ann", "bob")
    with pytest.raises(IllegalActionError, match="offer: the player-dealer position is not on"):
        rotation.answer("ann", None)
    rotation.open_offer()
    with pytest.raises(
        IllegalActionError, match="player: the position is offered to 'ann', not 'bob'"
    ):
        rotation.answer("bob", 500, balance=RICH)


def test_seating_and_leaving_only_between_rounds() -> None:
    rotation = table("ann", "bob")
    rotation.open_offer()
    with pytest.raises(IllegalActionError, match="round: cannot sit down while a round is under"):
        rotation.sit("cat", 3)
    rotation.answer("ann", 200, balance=RICH)
    # the player-dealer cannot leave mid-round, nor anyone else
    with pytest.raises(IllegalActionError, match="round: cannot leave while a round is under way"):
        rotation.leave("ann")
    with pytest.raises(IllegalActionError, match="cannot leave"):
        rotation.leave("bob")
    with pytest.raises(IllegalActionError, match="cannot open the offer"):
        rotation.open_offer()
    rotation.end_round()
    assert rotation.leave("ann") == 1
    assert rotation.seats == {2: "bob"}


def test_seats_are_checked() -> None:
    rotation = table("ann", backer="backer")
    with pytest.raises(IllegalActionError, match=r"seat: must be 1..7, got 8"):
        rotation.sit("bob", 8)
    with pytest.raises(IllegalActionError, match="seat: seat 1 is taken"):
        rotation.sit("bob", 1)
    with pytest.raises(IllegalActionError, match="player: 'ann' is already seated at seat 1"):
        rotation.sit("ann", 2)
    with pytest.raises(IllegalActionError, match="'backer' is the table's third-party banker"):
        rotation.sit("backer", 2)
    with pytest.raises(IllegalActionError, match="player: 'bob' is not seated"):
        rotation.leave("bob")
    with pytest.raises(IllegalActionError, match="no player-dealer was chosen"):
        rotation.end_round()


def test_house_rule_sets_have_no_rotation() -> None:
    with pytest.raises(IllegalActionError, match="rule set 'casino' is house-banked"):
        Rotation(preset("casino"))


def test_a_round_not_dealt_does_not_count_towards_the_streak() -> None:
    rotation = table("ann", "bob")
    for dealt in (True, False, True):
        state = rotation.open_offer()
        assert state == Offered("ann", 1, ())
        rotation.answer("ann", 100, balance=RICH)
        rotation.end_round(dealt=dealt)
    assert rotation.streak == ("ann", 2)
    state = rotation.open_offer()
    assert state == Offered("bob", 2, ())


def test_verify_and_can_check_without_changing_anything() -> None:
    rotation = table("ann", "bob")
    assert rotation.can_sit("cat", 3)
    assert not rotation.can_sit("cat", 1)
    assert rotation.can_leave("bob") and not rotation.can_leave("cat")
    assert not rotation.can_answer("ann", None)  # nothing on offer yet
    rotation.open_offer()
    assert not rotation.can_sit("cat", 3) and not rotation.can_leave("ann")
    assert rotation.can_answer("ann", None)
    assert rotation.can_answer("ann", 100, balance=D(100))
    assert not rotation.can_answer("ann", 101, balance=D(100))
    assert not rotation.can_answer("bob", None)
    assert rotation.verify_answer("ann", "250.50", balance=D(300)) == D("250.50")
    assert rotation.verify_answer("ann", None) is None
    with pytest.raises(InvalidWagerError, match=r"does not cover a bank of 301\.00"):
        rotation.verify_answer("ann", 301, balance=D(300))
    # none of these changed the offer
    assert rotation.answer("ann", None) == Offered("bob", 2, (OfferStep("ann", 1, "declined"),))
    assert rotation.seats == {1: "ann", 2: "bob"}


# ----------------------------------------------------------------- restarts
def test_a_rotation_resumed_after_a_restart_passes_over_who_banked_twice() -> None:
    # Before the restart: ann banked two rounds dealt in a row at seat 1.
    before = table("ann", "bob", "cat")
    for _ in range(2):
        assert isinstance(run_round(before, {"ann": 500}), Banker)
    assert before.state == RotationState("ann", 2, 2)
    # After it: a fresh rotation, the seats empty; ann and bob sit again elsewhere.
    after = Rotation(preset("california"))
    after.resume(before.state)
    after.sit("bob", 3)
    after.sit("ann", 2)
    state = after.open_offer()
    # Seat 2 is ann's now: passed over (000), the offer goes on to bob at seat 3.
    assert state == Offered("bob", 3, (OfferStep("ann", 2, "passed_over"),))
    assert after.answer("bob", None) == NoBanker(
        NoBankReason.ALL_DECLINED,
        (OfferStep("ann", 2, "passed_over"), OfferStep("bob", 3, "declined")),
    )


def test_a_resumed_start_at_an_empty_seat_goes_to_the_next_occupied_seat() -> None:
    rotation = Rotation(preset("california"))
    rotation.resume(RotationState("ann", 1, 4))  # ann may keep it, from seat 4
    rotation.sit("cat", 6)
    rotation.sit("ann", 1)
    # Seat 4 is empty now: cat (6) first, then ann (1), whose one round in a row
    # before the restart lets her bank a second.
    assert rotation.open_offer() == Offered("cat", 6, ())
    state = rotation.answer("cat", None)
    assert state == Offered("ann", 1, (OfferStep("cat", 6, "declined"),))
    banker = rotation.answer("ann", 500, balance=RICH)
    assert isinstance(banker, Banker) and banker.consecutive == 2
    rotation.end_round()
    assert rotation.state == RotationState("ann", 2, 2)


def test_rotation_state_after_a_round_as_end_round_counts_it() -> None:
    rules = preset("california")
    start = RotationState()
    assert start == RotationState(None, 0, 1)
    once = start.after(rules, "ann", 3, dealt=True)
    assert once == RotationState("ann", 1, 3)  # she may keep it
    assert once.after(rules, "ann", 3, dealt=True) == RotationState("ann", 2, 4)
    # Not dealt (nobody bet, or voided): no count, no break; the start moves.
    assert once.after(rules, "bob", 5, dealt=False) == RotationState("ann", 1, 5)
    assert once.after(rules, "ann", 3, dealt=False) == RotationState("ann", 1, 3)
    # The third-party banker: one seat on from this offer's start.
    assert once.after(rules, "dan", None, dealt=True) == RotationState("dan", 1, 4)
    assert RotationState("ann", 2, 7).after(rules, "dan", None, dealt=True).start == 1


@pytest.mark.parametrize(
    ("state", "message"),
    [
        (RotationState(None, 0, 0), "rotation.start: must be a seat 1..7, got 0"),
        (RotationState(None, 0, 8), "rotation.start: must be a seat 1..7, got 8"),
        (
            RotationState("ann", -1, 1),
            "rotation.streak: must be a whole number of rounds >= 0, got -1",
        ),
        (
            RotationState("ann", True, 1),
            "rotation.streak: must be a whole number of rounds >= 0, got True",
        ),
        (RotationState("", 1, 1), "rotation.last: expected a non-empty id or None, got ''"),
        (
            RotationState("ann", 0, 1),
            "rotation.streak: 0 round(s) in a row for 'ann'; a streak needs its banker "
            "and a banker at least one round",
        ),
        (
            RotationState(None, 2, 1),
            "rotation.streak: 2 round(s) in a row for nobody; a streak needs its banker "
            "and a banker at least one round",
        ),
    ],
)
def test_a_resumed_state_is_checked(state: RotationState, message: str) -> None:
    rotation = Rotation(preset("california"))
    with pytest.raises(IllegalActionError) as err:
        rotation.resume(state)
    assert str(err.value) == message
    assert rotation.state == RotationState()


def test_resume_only_before_anybody_sits_and_between_rounds() -> None:
    rotation = table("ann")
    with pytest.raises(IllegalActionError, match=r"^rotation: resume before anybody sits"):
        rotation.resume(RotationState("ann", 2, 2))
    rotation.open_offer()
    with pytest.raises(IllegalActionError, match=r"^round: cannot resume the rotation while"):
        rotation.resume(RotationState())
