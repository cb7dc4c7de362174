"""Property tests of settlement on random deals (RULES.md, "Settlement against the
dealer", "Who banks", "Pay tables").

Deals are drawn as a permutation of the 52 cards: board, dealer, then two hole cards
per seated hand (one hand for every player where the rule set deals a shared hand). Presets, wagers (within the table limits), Play multiples, back-line
bets and the player-dealer's bank are random.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uth.cards import ALL_CARDS, Card
from uth.engine.settlement import HandEntry, Settlement, settle
from uth.engine.wagers import LAYOUT_ORDER, Wagers, validate_wagers
from uth.evaluator import Category, HandValue, evaluate
from uth.money import cents
from uth.rules import PRESET_NAMES, Limit, Odds, RuleSet, preset

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ZERO = Decimal(0)
HOUSE = [n for n in PRESET_NAMES if preset(n).banking == "house"]
PLAYER_DEALER = [n for n in PRESET_NAMES if preset(n).banking == "player_dealer"]


@dataclass(frozen=True)
class Deal:
    name: str
    board: tuple[Card, ...]
    dealer: tuple[Card, ...]
    hands: tuple[HandEntry, ...]
    bank: Decimal | None

    @property
    def rules(self) -> RuleSet:
        return preset(self.name)

    def settle(self, hands: Sequence[HandEntry] | None = None) -> Settlement:
        return settle(
            self.rules,
            self.board,
            self.dealer,
            self.hands if hands is None else hands,
            bank=self.bank,
        )


def draw_amount(draw: st.DrawFn, lo: Decimal, hi: Decimal) -> Decimal:
    """An amount between lo and hi: in cents, or often a whole amount."""
    c = draw(st.integers(int(lo * 100), int(hi * 100)))
    if draw(st.booleans()) and c - c % 100 >= lo * 100:
        c -= c % 100
    return Decimal(c).scaleb(-2)


def draw_wagers(draw: st.DrawFn, rules: RuleSet, top: Decimal) -> Wagers:
    ante = draw_amount(draw, rules.ante.min, min(rules.ante.max, top))

    def side(limit: Limit | None) -> Decimal:
        if limit is None or draw(st.booleans()):
            return ZERO
        hi = min(limit.max, top)
        if rules.side_bets_not_above_ante:
            hi = min(hi, ante)
        return draw_amount(draw, limit.min, hi)

    return validate_wagers(rules, ante=ante, trips=side(rules.trips), bad_beat=side(rules.bad_beat))


PLAYS = st.sampled_from([0, 1, 2, 3, 4])


@st.composite
def deals(
    draw: st.DrawFn,
    names: Sequence[str] = PRESET_NAMES,
    top: Decimal = Decimal(1000),
    bank: st.SearchStrategy[Decimal] | None = None,
    suited: bool = False,
) -> Deal:
    name = draw(st.sampled_from(list(names)))
    rules = preset(name)
    cards = [ALL_CARDS[i] for i in draw(st.permutations(range(52)))]
    if suited:
        # Deal from the nine to ace of spades and hearts first: straight flushes and
        # royal flushes are common (the payout cap).
        cards.sort(key=lambda c: c.rank < 9 or c.suit.char not in "sh")
    elif draw(st.booleans()):
        # A dense deck: deal from the 28 cards eight to ace first, for many straights,
        # flushes, full houses, quads, straight flushes, ties and Bad Beats.
        cards.sort(key=lambda c: c.rank < 8)
    n = draw(st.integers(1, rules.seats or 10))
    hands: list[HandEntry] = []
    for i in range(n):
        # 004 (shared_hand): one player hand, dealt face up, played by every player.
        k = 0 if rules.shared_hand else i
        hole = tuple(cards[7 + 2 * k : 9 + 2 * k])
        hands.append(HandEntry(f"s{i}", draw_wagers(draw, rules, top), hole, draw(PLAYS)))
        if rules.back_line_bets:
            for j in range(draw(st.integers(0, 2))):
                # A back-line bet's own ``play`` is ignored: it follows its seat.
                hands.append(
                    HandEntry(
                        f"s{i}b{j}", draw_wagers(draw, rules, top), None, draw(PLAYS), f"s{i}"
                    )
                )
    bank_amount = None
    if rules.banking == "player_dealer":
        assert rules.bank is not None
        if bank is not None:
            bank_amount = draw(bank)
        else:
            # Often a small bank, so that it runs out.
            hi = Decimal(400) if draw(st.booleans()) else rules.bank.max
            bank_amount = draw_amount(draw, rules.bank.min, hi)
    return Deal(name, tuple(cards[:5]), tuple(cards[5:7]), tuple(hands), bank_amount)


def by_id(s: Settlement) -> dict[str, tuple[object, ...]]:
    return {h.id: (h.outcome, h.hand.value, h.play_multiple, h.behind, h.wagers) for h in s.hands}


def groups(hands: Sequence[HandEntry]) -> list[list[HandEntry]]:
    """Seated hands, each with its back-line bets."""
    out: dict[str, list[HandEntry]] = {}
    for h in hands:
        out.setdefault(h.behind or h.id, []).append(h)
    return list(out.values())


# --------------------------------------------------------------------------- (a) conservation


@SETTINGS
@given(deals())
def test_money_is_conserved_hand_nets_sum_to_minus_banker_net(deal: Deal) -> None:
    s = deal.settle()
    assert sorted(h.id for h in s.hands) == sorted(h.id for h in deal.hands)
    wagers_total = sum((w.net for h in s.hands for w in h.wagers), ZERO)
    assert sum((h.net for h in s.hands), ZERO) == wagers_total == -s.banker_net
    for h in s.hands:
        for w in h.wagers:
            assert w.net == cents(w.net), "money has two decimal places"
            assert w.uncovered >= 0 and w.capped >= 0
            if w.result == "lose":
                # A losing stake is collected or, where the bank cannot cover it, returned.
                assert -w.net + w.uncovered == w.stake
            if deal.bank is None:
                assert w.uncovered == 0
            if deal.rules.payout_cap is None:
                assert w.capped == 0
            if w.kind in ("trips", "bad_beat"):
                assert w.capped == 0, "the cap is on Ante, Blind and Play only"


# --------------------------------------------------------------------------- (b) the bank


@SETTINGS
@given(deals(PLAYER_DEALER))
def test_player_dealer_running_result_stays_within_the_bank(deal: Deal) -> None:
    s = deal.settle()
    assert deal.bank is not None and s.bank == deal.bank
    running = ZERO
    for h in s.hands:
        assert tuple(w.kind for w in h.wagers) == LAYOUT_ORDER
        for w in h.wagers:
            running -= w.net
            assert -deal.bank <= running <= deal.bank
    assert running == s.banker_net


@SETTINGS
@given(deals(PLAYER_DEALER))
def test_player_dealer_settles_seat_by_seat_back_line_bets_right_after_their_seat(
    deal: Deal,
) -> None:
    s = deal.settle()
    settled = [h.id for h in s.hands]
    expected = [h.id for g in groups(deal.hands) for h in g]
    assert settled == expected


@SETTINGS
@given(deals(PLAYER_DEALER), st.randoms(use_true_random=False))
def test_back_line_bets_listed_anywhere_after_their_seat_settle_the_same(
    deal: Deal, rnd: Random
) -> None:
    # Move each back-line bet to a random later position (still after its seat).
    seated = [h for h in deal.hands if h.behind is None]
    moved: list[HandEntry] = list(seated)
    for b in (h for h in deal.hands if h.behind is not None):
        first = next(i for i, h in enumerate(moved) if h.id == b.behind)
        later = [i for i, h in enumerate(moved) if i > first and h.behind == b.behind]
        lo = (later[-1] if later else first) + 1
        moved.insert(rnd.randint(lo, len(moved)), b)
    assert deal.settle(moved) == deal.settle()


# --------------------------------------------------------------------------- (c) order


@SETTINGS
@given(deals(HOUSE), st.randoms(use_true_random=False))
def test_house_settlement_of_a_hand_does_not_depend_on_hand_order(deal: Deal, rnd: Random) -> None:
    shuffled = list(deal.hands)
    rnd.shuffle(shuffled)
    assert by_id(deal.settle(shuffled)) == by_id(deal.settle())


@SETTINGS
@given(
    deals(PLAYER_DEALER, top=Decimal(20), bank=st.just(Decimal(100000))),
    st.randoms(use_true_random=False),
)
def test_player_dealer_order_does_not_matter_when_the_bank_covers_everything(
    deal: Deal, rnd: Random
) -> None:
    parts = groups(deal.hands)
    rnd.shuffle(parts)
    shuffled = [h for g in parts for h in g]
    one, other = deal.settle(), deal.settle(shuffled)
    uncovered = [w for s in (one, other) for h in s.hands for w in h.wagers if w.uncovered]
    if not uncovered:
        assert by_id(one) == by_id(other)
        assert one.banker_net == other.banker_net


# --------------------------------------------------------------------------- (d) result and net


@SETTINGS
@given(deals())
def test_result_agrees_with_the_sign_of_the_net(deal: Deal) -> None:
    s = deal.settle()
    for h in s.hands:
        for w in h.wagers:
            if w.result == "win":
                assert w.net > 0
            elif w.result == "lose":
                assert w.net < 0
            else:
                assert w.result in ("push", "no_action")
                assert w.net == 0
            if w.stake == 0:
                assert w.result == "no_action"
            if w.kind == "trips":
                assert w.result != "push", "Trips never pushes"
            if w.kind == "bad_beat":
                assert w.result != "push", "Bad Beat never pushes"
        if h.outcome == "fold":
            assert h.play_multiple == 0
            assert h.wager("play").stake == 0
            assert h.wager("play").result == "no_action"


# --------------------------------------------------------------------------- reference model


def _reference_gross(
    rules: RuleSet,
    w: Wagers,
    play: int,
    player: HandValue,
    dealer: HandValue,
    board: HandValue,
) -> dict[str, tuple[str, Decimal]]:
    """Each wager's (result, amount won or lost) straight from RULES.md, before the
    payout cap and the bank.
    """
    folded = play == 0
    qualifies = dealer.category >= Category.PAIR
    beats, ties = player.value > dealer.value, player.value == dealer.value

    def win(stake: Decimal, category: Category, table: dict[Category, Odds]) -> Decimal:
        if stake == 0:
            return ZERO
        odds = table[category]
        return stake * odds.win / odds.per

    out: dict[str, tuple[str, Decimal]] = {}
    stake_play = w.ante * play
    if folded:
        out["ante"] = ("lose", w.ante)
        out["blind"] = ("lose", w.blind)
        out["play"] = ("no_action", ZERO)
    elif ties:
        out["ante"] = out["blind"] = out["play"] = ("push", ZERO)
    elif beats:
        out["ante"] = ("win", w.ante) if qualifies else ("push", ZERO)
        if player.category >= Category.STRAIGHT:
            out["blind"] = ("win", win(w.blind, player.category, rules.blind_pays))
        else:
            out["blind"] = ("push", ZERO)
        out["play"] = ("win", stake_play)
    else:
        out["ante"] = ("lose", w.ante) if qualifies else ("push", ZERO)
        out["blind"] = ("lose", w.blind)
        out["play"] = ("lose", stake_play)
    trips_hand = board if folded and rules.folded_trips == "board_only" else player
    if trips_hand.category >= Category.THREE_OF_A_KIND:
        out["trips"] = ("win", win(w.trips, trips_hand.category, rules.trips_pays))
    else:
        out["trips"] = ("lose", w.trips)
    beaten = min(player, dealer, key=lambda v: v.value).category
    if folded or ties or not qualifies or beaten < Category.THREE_OF_A_KIND:
        out["bad_beat"] = ("lose", w.bad_beat)
    else:
        out["bad_beat"] = ("win", win(w.bad_beat, beaten, rules.bad_beat_pays))
    for kind in ("trips", "bad_beat"):
        if w.get(kind) == 0:
            out[kind] = ("no_action", ZERO)
    return out


def _reference(deal: Deal) -> dict[str, list[tuple[str, Decimal, Decimal, Decimal]]]:
    """Per hand id, each wager's (result, net, uncovered, capped) in layout order."""
    rules = deal.rules
    dealer = evaluate([*deal.dealer, *deal.board])
    board = evaluate(deal.board)
    seated = {h.id: h for h in deal.hands if h.behind is None}
    cap = rules.cap_amount()
    running = ZERO
    out: dict[str, list[tuple[str, Decimal, Decimal, Decimal]]] = {}
    for h in (h for g in groups(deal.hands) for h in g):
        seat = seated[h.behind or h.id]
        assert seat.hole is not None
        player = evaluate([*seat.hole, *deal.board])
        gross = _reference_gross(rules, h.wagers, seat.play, player, dealer, board)
        # The payout cap (001): Ante and Play are paid before the Blind (our choice).
        capped = dict.fromkeys(LAYOUT_ORDER, ZERO)
        if cap is not None:
            room = cap
            for kind in ("ante", "play", "blind"):
                result, amount = gross[kind]
                if result == "win":
                    paid = min(amount, room)
                    room -= paid
                    capped[kind] = amount - paid
        settled = []
        for kind in LAYOUT_ORDER:
            result, amount = gross[kind]
            amount = cents(amount - capped[kind])
            uncovered = ZERO
            if deal.bank is not None and result in ("win", "lose"):
                limit = deal.bank + running if result == "win" else deal.bank - running
                covered = min(amount, limit)
                uncovered, amount = amount - covered, covered
            if result in ("win", "lose") and amount == 0:
                result = "no_action"
            net = amount if result == "win" else -amount if result == "lose" else ZERO
            running -= net
            settled.append((result, net, uncovered, capped[kind]))
        out[h.id] = settled
    return out


@SETTINGS
@given(st.one_of(deals(), deals(["casino"], suited=True)))
def test_settlement_matches_a_reference_model_of_the_rules(deal: Deal) -> None:
    s = deal.settle()
    want = _reference(deal)
    got = {h.id: [(w.result, w.net, w.uncovered, w.capped) for w in h.wagers] for h in s.hands}
    assert got == want


@SETTINGS
@given(deals(["casino"], suited=True))
def test_payout_cap_bounds_what_ante_blind_and_play_pay_one_player(deal: Deal) -> None:
    cap = deal.rules.cap_amount()
    assert cap is not None
    for h in deal.settle().hands:
        main = [w for w in h.wagers if w.kind in ("ante", "blind", "play")]
        paid = sum((w.net for w in main if w.result == "win"), ZERO)
        assert paid <= cap
        if any(w.capped for w in main):
            assert paid == cap
            assert h.hand.category >= Category.STRAIGHT_FLUSH
