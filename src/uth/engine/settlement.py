"""Settlement: a pure function from a finished deal to each wager's result.

RULES.md, "Settlement against the dealer" and "Who banks". The same function
settles a house-banked table (001, 004) and a player-dealer table (000, 002),
where the bank limits what is paid and collected, seat by seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from uth.cards.card import Card
from uth.engine.wagers import WagerKind, Wagers
from uth.errors import InvalidCardError, InvalidDealError, InvalidWagerError
from uth.evaluator import Category, HandValue, evaluate
from uth.money import CENT, ZERO, cents, parse_amount
from uth.rules import RuleSet

WagerOutcome = Literal["win", "lose", "push", "no_action"]
HandOutcome = Literal["win", "lose", "tie", "fold"]


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One player's hand (or back-line bet) to settle.

    Attributes:
        id: a unique name for the hand ("seat1", a player id).
        wagers: the initial wagers, already validated (see ``validate_wagers``).
        hole: the two hole cards; ``None`` for a back-line bet.
        play: the Play wager as a multiple of the Ante (4 or 3 pre-flop, 2 on the
            flop, 1 at the river), 0 for a fold; ignored for a back-line bet, which
            follows its hand's decision.
        behind: for a back-line bet, the id of the earlier hand it rides on.

    """

    id: str
    wagers: Wagers
    hole: tuple[Card, ...] | None = None
    play: int = 0
    behind: str | None = None


@dataclass(frozen=True, slots=True)
class WagerResult:
    """The result of one wager.

    Attributes:
        kind: ``ante``, ``blind``, ``play``, ``trips`` or ``bad_beat``.
        stake: the amount wagered (currency units).
        result: ``win``, ``lose``, ``push``, or ``no_action`` (nothing wagered, or the
            bank could not cover any of it).
        net: what the player won (+) or lost (-) on it; 0 for a push or no action.
        uncovered: the part of the win (winnings not paid) or of the loss (stake not
            collected) that the player-dealer's bank could not cover (RULES.md, "Who
            banks").
        capped: the part of a win withheld by the payout cap (001).
        uncovered_stake: the part of the stake the bank could not cover: it has no
            action and is returned. For a loss it equals ``uncovered``; for a win it is
            the stake that would have won the unpaid winnings (Blind 100 at 50:1 with
            410.00 unpaid: 8.20), to the nearest cent.
        uncovered_winnings: for a win, the winnings the bank could not pay (equal to
            ``uncovered``); 0 for a loss.

    """

    kind: WagerKind
    stake: Decimal
    result: WagerOutcome
    net: Decimal
    uncovered: Decimal = ZERO
    capped: Decimal = ZERO
    uncovered_stake: Decimal = ZERO
    uncovered_winnings: Decimal = ZERO


@dataclass(frozen=True, slots=True)
class HandResult:
    """The settlement of one hand.

    Attributes:
        id: the hand's id.
        hand: the player's best hand (a back-line bet shows the hand it follows).
        outcome: ``win``, ``lose`` or ``tie`` against the dealer, or ``fold``.
        play_multiple: the Play wager as a multiple of the Ante, 0 after a fold.
        wagers: one :class:`WagerResult` per wager, in layout order.
        behind: for a back-line bet, the id of the hand it follows.

    """

    id: str
    hand: HandValue
    outcome: HandOutcome
    play_multiple: int
    wagers: tuple[WagerResult, ...]
    behind: str | None = None

    @property
    def net(self) -> Decimal:
        """What the player won (+) or lost (-) on all wagers together."""
        return sum((w.net for w in self.wagers), ZERO)

    def wager(self, kind: WagerKind) -> WagerResult:
        """The result of the wager of that kind."""
        return next(w for w in self.wagers if w.kind == kind)


@dataclass(frozen=True, slots=True)
class DealerResult:
    """The dealer's (or player-dealer's) hand and whether it qualifies."""

    hand: HandValue
    qualifies: bool


