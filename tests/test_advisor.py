"""The decision advisor against brute-force enumeration (issue 11).

River spots are enumerated deal by deal through the engine's settlement (the
plain evaluator, real money): every dealer hole of the 45 unseen cards. Flop
spots enumerate all 1,070,190 deals (turn, river, dealer hole) with the batch
evaluator and settle each deal wager by wager as RULES.md's settlement table
says; a sample of those deals is checked against the engine's settlement. The
advisor must agree exactly (Fractions equal, so well within 1e-9).
"""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from uth.analysis.advisor import (
    DEALER_HOLES,
    Advice,
    AdviceUnavailableError,
    action_name,
    advise,
    flop_advice,
    legal_names,
    no_pre_flop_table,
    river_advice,
)
from uth.cards import ALL_CARDS, Card, parse_cards
from uth.engine import Action
from uth.engine.settlement import HandEntry, settle
from uth.engine.wagers import Wagers
from uth.errors import InvalidCardError
from uth.evaluator import CATEGORY_SHIFT, evaluate7_batch, hand_value
from uth.rules import RuleSet, preset
from uth.rules.model import PlayMultiples

ANTE = Decimal(10)


def _cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def _net(
    rules: RuleSet,
    hole: tuple[Card, ...],
    board: tuple[Card, ...],
    dealer: tuple[Card, ...],
    play: int,
) -> Fraction:
    """The engine's net of Ante, Blind and Play for one deal, in Antes."""
    entry = HandEntry("p", Wagers(ante=ANTE, blind=ANTE), hole, play=play)
    result = settle(rules, board, dealer, [entry]).hand("p")
    return Fraction(result.net) / Fraction(ANTE)


def _river_brute(
    rules: RuleSet, hole: tuple[Card, ...], board: tuple[Card, ...]
) -> dict[str, Fraction]:
    seen = set(hole) | set(board)
    unseen = [c for c in ALL_CARDS if c not in seen]
    holes = list(combinations(unseen, 2))
    assert len(holes) == DEALER_HOLES
    out = {}
    for m in rules.play_multiples.river:
        total = sum((_net(rules, hole, board, d, m) for d in holes), Fraction(0))
        out[f"raise_{m}x"] = total / len(holes)
    # A fold loses Ante and Blind whatever the dealer holds.
    folds = {_net(rules, hole, board, d, 0) for d in holes[::99]}
    assert folds == {-2}
    out["fold"] = Fraction(-2)
    return out


CASINO = preset("casino")
LIVE = preset("live")
#: A rule set with other numbers: dealer qualifies with two pair, 3x or 1x at the river.
ODD = CASINO.model_copy(
    update={
        "name": "odd",
        "dealer_qualifier": CASINO.dealer_qualifier.__class__.TWO_PAIR,
        "play_multiples": PlayMultiples(pre_flop=(4, 3), flop=(2,), river=(3, 1)),
    }
)

RIVER_SPOTS = [
    (CASINO, "Ah Kd", "Qs 7d 2c 9h 3s"),  # ace high: play or fold is close
    (CASINO, "5c 4d", "Ac Kh Qd 9s 2h"),  # playing the board's high cards
    (LIVE, "Td 9d", "8d 7d 6d Kc 2s"),  # straight flush: the Blind pays 50:1
    (LIVE, "Qh Qd", "Qs Qc 3h 3d 9c"),  # four of a kind
    (CASINO, "2c 3d", "Ah Ad Ac Kh Kd"),  # the board plays: full house, ties
    (ODD, "8h 8c", "Ks 8d 4s 4c Jh"),  # full house, qualifier two pair, 3x at the river
    (ODD, "Jc Tc", "As 5h 3c 9d 2s"),  # jack high against a two-pair qualifier
]


@pytest.mark.parametrize(("rules", "hole", "board"), RIVER_SPOTS)
def test_river_matches_engine_settlement_of_every_dealer_hole(
    rules: RuleSet, hole: str, board: str
) -> None:
    h, b = _cards(hole), _cards(board)
    advice = river_advice(rules, h, b)
    brute = _river_brute(rules, h, b)
    assert advice.actions == brute
    assert list(advice.actions) == list(legal_names(rules, "river"))
    assert advice.actions["fold"] == -2


