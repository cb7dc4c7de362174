"""Who sees what: censored views of a round, and the one filter of its events.

STYLE.md, point 5: a server never serialises a round's raw state; it sends the view
of one seat. The rules of who sees what (RULES.md, "A round"; 004):

- a player sees their own hole cards once dealt, or, for a back-line bet (002), the
  cards of the seated hand the bet rides on;
- on a shared-hand table (004) everyone sees the one player hand, dealt face up;
- the board as turned (the flop, then the turn and river together), never the
  cards still face down;
- the dealer's cards only once the dealer's hand is shown (the showdown; a voided
  round never shows them);
- other seats' hole cards never (a folded hand stays face down for ever, 002);
- a voided round shows no cards at all: they are out of play (RULES.md, "When
  something goes wrong"), as the server's snapshot of a voided round shows none;
- other hands' initial wagers (Ante, Blind, Trips, Bad Beat) always; their
  decisions and Play wagers only where the rule set makes them public
  (:func:`decisions_public`).

:func:`seat_view` gives what one player may see, :func:`public_view` what a spectator
(or a history page) may see; :func:`visible_events` filters a round's events for a
viewer by the same rules, and :func:`event_audience` names who may see one event of
a round (the hands a table sends it to). Each view has ``to_json()``: JSON-ready dicts with cards as
notation strings and money as :func:`uth.money.money_json` numbers (the encoding of
the server's ``state`` and ``snapshot`` messages).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from uth.cards.card import Card
from uth.engine import events as ev
from uth.engine.round import Phase, Round
from uth.engine.settlement import WagerOutcome
from uth.engine.wagers import INITIAL_WAGERS, LAYOUT_ORDER
from uth.evaluator import evaluate
from uth.money import ZERO, money_json
from uth.rules import RuleSet


def decisions_public(rules: RuleSet) -> bool:
    """Whether every player sees the other hands' decisions and Play wagers.

    Where the rule set takes decisions in turn (``decision_order = "in_turn"``: the
    card room, 000, 002) they are made one seat at a time, clockwise, with the Play
    wagers in sight on the felt (RULES.md, "A round", order of decisions). A table that
    takes them from everyone at once, each against the same timer (004), shows a
    player only their own.
    """
    return rules.decision_order == "in_turn"


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _money(amounts: Mapping[str, Decimal]) -> dict[str, int | float]:
    return {kind: money_json(amount) for kind, amount in amounts.items()}


@dataclass(frozen=True, slots=True)
class NamedHand:
    """A player's hand so far, for naming it.

    Attributes:
        category: the category key (``pair``, ``two_pair``, ... ``royal_flush``).
        cards: before the flop the two hole cards alone, higher card first; from the
            flop the evaluator's best five of the cards seen, in the order that names
            the hand.

    """

    category: str
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"category": ..., "cards": ["As", ...]}``."""
        return {"category": self.category, "cards": _cards(self.cards)}


def name_hand(hole: Iterable[Card], board: Iterable[Card]) -> NamedHand:
    """Name a player's hand from the hole cards and the board turned so far.

    Args:
        hole: the two hole cards (or the shared player hand, 004).
        board: the community cards turned (0, 3 or 5).

    """
    cards = [*hole, *board]
    if len(cards) >= 5:
        value = evaluate(cards)
        return NamedHand(value.category.key, value.best_five)
    ordered = sorted(cards, key=lambda c: c.rank, reverse=True)
    pair = len(ordered) == 2 and ordered[0].rank == ordered[1].rank
    return NamedHand("pair" if pair else "high_card", tuple(ordered))


@lru_cache(maxsize=4096)
def _named(hole: tuple[Card, ...], board: tuple[Card, ...]) -> NamedHand:
    """:func:`name_hand`, kept per cards: a seat view per reply names the same hand
    again (every player's, on a shared-hand table) until the board changes.
    """
    return name_hand(hole, board)


@dataclass(frozen=True, slots=True)
class DealerView:
    """The dealer's hand once shown (RULES.md, "A round", step 8).

    Attributes:
        cards: the dealer's two hole cards.
        category: the category key of the dealer's best five.
        best_five: the dealer's best five of seven.
        qualifies: whether the dealer qualifies (a pair or better in every seed).

    """

    cards: tuple[Card, ...]
    category: str
    best_five: tuple[Card, ...]
    qualifies: bool

    def to_json(self) -> dict[str, Any]:
        """``{"cards", "category", "best_five", "qualifies"}``."""
        return {
            "cards": _cards(self.cards),
            "category": self.category,
            "best_five": _cards(self.best_five),
            "qualifies": self.qualifies,
        }