@dataclass(frozen=True, slots=True)
class Settlement:
    """Everything a round's settlement decides.

    Attributes:
        dealer: the dealer's hand.
        hands: one :class:`HandResult` per input hand, in settlement order.
        banker_kind: ``house`` or ``player_dealer``.
        bank: the player-dealer's bank, or ``None`` for the house.
        board: the five community cards.

    """

    dealer: DealerResult
    hands: tuple[HandResult, ...]
    banker_kind: Literal["house", "player_dealer"]
    bank: Decimal | None
    board: tuple[Card, ...] = field(default=())

    @property
    def banker_net(self) -> Decimal:
        """What the house or player-dealer won (+) or lost (-): minus the players' total."""
        return -sum((h.net for h in self.hands), ZERO)

    def hand(self, hand_id: str) -> HandResult:
        """The result of the hand with that id.

        Raises:
            KeyError: no hand has that id.

        """
        for h in self.hands:
            if h.id == hand_id:
                return h
        raise KeyError(hand_id)


@dataclass(frozen=True, slots=True)
class _Gross:
    kind: WagerKind
    stake: Decimal
    result: WagerOutcome
    amount: Decimal  # the win (winnings) or the loss (stake) before cap and bank


def check_deal(
    rules: RuleSet,
    board: Sequence[Card],
    dealer_hole: Sequence[Card],
    holes: Sequence[tuple[str, Sequence[Card]]],
) -> None:
    """Check a deal's cards: the one definition, used by :func:`settle` and ``uth settle``.

    Args:
        rules: the rule set (``shared_hand``: every player plays the one player hand
            dealt face up, 004).
        board: the community cards.
        dealer_hole: the dealer's hole cards.
        holes: ``(field, hole cards)`` per seated hand, the field naming the hand in
            error messages (``"hands[0]"``).

    Raises:
        InvalidDealError: the board is not five cards, the dealer's or a hand's hole
            not two (a misdeal, 003), or, with ``shared_hand``, a hand whose cards are
            not the shared hand's; the message names the field.
        InvalidCardError: a card appears twice in the deal (on a shared-hand table
            the shared hand counts once): ``hands[1].hole[0]: duplicate card Kc (also
            at hands[0].hole[1])``.

    """
    if len(board) != 5:
        raise InvalidDealError(f"board: expected 5 cards, got {len(board)}", field="board")
    if len(dealer_hole) != 2:
        raise InvalidDealError(f"dealer: expected 2 cards, got {len(dealer_hole)}", field="dealer")
    for where, hole in holes:
        if len(hole) != 2:
            raise InvalidDealError(
                f"{where}.hole: expected 2 cards, got {len(hole)}", field=f"{where}.hole"
            )
    if rules.shared_hand and holes:
        first = holes[0][1]
        for where, hole in holes[1:]:
            if set(hole) != set(first):
                raise InvalidDealError(
                    f"{where}.hole: rule set {rules.name!r} deals one shared player hand, "
                    f"got {' '.join(map(str, hole))} besides {' '.join(map(str, first))}",
                    field=f"{where}.hole",
                )
        holes = holes[:1]
    located = [(f"board[{j}]", c) for j, c in enumerate(board)]
    located += [(f"dealer[{j}]", c) for j, c in enumerate(dealer_hole)]
    located += [(f"{where}.hole[{j}]", c) for where, hole in holes for j, c in enumerate(hole)]
    seen: dict[Card, str] = {}
    for where, card in located:
        if card in seen:
            raise InvalidCardError(
                f"{where}: duplicate card {card} (also at {seen[card]})", field=where
            )
        seen[card] = where


def _compare(player: HandValue, dealer: HandValue) -> int:
    return (player.value > dealer.value) - (player.value < dealer.value)