def _flop_brute(
    rules: RuleSet, hole: tuple[Card, ...], flop: tuple[Card, ...]
) -> tuple[dict[str, Fraction], np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """Every deal after this flop, settled wager by wager (RULES.md's table)."""
    seen = {c.index for c in (*hole, *flop)}
    rest = np.array([c for c in range(52) if c not in seen], dtype=np.uint8)
    boards = list(combinations(range(len(rest)), 2))
    n = len(boards)
    turn_river = rest[np.array(boards)]  # (1081, 2)
    others = np.array([[k for k in range(len(rest)) if k not in tr] for tr in boards])
    holes = rest[others[:, np.array(list(combinations(range(45), 2)))]]  # (1081, 990, 2)
    flop_cols = np.broadcast_to(np.array([c.index for c in flop], dtype=np.uint8), (n, 3))
    hole_cols = np.broadcast_to(np.array([c.index for c in hole], dtype=np.uint8), (n, 2))
    player_rows = np.concatenate([hole_cols, flop_cols, turn_river], axis=1)
    board_cols = np.broadcast_to(player_rows[:, None, 2:], (n, DEALER_HOLES, 5))
    dealer = np.concatenate([board_cols, holes], axis=2).reshape(-1, 7)
    pv = evaluate7_batch(player_rows).astype(np.int64)[:, None]
    dv = evaluate7_batch(dealer).astype(np.int64).reshape(len(boards), DEALER_HOLES)
    win, lose = pv > dv, pv < dv
    qualifies = dv >= int(rules.dealer_qualifier) << CATEGORY_SHIFT
    # Units of 1/2 Ante (the Blind's 3:2 flush), exact integers.
    scale = 2
    blind_odds = np.zeros(10, dtype=np.int64)
    for category, odds in rules.blind_pays.items():
        blind_odds[int(category)] = int(odds.ratio * scale)
    ante = np.where(qualifies, win.astype(np.int64) - lose, 0) * scale
    blind = np.where(win, blind_odds[pv >> CATEGORY_SHIFT], np.where(lose, -scale, 0))
    play_unit = (win.astype(np.int64) - lose) * scale
    units = Fraction(1, scale * DEALER_HOLES * len(boards))
    out = {}
    for m in rules.play_multiples.flop:
        out[f"raise_{m}x"] = int((ante + blind + m * play_unit).sum()) * units
    river_options = [(ante + blind + m * play_unit).sum(axis=1) for m in rules.play_multiples.river]
    river_options.append(np.full(len(boards), -2 * scale * DEALER_HOLES))
    out["check"] = int(np.max(river_options, axis=0).sum()) * units
    return out, player_rows, dealer.reshape(len(boards), DEALER_HOLES, 7), boards


FLOP_SPOTS = [
    (CASINO, "Ah Kd", "Qs 7d 2c"),
    (LIVE, "9h 8h", "Th 7h 2c"),  # straight flush draws: the Blind's big odds
    (ODD, "4c 4d", "Ks Qh 4h"),
]


@pytest.mark.parametrize(("rules", "hole", "flop"), FLOP_SPOTS)
def test_flop_matches_enumeration_of_every_turn_river_and_dealer_hole(
    rules: RuleSet, hole: str, flop: str
) -> None:
    h, f = _cards(hole), _cards(flop)
    brute, player_rows, dealer_rows, boards = _flop_brute(rules, h, f)
    assert flop_advice(rules, h, f).actions == brute
    # The vectorised settlement above agrees with the engine's, deal by deal.
    rng = random.Random(11)
    for _ in range(60):
        b = rng.randrange(len(boards))
        d = rng.randrange(DEALER_HOLES)
        board = tuple(Card.from_index(int(c)) for c in player_rows[b, 2:])
        dealer = tuple(Card.from_index(int(c)) for c in dealer_rows[b, d, 5:])
        assert hand_value([c.index for c in (*h, *board)]) == int(
            evaluate7_batch(player_rows[b : b + 1])[0]
        )
        for m in (*rules.play_multiples.flop, *rules.play_multiples.river):
            single = _flop_single(rules, h, board, dealer, m)
            assert single == _net(rules, h, board, dealer, m)


def _flop_single(
    rules: RuleSet,
    hole: tuple[Card, ...],
    board: tuple[Card, ...],
    dealer: tuple[Card, ...],
    m: int,
) -> Fraction:
    """One deal by the same wager-by-wager rule as :func:`_flop_brute`, in Antes."""
    pv = hand_value([c.index for c in (*hole, *board)])
    dv = hand_value([c.index for c in (*dealer, *board)])
    sign = (pv > dv) - (pv < dv)
    ante = sign if dv >= int(rules.dealer_qualifier) << CATEGORY_SHIFT else 0
    paying = rules.blind_pays.get(pv >> CATEGORY_SHIFT)  # type: ignore[call-overload]
    blind = (paying.ratio if paying else Fraction(0)) if sign > 0 else Fraction(min(sign, 0))
    return ante + blind + m * sign


def test_flop_check_is_the_best_river_decision_averaged() -> None:
    """A check on the flop is worth the average of the river advice over all 1,081 turns and rivers."""
    h, f = _cards("Jd 6c"), _cards("Jh 9s 3d")
    seen = set(h) | set(f)
    rest = [c for c in ALL_CARDS if c not in seen]
    total = Fraction(0)
    for t, r in combinations(rest, 2):
        river = river_advice(CASINO, h, (*f, t, r))
        total += river.actions[river.best]
    assert flop_advice(CASINO, h, f).actions["check"] == total / 1081


def test_dealer_never_holds_a_seen_card() -> None:
    # The player holds the royal flush with the board; were As or Ks counted as
    # dealer cards, the dealer could tie it. Every one of the 990 dealer holes
    # loses, so Play and Blind win on all and the Ante wins when the dealer qualifies.
    h, b = _cards("As Ks"), _cards("Qs Js Ts 3d 2c")
    seen = set(h) | set(b)
    unseen = [c for c in ALL_CARDS if c not in seen]
    qualifying = sum(
        hand_value([x.index, y.index, *(c.index for c in b)]) >= 1 << CATEGORY_SHIFT
        for x, y in combinations(unseen, 2)
    )
    advice = river_advice(CASINO, h, b)
    assert advice.actions["raise_1x"] == 500 + 1 + Fraction(qualifying, 990)
    # On the flop the hand is already the royal flush: a 2x Play wins exactly one
    # Ante more than the 1x Play after a check, on every deal.
    flop = flop_advice(CASINO, h, b[:3])
    assert flop.actions["raise_2x"] - flop.actions["check"] == 1
    assert flop.best == "raise_2x"


def test_seen_cards_change_the_answer_only_through_removal() -> None:
    # Same ranks, other suits: the player's spades block the dealer's spade flushes
    # only in the first spot, so the EVs differ.
    blocked = river_advice(CASINO, _cards("As 2s"), _cards("Ks 9s 5s 7d 8c"))
    plain = river_advice(CASINO, _cards("Ad 2d"), _cards("Ks 9s 5s 7d 8c"))
    assert blocked.actions["raise_1x"] > plain.actions["raise_1x"]


def test_advice_best_and_cost() -> None:
    advice = Advice("river", {"raise_1x": Fraction(-3, 2), "fold": Fraction(-2)})
    assert advice.best == "raise_1x"
    assert advice.cost("fold") == Fraction(1, 2)
    assert advice.cost("raise_1x") == 0
    assert advice.to_json() == {"actions": {"raise_1x": -1.5, "fold": -2.0}, "best": "raise_1x"}
    tie = Advice("flop", {"raise_2x": Fraction(1), "check": Fraction(1)})
    assert tie.best == "check"
    with pytest.raises(AdviceUnavailableError, match="raise_4x"):
        advice.cost("raise_4x")


def test_action_names() -> None:
    assert action_name(Action.play(4)) == "raise_4x"
    assert action_name(Action.parse("fold")) == "fold"
    assert legal_names(CASINO, "pre_flop") == ("raise_4x", "raise_3x", "check")
    assert legal_names(CASINO, "flop") == ("raise_2x", "check")
    assert legal_names(ODD, "river") == ("raise_3x", "raise_1x", "fold")


@pytest.mark.parametrize(
    ("hole", "board", "field"),
    [
        ("Ah", "", "hole"),
        ("Ah Kd", "Qs 7d", "board"),
        ("Ah Kd", "Qs 7d 2c 9h", "board"),
        ("Ah Kd", "Ah 7d 2c", "cards"),
    ],
)
def test_bad_spots_name_the_field(hole: str, board: str, field: str) -> None:
    with pytest.raises(InvalidCardError) as err:
        advise(CASINO, _cards(hole), _cards(board) if board else ())
    assert err.value.field == field


def test_pre_flop_without_a_table_says_so() -> None:
    with pytest.raises(AdviceUnavailableError, match="pre-flop"):
        advise(CASINO, _cards("Ah Kd"), pre_flop=no_pre_flop_table)


def test_pre_flop_comes_from_the_stored_analysis() -> None:
    from uth.analysis import cached_result

    stored = cached_result(CASINO)
    assert stored is not None
    hand = stored.pre_flop["AKo"]
    advice = advise(CASINO, _cards("Ah Kd"))
    assert advice.street == "pre_flop"
    assert advice.actions == {
        "raise_4x": hand.raise_ev[4],
        "raise_3x": hand.raise_ev[3],
        "check": hand.check,
    }
    # Suits only matter through the starting hand's class.
    assert advise(LIVE, _cards("Kc As")).actions == advice.actions


RANKS = "23456789TJQKA"


def test_pre_flop_pairs_are_ordered_as_the_strategy_says() -> None:
    # Published basic strategy (Wizard of Odds, "Ultimate Texas Hold 'Em"): raise 4x
    # with 3-3 or higher; a pair of twos checks. A higher pair is worth more.
    pairs = [advise(CASINO, _cards(f"{r}c {r}d")) for r in RANKS]
    assert [a.best for a in pairs] == ["check"] + ["raise_4x"] * 12
    raises = [a.actions["raise_4x"] for a in pairs]
    assert raises == sorted(raises)
    assert len(set(raises)) == 13
    assert all(a.actions["raise_4x"] > a.actions["raise_3x"] for a in pairs[1:])


def test_pre_flop_suited_aces_are_ordered_as_the_strategy_says() -> None:
    # Any ace raises 4x (same strategy). A higher kicker is worth more, except that
    # A-5 suited beats A-6 suited (the wheel, 5-4-3-2-A, makes more straights); a
    # suited ace is worth more than the same ace offsuit.
    suited = {r: advise(CASINO, _cards(f"Ah {r}h")) for r in RANKS[:-1]}
    offsuit = {r: advise(CASINO, _cards(f"Ah {r}d")) for r in RANKS[:-1]}
    assert {a.best for a in suited.values()} == {"raise_4x"}
    ev = [suited[r].actions["raise_4x"] for r in RANKS[:-1]]
    wheel = RANKS.index("5")
    assert ev[wheel] > ev[wheel + 1]
    without_a6 = ev[: wheel + 1] + ev[wheel + 2 :]
    assert without_a6 == sorted(without_a6)
    assert ev[wheel + 1] > ev[wheel - 1]  # A6s still above A4s
    assert all(suited[r].actions["raise_4x"] > offsuit[r].actions["raise_4x"] for r in suited)
    assert max(ev) == suited["K"].actions["raise_4x"]


def test_trainer_session_scores_decisions_and_keeps_a_total() -> None:
    from uth.analysis.trainer import TrainerSession

    session = TrainerSession(CASINO, pre_flop=no_pre_flop_table)
    hole = _cards("Td 8d")
    assert session.advice(hole, ()) is None  # no pre-flop table: not scored
    flop = session.advice(hole, _cards("5c 9h 7d"))
    river = session.advice(hole, _cards("5c 9h 7d 6d 4c"), legal=["fold"])
    assert flop is not None and river is not None
    assert list(river.actions) == ["fold"]  # a balance that covers no Play
    session.record(flop, "raise_2x")
    full_river = river_advice(CASINO, hole, _cards("5c 9h 7d 6d 4c"))
    session.record(full_river, "fold", auto=True)
    reviews = session.end_round()
    assert [(r.street, r.action, r.best, r.auto) for r in reviews] == [
        ("flop", "raise_2x", "check", False),
        ("river", "fold", "raise_1x", True),
    ]
    expected = flop.cost("raise_2x") + full_river.cost("fold")
    assert session.total == expected
    assert session.rounds == 1
    assert session.end_round() == ()
    assert session.total == expected
    assert session.rounds == 2