@dataclass(frozen=True, slots=True)
class WagerView:
    """One settled wager of the viewer's hand (see :class:`~uth.engine.WagerResult`).

    Attributes:
        kind: ``ante``, ``blind``, ``play``, ``trips`` or ``bad_beat``.
        stake: the amount wagered (currency units).
        result: ``win``, ``lose``, ``push`` or ``no_action``.
        net: won (+) or lost (-), currency units.

    """

    kind: str
    stake: Decimal
    result: WagerOutcome
    net: Decimal

    def to_json(self) -> dict[str, Any]:
        """``{"stake", "result", "net"}`` (the kind is the key it is listed under)."""
        return {"stake": money_json(self.stake), "result": self.result, "net": money_json(self.net)}


@dataclass(frozen=True, slots=True)
class ResultView:
    """The viewer's hand settled, as the server's ``settlement`` message reports it.

    Attributes:
        outcome: ``win``, ``lose``, ``tie`` or ``fold``.
        category: the category key of the hand's best five.
        best_five: the hand's best five of seven.
        wagers: one per wager, in layout order.
        net: the total won (+) or lost (-).

    """

    outcome: str
    category: str
    best_five: tuple[Card, ...]
    wagers: tuple[WagerView, ...]
    net: Decimal

    def to_json(self) -> dict[str, Any]:
        """``{"outcome", "category", "best_five", "wagers": {kind: {...}}, "net"}``."""
        return {
            "outcome": self.outcome,
            "category": self.category,
            "best_five": _cards(self.best_five),
            "wagers": {w.kind: w.to_json() for w in self.wagers},
            "net": money_json(self.net),
        }


@dataclass(frozen=True, slots=True)
class HandView:
    """One hand as every player and spectator sees it: never its cards.

    Attributes:
        player: the hand's id.
        seat: its seat number, or None (unnumbered, or a back-line bet).
        behind: for a back-line bet, the seated hand it rides on.
        bets: ``ante``, ``blind``, ``trips``, ``bad_beat``, and ``play`` where the
            decisions are public (:func:`decisions_public`); currency units.
        decisions: its decisions (``play_4x``, ``auto:check``, ...) where public,
            else empty.
        folded: whether it folded, where the decisions are public, else False.

    """

    player: str
    seat: int | None
    behind: str | None
    bets: Mapping[str, Decimal]
    decisions: tuple[str, ...]
    folded: bool

    def to_json(self) -> dict[str, Any]:
        """``{"player", "seat", "behind", "bets": {kind: number}, "total", "decisions",
        "folded"}``; ``total`` is the sum of the bets listed.
        """
        return {
            "player": self.player,
            "seat": self.seat,
            "behind": self.behind,
            "bets": _money(self.bets),
            "total": money_json(sum(self.bets.values(), ZERO)),
            "decisions": list(self.decisions),
            "folded": self.folded,
        }