def _gross(
    rules: RuleSet,
    wagers: Wagers,
    play: int,
    player: HandValue,
    dealer: DealerResult | None,
    board_value: HandValue,
) -> tuple[HandOutcome, list[_Gross]]:
    """Each wager's result, before the payout cap and the bank.

    A fold (``play == 0``) needs no dealer: its Ante, Blind and Bad Beat lose and its
    Trips is settled on the board alone or the player's hand (RULES.md, step 7).
    """
    out: list[_Gross] = []

    def add(kind: WagerKind, stake: Decimal, result: WagerOutcome, amount: Decimal = ZERO) -> None:
        if stake == 0:
            out.append(_Gross(kind, stake, "no_action", ZERO))
        elif result == "lose":
            out.append(_Gross(kind, stake, "lose", stake))
        else:
            out.append(_Gross(kind, stake, result, amount))

    def trips(hand: HandValue) -> None:
        # Trips: the Trips table on the hand, win or lose; never pushes.
        odds = rules.trips_pays.get(hand.category)
        t = wagers.trips
        add("trips", t, "win" if odds is not None else "lose", odds.pay(t) if odds else ZERO)

    if play == 0:
        add("ante", wagers.ante, "lose")
        add("blind", wagers.blind, "lose")
        add("play", ZERO, "no_action")
        trips(board_value if rules.folded_trips == "board_only" else player)
        add("bad_beat", wagers.bad_beat, "lose")
        return "fold", out
    assert dealer is not None
    cmp = _compare(player, dealer.hand)
    outcome: HandOutcome = "win" if cmp > 0 else "tie" if cmp == 0 else "lose"
    # Ante: pushes when the dealer does not qualify.
    a = wagers.ante
    if not dealer.qualifies or cmp == 0:
        add("ante", a, "push")
    else:
        add("ante", a, "win" if cmp > 0 else "lose", a)
    # Blind: pays by its table on a straight or better when the player wins, else pushes.
    b = wagers.blind
    blind_odds = rules.blind_pays.get(player.category)
    if cmp < 0:
        add("blind", b, "lose")
    elif cmp > 0 and blind_odds is not None:
        add("blind", b, "win", blind_odds.pay(b))
    else:
        add("blind", b, "push")
    # Play: 1:1 against the dealer whether or not the dealer qualifies.
    p = a * play
    if cmp > 0:
        add("play", p, "win", p)
    else:
        add("play", p, "push" if cmp == 0 else "lose")
    trips(player)
    # Bad Beat (002): on the category of the beaten hand, whichever side lost.
    bb = wagers.bad_beat
    beaten = min(player, dealer.hand, key=lambda h: h.value).category
    bb_odds = rules.bad_beat_pays.get(beaten)
    if not dealer.qualifies or cmp == 0 or bb_odds is None:
        add("bad_beat", bb, "lose")
    else:
        add("bad_beat", bb, "win", bb_odds.pay(bb))
    return outcome, out


def _apply_cap(gross: list[_Gross], cap: Decimal | None) -> dict[WagerKind, Decimal]:
    """Withhold winnings on Ante + Play + Blind beyond the cap (001).

    The even-money wagers are paid first, then the Blind (our choice): returns the
    amount withheld per wager.
    """
    withheld: dict[WagerKind, Decimal] = {}
    if cap is None:
        return withheld
    room = cap
    by_kind = {g.kind: g for g in gross}
    for kind in ("ante", "play", "blind"):
        g = by_kind[kind]
        if g.result != "win":
            continue
        paid = min(g.amount, room)
        room -= paid
        if paid < g.amount:
            withheld[kind] = g.amount - paid
    return withheld


@dataclass(frozen=True, slots=True)
class _Ready:
    """A validated hand, ready to settle: its entry, Play multiple and best hand."""

    entry: HandEntry
    play: int
    value: HandValue


def _settle_hand(
    rules: RuleSet,
    ready: _Ready,
    dealer: DealerResult | None,
    board_value: HandValue,
    bank: Decimal | None,
    running: Decimal,
) -> tuple[HandResult, Decimal]:
    """Settle one hand's wagers in layout order against the payout cap and the bank.

    ``running`` is the banker's result so far (+ won, - lost); returns the hand's
    result and the banker's result after it.
    """
    entry = ready.entry
    outcome, gross = _gross(rules, entry.wagers, ready.play, ready.value, dealer, board_value)
    withheld = _apply_cap(gross, rules.cap_amount())
    settled: list[WagerResult] = []
    for g in gross:
        capped = withheld.get(g.kind, ZERO)
        amount = cents(g.amount - capped)
        uncovered = uncovered_stake = uncovered_winnings = ZERO
        if bank is not None and g.result in ("win", "lose"):
            # The banker's result stays within minus and plus the bank (RULES.md).
            room = bank + running if g.result == "win" else bank - running
            covered = min(amount, room)
            uncovered, amount = amount - covered, covered
            uncovered_stake = uncovered
            if g.result == "win" and uncovered:
                uncovered_winnings = uncovered
                uncovered_stake = (g.stake * uncovered / (uncovered + amount)).quantize(CENT)
        result: WagerOutcome = g.result
        if g.result in ("win", "lose") and amount == 0:
            result = "no_action"
        net = amount if g.result == "win" else -amount if g.result == "lose" else ZERO
        running -= net
        settled.append(
            WagerResult(
                g.kind, g.stake, result, net, uncovered, capped, uncovered_stake, uncovered_winnings
            )
        )
    hand = HandResult(entry.id, ready.value, outcome, ready.play, tuple(settled), entry.behind)
    return hand, running


def settle_at_fold(
    rules: RuleSet,
    board: Sequence[Card],
    hands: Sequence[HandEntry],
    *,
    bank: Decimal | None = None,
    running: Decimal = ZERO,
) -> tuple[tuple[HandResult, ...], Decimal]:
    """Settle a hand at its fold, before the dealer's cards are shown (RULES.md, step 7).

    Its Ante, Blind and Bad Beat lose and are collected at once, and its Trips is
    settled on the known board; on a player-dealer table this comes first against
    the bank, in the order the hands fold (002).

    Args:
        rules: the rule set.
        board: the five community cards.
        hands: the folded seated hand (its hole cards, ``play`` 0), then the back-line
            bets riding on it, which fold with it.
        bank: the player-dealer's bank (already checked), or ``None`` for the house.
        running: the player-dealer's result from the hands folded before.

    Returns:
        The hands' results and the player-dealer's result after them; :func:`settle`
        gives the same results when the folded hands are listed first, in fold order.

    Raises:
        InvalidDealError: the first hand is not a folded seated hand with hole cards.

    """
    seat = hands[0]
    if seat.behind is not None or seat.hole is None or seat.play != 0:
        raise InvalidDealError(
            f"hands[0]: {seat.id!r} is not a folded seated hand", field="hands[0]"
        )
    value = evaluate([*seat.hole, *board])
    board_value = evaluate(board)
    out = []
    for entry in hands:
        result, running = _settle_hand(
            rules, _Ready(entry, 0, value), None, board_value, bank, running
        )
        out.append(result)
    return tuple(out), running