@dataclass(frozen=True, slots=True)
class PublicView:
    """A round as a spectator (or a history page) sees it.

    Attributes:
        game_id: the round's identifier (the server's game number).
        rules: the rule set's name.
        phase: the engine's phase (``betting``, ``pre_flop``, ``flop``, ``river``,
            ``settled``, ``voided``).
        player_hand: the one player hand of a shared-hand table once dealt (004), else
            empty.
        board: the community cards turned so far (0, 3 or 5).
        dealer: the dealer's hand once shown, else None.
        hands: every hand in settlement order (:class:`HandView`).
        void_reason: why the round was voided, or None.

    """

    game_id: str
    rules: str
    phase: str
    player_hand: tuple[Card, ...]
    board: tuple[Card, ...]
    dealer: DealerView | None
    hands: tuple[HandView, ...]
    void_reason: str | None

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data (cards as strings, money as numbers)."""
        return {
            "game_id": self.game_id,
            "rules": self.rules,
            "phase": self.phase,
            "player_hand": _cards(self.player_hand),
            "board": _cards(self.board),
            "dealer": self.dealer.to_json() if self.dealer else None,
            "hands": [h.to_json() for h in self.hands],
            "void_reason": self.void_reason,
        }


@dataclass(frozen=True, slots=True)
class SeatView:
    """A round as one player sees it: their own hand in full, and what is shared.

    Other hands' bets and decisions, the same for every player, are in
    :func:`public_view` (computed once for every seat).

    Attributes:
        game_id, rules, phase, player_hand, board, dealer, void_reason: as in
            :class:`PublicView`.
        player: the viewer's id.
        in_round: whether the viewer has a hand (seated or back-line) in the round.
        seat, behind: the viewer's seat and, for a back-line bet, the hand it rides on.
        hole_cards: the viewer's hole cards once dealt (a back-line bet: its hand's;
            a shared-hand table: the player hand), else empty.
        bets: ``ante``, ``blind``, ``play``, ``trips``, ``bad_beat`` (currency units;
            ``play`` is 0 until a Play wager is placed); all 0 without a hand.
        decisions: the viewer's decisions (``play_4x``, ``auto:check``, ...).
        legal_actions: what the viewer may decide now (``play_4x`` ... ``fold``),
            within ``available`` funds when given.
        hand: the viewer's hand so far, named (None before the deal).
        result: the viewer's settlement once settled, else None.

    """

    game_id: str
    rules: str
    phase: str
    player: str
    in_round: bool
    seat: int | None
    behind: str | None
    hole_cards: tuple[Card, ...]
    player_hand: tuple[Card, ...]
    board: tuple[Card, ...]
    dealer: DealerView | None
    bets: Mapping[str, Decimal]
    decisions: tuple[str, ...]
    legal_actions: tuple[str, ...]
    hand: NamedHand | None
    result: ResultView | None
    void_reason: str | None

    @property
    def total_bet(self) -> Decimal:
        """The sum of the viewer's bets (currency units)."""
        return sum(self.bets.values(), ZERO)

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data: cards as strings, money as numbers (``bets`` and
        ``total_bet`` as in the server's ``state`` message).
        """
        return {
            "game_id": self.game_id,
            "rules": self.rules,
            "phase": self.phase,
            "player": self.player,
            "in_round": self.in_round,
            "seat": self.seat,
            "behind": self.behind,
            "hole_cards": _cards(self.hole_cards),
            "player_hand": _cards(self.player_hand),
            "board": _cards(self.board),
            "dealer": self.dealer.to_json() if self.dealer else None,
            "bets": _money(self.bets),
            "total_bet": money_json(self.total_bet),
            "decisions": list(self.decisions),
            "legal_actions": list(self.legal_actions),
            "hand": self.hand.to_json() if self.hand else None,
            "result": self.result.to_json() if self.result else None,
            "void_reason": self.void_reason,
        }


def _dealer(rnd: Round) -> DealerView | None:
    if not rnd.revealed or rnd.settlement is None:
        return None
    dealer = rnd.settlement.dealer
    return DealerView(
        rnd.dealer_hole, dealer.hand.category.key, dealer.hand.best_five, dealer.qualifies
    )


def _bets(rnd: Round, player: str, *, play: bool) -> dict[str, Decimal]:
    wagers = rnd.wagers(player)
    out: dict[str, Decimal] = {kind: wagers.get(kind) for kind in INITIAL_WAGERS}
    if play:
        out["play"] = wagers.ante * (rnd.play_multiple(player) or 0)
        out = {kind: out[kind] for kind in LAYOUT_ORDER}
    return out


def public_view(rnd: Round) -> PublicView:
    """What a spectator may see of a round now (see the module's rules).

    Args:
        rnd: the round, in any phase.

    Returns:
        A :class:`PublicView`: no hole cards, the board as turned, the dealer's hand
        only after the showdown.

    """
    public = decisions_public(rnd.rules)
    voided = rnd.phase == Phase.VOIDED
    hands = tuple(
        HandView(
            player,
            rnd.seat_of(player),
            rnd.behind_of(player),
            _bets(rnd, player, play=public),
            rnd.decisions(player) if public else (),
            public and rnd.play_multiple(player) == 0,
        )
        for player in rnd.players
    )
    return PublicView(
        rnd.game_id,
        rnd.rules.name,
        str(rnd.phase),
        () if voided else rnd.shared_hand,
        () if voided else rnd.board,
        _dealer(rnd),
        hands,
        rnd.void_reason,
    )


def seat_view(rnd: Round, player: str, *, available: Decimal | None = None) -> SeatView:
    """What one player may see of a round now (see the module's rules).

    Args:
        rnd: the round, in any phase.
        player: the viewer's id; a player without a hand in the round gets the shared
            parts only (``in_round`` False).
        available: the viewer's funds for a Play wager (currency units), for
            ``legal_actions`` (see :meth:`Round.legal_actions`); None for no limit.

    Returns:
        A :class:`SeatView`.

    """
    in_round = rnd.has_hand(player)
    voided = rnd.phase == Phase.VOIDED
    hole: tuple[Card, ...] = ()
    bets, legal = seat_wagers(rnd, player, available=available)
    decisions: tuple[str, ...] = ()
    hand = result = None
    seat = behind = None
    if in_round:
        seat, behind = rnd.seat_of(player), rnd.behind_of(player)
        decisions = rnd.decisions(player)
        if rnd.phase not in (Phase.BETTING, Phase.VOIDED):
            hole = rnd.hole_cards(player)
            hand = _named(hole, rnd.board)
        if rnd.settlement is not None:
            settled = rnd.settlement.hand(player)
            result = ResultView(
                settled.outcome,
                settled.hand.category.key,
                settled.hand.best_five,
                tuple(WagerView(w.kind, w.stake, w.result, w.net) for w in settled.wagers),
                settled.net,
            )
    return SeatView(
        game_id=rnd.game_id,
        rules=rnd.rules.name,
        phase=str(rnd.phase),
        player=player,
        in_round=in_round,
        seat=seat,
        behind=behind,
        hole_cards=hole,
        player_hand=() if voided else rnd.shared_hand,
        board=() if voided else rnd.board,
        dealer=_dealer(rnd),
        bets=bets,
        decisions=decisions,
        legal_actions=legal,
        hand=hand,
        result=result,
        void_reason=rnd.void_reason,
    )


def seat_wagers(
    rnd: Round, player: str, *, available: Decimal | None = None
) -> tuple[dict[str, Decimal], tuple[str, ...]]:
    """The ``bets`` and ``legal_actions`` of :func:`seat_view` alone: what a
    player's state needs with every reply (a whole view names the hand and builds
    the result; a 1,000-player table answers some 3,000 commands a round).

    Returns:
        The player's wagers by kind in layout order (currency units; the Play
        included, all 0 without a hand in the round) and the legal actions now.

    """
    if rnd.has_hand(player):
        bets = _bets(rnd, player, play=True)
    else:
        bets = dict.fromkeys(LAYOUT_ORDER, ZERO)
    return bets, tuple(str(a) for a in rnd.legal_actions(player, available=available))


_OWNED = (ev.HoleCardsDealt, ev.HandShown, ev.WagerSettled, ev.WagerReturned)
_DECIDED = (ev.DecisionMade, ev.HandFolded)
_WAGERS = (ev.WagerSettled, ev.WagerReturned)


def _audience(
    event: ev.Event, public: bool, riders: Callable[[str], Iterable[str]]
) -> tuple[str, ...] | None:
    """Who may see one event (the rules of :func:`visible_events`): None for
    everyone, else the hand ids allowed, () for nobody; ``riders(hand)`` gives the
    back-line bets riding on a seated hand.
    """
    if event.visibility == "hidden":
        return ()
    if isinstance(event, _DECIDED):
        return None if public else (event.player, *riders(event.player))
    if isinstance(event, _WAGERS):
        return (event.player,)
    if isinstance(event, _OWNED):
        return (event.player, *riders(event.player))
    return None


def event_audience(rnd: Round, event: ev.Event) -> tuple[str, ...] | None:
    """Who may see one event of a round in play, by the rules of
    :func:`visible_events` (what a table sends to whom).

    Args:
        rnd: the round, once betting is closed (its hands no longer change).
        event: one of ``rnd``'s events.

    Returns:
        None when everyone may see it (a spectator too); else the engine hand ids
        that may, the owner first and then the back-line bets riding on it in
        settlement order (:meth:`Round.followers`; the hole cards, a hand shown or
        folded, and private decisions); ``()`` for nobody (face-down cards).

    Raises:
        IllegalActionError: the event names a hand that is not in ``rnd``.

    """
    return _audience(event, decisions_public(rnd.rules), rnd.followers)


def visible_events(
    events: Iterable[ev.Event], viewer: str | None, *, rules: RuleSet | None = None
) -> tuple[ev.Event, ...]:
    """The events a viewer may see, in order, by the rules of :func:`seat_view`.

    Args:
        events: a round's events from its start (a back-line bet is known by its
            :class:`~uth.engine.events.WagersPlaced`).
        viewer: the player looking, or None for a spectator.
        rules: the round's rule set, for :func:`decisions_public`; None treats the
            decisions as private.

    Returns:
        The events the viewer may see. Never the face-down cards (the dealer's hole
        cards, the board placed face down): they reach everyone through the flop,
        the turn and river, and the dealer's reveal at their time. Hole cards and a
        hand shown at the showdown: only to its owner and the back-line bets riding
        on it. A wager's settlement or return: only to its owner. Decisions and
        folds: to their owner (and the back-line bets on the hand), to everyone
        where :func:`decisions_public`. Everything else: to everyone.
        (:func:`event_audience` gives the same answer for one event of a round.)

    """
    public = rules is not None and decisions_public(rules)
    riders: dict[str, set[str]] = {}  # seated hand -> the back-line bets on it
    out: list[ev.Event] = []
    for event in events:
        if isinstance(event, ev.WagersPlaced | ev.WagersWithdrawn):
            for bets in riders.values():
                bets.discard(event.player)
        if isinstance(event, ev.WagersPlaced) and event.behind is not None:
            riders.setdefault(event.behind, set()).add(event.player)
        who = _audience(event, public, lambda hand: riders.get(hand, ()))
        if who is None or viewer in who:
            out.append(event)
    return tuple(out)


__all__ = [
    "DealerView",
    "HandView",
    "NamedHand",
    "PublicView",
    "ResultView",
    "SeatView",
    "WagerView",
    "decisions_public",
    "event_audience",
    "name_hand",
    "public_view",
    "seat_view",
    "seat_wagers",
    "visible_events",
]