def settle(
    rules: RuleSet,
    board: Sequence[Card],
    dealer_hole: Sequence[Card],
    hands: Sequence[HandEntry],
    *,
    bank: object | None = None,
) -> Settlement:
    """Settle every wager of a finished round.

    The order (RULES.md, "A round", steps 7 and 9, and "Who banks"): every folded
    hand first, in the order listed (it was settled at the fold, before the dealer's
    cards were shown: at a card room decisions are taken in turn, so that is seat
    order), then the other hands in the rule set's ``settlement_order``:
    ``clockwise``, seat by seat from the dealer's left (002), or ``right_to_left``,
    the reverse of the deal (003). Each seat's back-line bets come right after it,
    each hand's wagers in layout order. Only the bank makes the order matter.

    Args:
        rules: the rule set.
        board: the five community cards.
        dealer_hole: the dealer's (or player-dealer's) two hole cards.
        hands: the hands in seat order (clockwise from the dealer's left; folded
            hands may be listed first, in the order they folded), each back-line bet
            after the hand it follows; a back-line bet is settled right after that
            hand (and its earlier back-line bets), wherever it is listed after it.
        bank: the player-dealer's bank in currency units; required with a
            ``player_dealer`` rule set and refused otherwise.

    Returns:
        A :class:`Settlement` whose ``hands`` are in the order settled. Money is
        conserved: the players' nets sum to minus the banker's net. With a
        player-dealer the banker's running result stays within plus or minus the
        bank, wagers being settled one at a time; what cannot be covered has no
        action and is returned.

    Raises:
        InvalidDealError: wrong card counts, an unknown or repeated hand id, a
            back-line bet where the rules allow none, too many seats, a hand that
            is not the shared hand (004).
        InvalidCardError: a card appears twice in the deal.
        InvalidWagerError: a Play multiple the rules do not allow; a bank missing,
            not allowed, or outside its limits.

    """
    seated = [h for h in hands if h.behind is None]
    holes = [(f"hands[{i}]", h.hole or ()) for i, h in enumerate(hands) if h.behind is None]
    check_deal(rules, board, dealer_hole, holes)
    bank_amount = check_bank(rules, bank)
    if rules.seats is not None and len(seated) > rules.seats:
        raise InvalidDealError(
            f"hands: rule set {rules.name!r} has {rules.seats} seats, got {len(seated)} hands",
            field="hands",
        )
    dealer_value = evaluate([*dealer_hole, *board])
    dealer = DealerResult(dealer_value, dealer_value.category >= rules.dealer_qualifier)
    board_value = evaluate(board)
    seen: dict[str, HandEntry] = {}
    values: dict[str, HandValue] = {}
    groups: list[list[_Ready]] = []
    for i, entry in _settlement_order(hands):
        where = f"hands[{i}]"
        if entry.id in seen:
            raise InvalidDealError(
                f"{where}.id: duplicate hand id {entry.id!r}", field=f"{where}.id"
            )
        play = _resolve_play(rules, entry, seen, where)
        if entry.behind is not None:
            value = values[entry.behind]
            groups[-1].append(_Ready(entry, play, value))
        else:
            assert entry.hole is not None
            value = evaluate([*entry.hole, *board])
            groups.append([_Ready(entry, play, value)])
        seen[entry.id] = entry
        values[entry.id] = value
    folded = [g for g in groups if g[0].play == 0]
    shown = [g for g in groups if g[0].play != 0]
    if rules.settlement_order == "right_to_left":
        shown.reverse()
    running = ZERO  # the banker's result so far: + won, - lost
    results: list[HandResult] = []
    for group in (*folded, *shown):
        for ready in group:
            result, running = _settle_hand(rules, ready, dealer, board_value, bank_amount, running)
            results.append(result)
    return Settlement(dealer, tuple(results), rules.banking, bank_amount, tuple(board))


def _settlement_order(hands: Sequence[HandEntry]) -> list[tuple[int, HandEntry]]:
    """The hands with their input positions, each back-line bet moved right after the
    seated hand it follows (after that hand's earlier back-line bets): RULES.md, "Who
    banks". A back-line bet whose hand is not an earlier seated hand stays where it is,
    so that the settlement loop reports it.
    """
    groups: dict[str, list[tuple[int, HandEntry]]] = {}
    order: list[list[tuple[int, HandEntry]]] = []
    for i, entry in enumerate(hands):
        if entry.behind is not None and entry.behind in groups:
            groups[entry.behind].append((i, entry))
            continue
        group = [(i, entry)]
        order.append(group)
        if entry.behind is None:
            groups.setdefault(entry.id, group)
    return [item for group in order for item in group]


def check_behind(
    rules: RuleSet, behind: str, earlier: Mapping[str, HandEntry], where: str
) -> HandEntry:
    """The seated hand that a back-line bet rides on (RULES.md, "Who banks"; 002).

    Args:
        rules: the rule set.
        behind: the back-line bet's ``behind``, the id of the hand it follows.
        earlier: the hands listed before the bet, by id.
        where: the bet's place in the input, ``hands[1]``, for the error's field.

    Raises:
        InvalidDealError: on ``{where}.behind`` when the rule set has no back-line
            bets, or when ``behind`` is not the id of an earlier seated hand (one
            of ``earlier`` that is not itself a back-line bet).

    """
    field = f"{where}.behind"
    shown = _quoted(behind)
    if not rules.back_line_bets:
        raise InvalidDealError(
            f"{field}: rule set {rules.name!r} has no back-line bets, got {shown}", field=field
        )
    followed = earlier.get(behind)
    if followed is None or followed.behind is not None:
        raise InvalidDealError(
            f"{field}: {shown} is not the id of an earlier seated hand", field=field
        )
    return followed


def check_play(rules: RuleSet, play: int, where: str) -> None:
    """Check a seated hand's Play multiple of the Ante: 0 (a fold) or one the rule
    set offers at some decision (RULES.md, "Wagers").

    Raises:
        InvalidWagerError: on ``{where}.play``, naming the multiples allowed.

    """
    allowed = rules.play_multiples.all
    if play != 0 and play not in allowed:
        shown = ", ".join(str(m) for m in sorted(allowed | {0}, reverse=True))
        raise InvalidWagerError(
            f"{where}.play: the Play multiple must be one of {shown}, got {play!r}",
            field=f"{where}.play",
        )


def _quoted(text: str) -> str:
    """``text`` quoted for an error message, cut short when long (40 characters)."""
    shown = repr(text)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _resolve_play(rules: RuleSet, entry: HandEntry, seen: dict[str, HandEntry], where: str) -> int:
    if entry.behind is not None:
        return check_behind(rules, entry.behind, seen, where).play
    if entry.hole is None:
        raise InvalidDealError(
            f"{where}.hole: a seated hand needs 2 hole cards", field=f"{where}.hole"
        )
    check_play(rules, entry.play, where)
    return entry.play


def check_bank(rules: RuleSet, bank: object | None, *, label: str = "the bank") -> Decimal | None:
    """Check the player-dealer's bank against the rule set; ``None`` for the house.

    The one check of a bank (``uth settle``'s ``player_dealer.bank``, ``uth play
    --bank``, the engine's round).

    Args:
        rules: the rule set (its ``banking`` and ``bank`` limits).
        bank: the amount, read by :func:`uth.money.parse_amount`, or ``None``.
        label: how the limits message names the bank (``player_dealer.bank: the bank
            must be between 100.00 and 100000.00, got 50.00``, as a wager's limits are
            worded); ``""`` leaves it out, for a caller whose field names it already.

    Raises:
        InvalidWagerError: a bank with a house rule set, none with a player-dealer
            rule set, or one outside the rule set's bank limits.

    """
    if rules.banking == "house":
        if bank is not None:
            raise InvalidWagerError(
                f"player_dealer: rule set {rules.name!r} is house-banked, it takes no bank",
                field="player_dealer",
            )
        return None
    if bank is None:
        raise InvalidWagerError(
            f"player_dealer.bank: rule set {rules.name!r} needs the player-dealer's bank",
            field="player_dealer.bank",
        )
    amount = parse_amount(bank, field="player_dealer.bank")
    assert rules.bank is not None
    if not rules.bank.min <= amount <= rules.bank.max:
        raise InvalidWagerError(
            f"player_dealer.bank: {label + ' ' if label else ''}must be between "
            f"{rules.bank.min} and {rules.bank.max}, "
            f"got {amount}",
            field="player_dealer.bank",
        )
    return amount


__all__ = [
    "Category",
    "DealerResult",
    "HandEntry",
    "HandOutcome",
    "HandResult",
    "Settlement",
    "WagerOutcome",
    "WagerResult",
    "check_bank",
    "check_behind",
    "check_deal",
    "check_play",
    "settle",
    "settle_at_fold",
]
