"""One round of Ultimate Texas Hold'em as a state machine.

RULES.md, "A round": wagers; two hole cards to each hand, in stacks of two in
seat order, then two to the dealer; five community cards taken face down (002);
pre-flop decisions (Play 4x or 3x, or check); the flop turned; flop decisions
(Play 2x, or check); turn and river turned together; river decisions (Play 1x,
or fold; a folded hand is collected at the fold, first against a player-dealer's
bank); the dealer's hand revealed and announced; settlement in the rule set's
``settlement_order`` (clockwise seat by seat, 002; right to left, 003).

The round is pure: nothing reads a clock, does I/O or draws a random number. A
round starts in :attr:`Phase.BETTING` without cards; the shuffled deck comes in
from outside at :meth:`Round.close_betting` (the chance step, like a chance node in
OpenSpiel), and the time of a command, when the caller has one, comes in as its
``at`` keyword.

Every command follows pokerkit's verify / can / do pattern: ``verify_X(...)``
raises the error ``X(...)`` would raise and changes nothing, ``can_X(...)`` says
whether ``X`` is allowed now, and ``X(...)`` verifies then applies. An accepted
command is recorded twice: as events (:mod:`uth.engine.events`, what the dealer
does and announces) and as one :class:`ActionRecord` in :attr:`Round.actions`
(what was asked, by whom and when; :mod:`uth.engine.history` stores and replays
them). :func:`replay` rebuilds a round from its rule set, deck and events.
With ``decision_order = "at_once"`` players decide in any order on a street (an
online table, 004); with ``"in_turn"`` a card room asks one hand at a time,
clockwise from the player-dealer's left (000, 002; :attr:`Round.to_act`). The
street ends when every hand still to decide has decided.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from types import MappingProxyType
from typing import Literal, ParamSpec, TypeVar

from uth.cards.card import Card, check_distinct
from uth.cards.deck import PreparedDeck
from uth.engine import events as ev
from uth.engine.settlement import (
    HandEntry,
    Settlement,
    WagerResult,
    check_bank,
    settle,
    settle_at_fold,
)
from uth.engine.wagers import INITIAL_WAGERS, Wagers, validate_wagers
from uth.errors import IllegalActionError, InvalidDealError, UthError
from uth.rules import RuleSet

_E = TypeVar("_E", bound=ev.Event)
_P = ParamSpec("_P")


class Phase(StrEnum):
    """Where a round stands."""

    BETTING = "betting"
    PRE_FLOP = "pre_flop"
    FLOP = "flop"
    RIVER = "river"
    SETTLED = "settled"
    VOIDED = "voided"


_STREETS: dict[Phase, ev.Street] = {
    Phase.PRE_FLOP: "pre_flop",
    Phase.FLOP: "flop",
    Phase.RIVER: "river",
}


def _can_of(verify: Callable[_P, object], doc: str) -> Callable[_P, bool]:
    """The ``can_*`` form of a ``verify_*`` method (same arguments): True where
    ``verify`` accepts them, False where it raises a :class:`~uth.errors.UthError`;
    neither changes anything.
    """

    def can(*args: _P.args, **kwargs: _P.kwargs) -> bool:
        try:
            verify(*args, **kwargs)
        except UthError:
            return False
        return True

    can.__name__ = verify.__name__.replace("verify_", "can_", 1)
    can.__qualname__ = verify.__qualname__.replace("verify_", "can_", 1)
    can.__doc__ = doc
    return can


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """A decision: ``play`` with a multiple of the Ante, ``check`` or ``fold``.

    Written as ``play_4x``, ``play_3x``, ``play_2x``, ``play_1x``, ``check``, ``fold``.
    Actions sort with the largest Play first, then check, then fold.
    """

    sort_key: int
    kind: str
    multiple: int = 0

    @staticmethod
    def play(multiple: int) -> Action:
        """Play ``multiple`` times the Ante."""
        return Action(-multiple, "play", multiple)

    @staticmethod
    def parse(text: str) -> Action:
        """Parse ``play_4x``, ``check`` or ``fold`` (case-insensitive).

        Raises:
            IllegalActionError: the text is no action.

        """
        t = text.strip().lower() if isinstance(text, str) else ""
        if t == "check":
            return CHECK
        if t == "fold":
            return FOLD
        if t.startswith("play_") and t.endswith("x") and t[5:-1].isascii() and t[5:-1].isdigit():
            return Action.play(int(t[5:-1]))
        raise IllegalActionError(
            f"action: {text!r} is not an action (play_4x, play_3x, play_2x, play_1x, check, fold)",
            field="action",
        )

    def __str__(self) -> str:
        return f"play_{self.multiple}x" if self.kind == "play" else self.kind


CHECK = Action(1, "check")
FOLD = Action(2, "fold")

ActionKind = Literal["place_wagers", "withdraw", "close_betting", "act", "void"]
#: A value in an :class:`ActionRecord`'s payload (amounts are Decimal currency units).
PayloadValue = str | int | bool | Decimal | None


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One accepted command, as the round's action log keeps it (:attr:`Round.actions`).

    Attributes:
        kind: ``place_wagers``, ``withdraw``, ``close_betting``, ``act`` or ``void``.
        player: the hand's id; None for ``close_betting`` and ``void``.
        payload: the command's arguments as accepted (read-only):
            ``place_wagers``: ``ante``, ``blind``, ``trips``, ``bad_beat`` (Decimal,
            currency units, as validated), ``seat`` (int or None), ``behind`` (str or
            None); ``act``: ``action`` (``play_4x`` ... ``fold``) and ``auto`` (bool);
            ``void``: ``reason``; ``withdraw`` and ``close_betting``: empty (the deck
            is kept by the round, :attr:`Round.deck_order`).
        at: when the caller accepted the command (timezone-aware), or None when the
            caller passed no time; the engine never reads a clock.

    """

    kind: ActionKind
    player: str | None
    payload: Mapping[str, PayloadValue]
    at: datetime | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "payload", MappingProxyType(dict(self.payload)))


@dataclass
class _Hand:
    player: str
    wagers: Wagers
    seat: int | None
    behind: str | None
    order: int
    hole: tuple[Card, ...] = ()
    play: int | None = None  # None: still to decide; 0: folded
    decisions: list[str] = field(default_factory=list)  # "play_4x", "auto:check", ...


@dataclass
class Round:
    """One round at one table, from the betting phase to settlement or void.

    A new round is in :attr:`Phase.BETTING` and holds no cards: wagers are placed
    (:meth:`place_wagers`) and withdrawn (:meth:`withdraw`), then
    :meth:`close_betting` receives the shuffled deck and deals.

    Args:
        rules: the rule set.
        game_id: the round's identifier (the server's game number); recorded only.
        bank: the player-dealer's bank (player-dealer rule sets only).

    Raises:
        InvalidWagerError: a bank is missing, not allowed, or outside its limits.

    """

    rules: RuleSet
    game_id: str = ""
    bank: object | None = None
    phase: Phase = field(default=Phase.BETTING, init=False)
    settlement: Settlement | None = field(default=None, init=False)
    _events: list[ev.Event] = field(default_factory=list, init=False)
    _actions: list[ActionRecord] = field(default_factory=list, init=False)
    _hands: dict[str, _Hand] = field(default_factory=dict, init=False)
    _order: int = field(default=0, init=False)
    _cards: tuple[Card, ...] = field(default=(), init=False)
    _dealer: tuple[Card, ...] = field(default=(), init=False)
    _board: tuple[Card, ...] = field(default=(), init=False)
    _bank: Decimal | None = field(default=None, init=False)
    _order_cache: list[_Hand] | None = field(default=None, init=False)
    _undecided: set[str] = field(default_factory=set, init=False)
    _turned: int = field(default=0, init=False)
    _folded: list[str] = field(default_factory=list, init=False)
    _fold_running: Decimal = field(default=Decimal(0), init=False)
    _players_net: Decimal = field(default=Decimal(0), init=False)  # settled so far
    _void_reason: str | None = field(default=None, init=False)
    _colour: str | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self._bank = check_bank(self.rules, self.bank)
        self._emit(ev.RoundOpened(self.game_id, self.rules.name, self._bank))

    # ----------------------------------------------------------------- queries
    @property
    def events(self) -> tuple[ev.Event, ...]:
        """Every event so far, in order."""
        return tuple(self._events)

    @property
    def event_count(self) -> int:
        """How many events so far."""
        return len(self._events)

    @property
    def actions(self) -> tuple[ActionRecord, ...]:
        """Every accepted command so far, in order (the action log)."""
        return tuple(self._actions)

    def events_since(self, start: int) -> tuple[ev.Event, ...]:
        """The events from index ``start`` on (for a caller that has read the rest)."""
        return tuple(self._events[start:])

    def has_hand(self, player: str) -> bool:
        """Whether the round has a hand (seated or back-line) with that id."""
        return player in self._hands

    @property
    def players(self) -> tuple[str, ...]:
        """The ids of every hand (seated and back-line) in settlement order."""
        return tuple(h.player for h in self._ordered())

    @property
    def board(self) -> tuple[Card, ...]:
        """The community cards turned so far (0, 3 or 5).

        A round voided before the turn and river keeps its unturned cards hidden.
        """
        return self._board[: self._turned]

    @property
    def deck_order(self) -> tuple[Card, ...]:
        """The 52 cards of the deck in deal order once betting closed, else empty
        (keep it secret until settled).
        """
        return self._cards

    @property
    def deck_colour(self) -> str | None:
        """The back colour of the deck dealt (two alternating decks), else None."""
        return self._colour

    @property
    def bank_amount(self) -> Decimal | None:
        """The player-dealer's bank as checked (currency units), or None for the house."""
        return self._bank

    @property
    def dealer_hole(self) -> tuple[Card, ...]:
        """The dealer's hole cards once dealt (hidden from players until the showdown)."""
        return self._dealer

    def wagers(self, player: str) -> Wagers:
        """The initial wagers of a hand.

        Raises:
            IllegalActionError: no such hand in this round.

        """
        return self._hand(player).wagers

    def play_multiple(self, player: str) -> int | None:
        """The Play multiple decided (0 after a fold), or None while undecided.

        A back-line bet reports the decision of the hand it follows.
        """
        hand = self._hand(player)
        if hand.behind is not None:
            return self._hands[hand.behind].play
        return hand.play

    def seat_of(self, player: str) -> int | None:
        """The seat number of a hand (None: unnumbered or a back-line bet).

        Raises:
            IllegalActionError: no such hand in this round.

        """
        return self._hand(player).seat

    def behind_of(self, player: str) -> str | None:
        """For a back-line bet, the seated hand it rides on; None for a seated hand.

        Raises:
            IllegalActionError: no such hand in this round.

        """
        return self._hand(player).behind

    def followers(self, player: str) -> tuple[str, ...]:
        """The back-line bets riding on a seated hand, in settlement order (002); empty
        for a back-line bet, and at once (O(1)) under rules without back-line bets.

        Raises:
            IllegalActionError: no such hand in this round.

        """
        return tuple(h.player for h in self._group(self._hand(player))[1:])

    def decisions(self, player: str) -> tuple[str, ...]:
        """A hand's decisions so far, street by street: ``play_4x`` ... ``fold``, with
        ``auto:`` before a decision the timer made (``auto:check``). A back-line bet
        reports the decisions of the hand it follows.

        Raises:
            IllegalActionError: no such hand in this round.

        """
        hand = self._hand(player)
        if hand.behind is not None:
            hand = self._hands[hand.behind]
        return tuple(hand.decisions)

    @property
    def revealed(self) -> bool:
        """Whether the dealer's hand has been shown (the showdown; never in a void)."""
        return self.phase == Phase.SETTLED

    @property
    def void_reason(self) -> str | None:
        """Why the round was voided, or None."""
        return self._void_reason

    def hole_cards(self, player: str) -> tuple[Card, ...]:
        """A seated hand's hole cards (empty before the deal)."""
        hand = self._hand(player)
        if hand.behind is not None:
            return self._hands[hand.behind].hole
        return hand.hole

    def awaiting(self) -> tuple[str, ...]:
        """The seated hands that still have to decide on the current street."""
        if self.phase not in _STREETS:
            return ()
        return tuple(h.player for h in self._ordered() if h.player in self._undecided)

    @property
    def to_act(self) -> str | None:
        """Whose turn it is, with ``decision_order = "in_turn"`` (000, 002): the first
        seated hand still to decide on this street, clockwise from the player-dealer's
        left; ``None`` when nobody is to decide or the rule set decides at once (004).
        """
        if self.rules.decision_order != "in_turn":
            return None
        waiting = self.awaiting()
        return waiting[0] if waiting else None

    def _may_decide(self, player: str) -> bool:
        """Whether the player has a decision to make now (in turn, where it applies)."""
        if self.phase not in _STREETS or player not in self._undecided:
            return False
        return self.rules.decision_order != "in_turn" or player == self.to_act

    @property
    def undecided(self) -> int:
        """How many seated hands still have to decide on the current street."""
        return len(self._undecided) if self.phase in _STREETS else 0

    @property
    def shared_hand(self) -> tuple[Card, ...]:
        """The one player hand of a shared-hand table once dealt (004), else empty."""
        if not self.rules.shared_hand or self.phase == Phase.BETTING:
            return ()
        return self._cards[:2]

    def legal_actions(self, player: str, *, available: Decimal | None = None) -> tuple[Action, ...]:
        """The actions the player may take now, sorted (largest Play first).

        Args:
            player: the hand's id.
            available: the player's funds for the Play wager (currency units), or
                None for no limit. Only Play multiples it covers are legal; at the
                river a player who cannot cover 1x may only fold (RULES.md, "Online
                table", our choice).

        Returns:
            An empty tuple when the player has nothing to decide now (betting, a
            back-line bet, already decided, not their turn, or the round over).

        """
        hand = self._hands.get(player)
        if hand is None or not self._may_decide(player):
            return ()
        multiples = {
            Phase.PRE_FLOP: self.rules.play_multiples.pre_flop,
            Phase.FLOP: self.rules.play_multiples.flop,
            Phase.RIVER: self.rules.play_multiples.river,
        }[self.phase]
        plays = [
            Action.play(m)
            for m in multiples
            if available is None or hand.wagers.ante * m <= available
        ]
        last = FOLD if self.phase == Phase.RIVER else CHECK
        return (*sorted(plays), last)

    def timeout_action(self, player: str) -> Action:
        """What the timer decides for a player (004): AUTO CHECKED pre-flop and on the
        flop, AUTO FOLDED at the river.

        With ``decision_order = "in_turn"`` each hand has its own timer, which runs
        only on its turn (000, 002).

        Raises:
            IllegalActionError: the player has nothing to decide now.

        """
        if not self._may_decide(player):
            raise IllegalActionError(
                f"player: {player!r} has no decision to make in phase {self.phase}", field="player"
            )
        return FOLD if self.phase == Phase.RIVER else CHECK

    # ---------------------------------------------------------------- commands
    def verify_place_wagers(
        self,
        player: str,
        *,
        ante: object,
        blind: object | None = None,
        trips: object = 0,
        bad_beat: object = 0,
        seat: int | None = None,
        behind: str | None = None,
        at: datetime | None = None,
    ) -> Wagers:
        """Check :meth:`place_wagers`'s arguments without changing anything.

        The one definition of a legal bet: the limits of the Ante, Trips and Bad
        Beat Bonus, the Blind equal to the Ante, side bets against the Ante (002),
        seats and back-line bets.

        Returns:
            The validated wagers (Decimal, currency units).

        Raises:
            IllegalActionError: betting is closed, the seat is taken or out of range,
                the table is full, a back-line bet is not allowed or has no hand,
                ``at`` is not a timezone-aware datetime.
            InvalidWagerError: a wager breaks the rule set (see ``validate_wagers``).

        """
        self._require(Phase.BETTING, "place wagers")
        if not isinstance(player, str) or not player:
            raise IllegalActionError(
                f"player: expected a non-empty id, got {player!r}", field="player"
            )
        wagers = validate_wagers(self.rules, ante=ante, blind=blind, trips=trips, bad_beat=bad_beat)
        if behind is not None:
            self._check_behind(player, behind)
        else:
            self._check_seat(player, seat, self._hands.get(player))
        _check_at(at)
        return wagers

    can_place_wagers = _can_of(
        verify_place_wagers, "Whether :meth:`place_wagers` would accept these wagers now."
    )

    def place_wagers(
        self,
        player: str,
        *,
        ante: object,
        blind: object | None = None,
        trips: object = 0,
        bad_beat: object = 0,
        seat: int | None = None,
        behind: str | None = None,
        at: datetime | None = None,
    ) -> ev.WagersPlaced:
        """Place (or replace) a hand's initial wagers while betting is open.

        Args:
            player: the hand's id (unique in the round).
            ante, blind, trips, bad_beat: amounts; ``blind=None`` places a Blind
                equal to the Ante (004).
            seat: the seat number 1..seats, for tables with seats; hands settle in
                seat order, unnumbered hands after them in order of arrival.
            behind: for a back-line bet, the seated hand it rides on (002).
            at: when the command was accepted (recorded in :attr:`actions`).

        Raises:
            IllegalActionError, InvalidWagerError: see :meth:`verify_place_wagers`;
                a rejected bet changes nothing.

        """
        wagers = self.verify_place_wagers(
            player,
            ante=ante,
            blind=blind,
            trips=trips,
            bad_beat=bad_beat,
            seat=seat,
            behind=behind,
            at=at,
        )
        if behind is not None:
            seat = None
        existing = self._hands.get(player)
        order = existing.order if existing else self._next_order()
        self._hands[player] = _Hand(player, wagers, seat, behind, order)
        self._order_cache = None
        self._log(
            "place_wagers",
            player,
            {
                "ante": wagers.ante,
                "blind": wagers.blind,
                "trips": wagers.trips,
                "bad_beat": wagers.bad_beat,
                "seat": seat,
                "behind": behind,
            },
            at,
        )
        return self._emit(
            ev.WagersPlaced(
                player, wagers.ante, wagers.blind, wagers.trips, wagers.bad_beat, seat, behind
            )
        )

    def verify_withdraw(self, player: str, *, at: datetime | None = None) -> None:
        """Check :meth:`withdraw`'s arguments without changing anything.

        Raises:
            IllegalActionError: betting is closed, there is no such hand, or ``at``
                is not a timezone-aware datetime.

        """
        self._require(Phase.BETTING, "withdraw wagers")
        self._hand(player)
        _check_at(at)

    can_withdraw = _can_of(verify_withdraw, "Whether :meth:`withdraw` would accept this now.")

    def withdraw(self, player: str, *, at: datetime | None = None) -> tuple[ev.Event, ...]:
        """Take back a hand's wagers while betting is open (the player left, 004);
        back-line bets on that hand are withdrawn with it.

        Raises:
            IllegalActionError: see :meth:`verify_withdraw`.

        """
        self.verify_withdraw(player, at=at)
        gone = [player, *(h.player for h in self._hands.values() if h.behind == player)]
        out = []
        for p in gone:
            del self._hands[p]
            self._order_cache = None
            out.append(self._emit(ev.WagersWithdrawn(p)))
        self._log("withdraw", player, {}, at)
        return tuple(out)

    def verify_close_betting(
        self, deck: Sequence[Card] | PreparedDeck, *, at: datetime | None = None
    ) -> tuple[Card, ...]:
        """Check :meth:`close_betting`'s arguments without changing anything.

        Returns:
            The deck's 52 cards in deal order.

        Raises:
            IllegalActionError: betting is not open, no hand has wagered (no round is
                dealt when nobody has bet), or ``at`` is not a timezone-aware datetime.
            InvalidDealError: the deck is not 52 cards.
            InvalidCardError: a card of the deck appears twice.

        """
        self._require(Phase.BETTING, "close betting")
        if not any(h.behind is None for h in self._hands.values()):
            raise IllegalActionError("hands: no round is dealt when nobody has bet", field="hands")
        cards = deck.order if isinstance(deck, PreparedDeck) else tuple(deck)
        if len(cards) != 52:
            raise InvalidDealError(f"deck: expected 52 cards, got {len(cards)}", field="deck")
        check_distinct(cards, field="deck")
        _check_at(at)
        return cards

    can_close_betting = _can_of(
        verify_close_betting, "Whether :meth:`close_betting` would accept this deck now."
    )

    def close_betting(
        self, deck: Sequence[Card] | PreparedDeck, *, at: datetime | None = None
    ) -> tuple[ev.Event, ...]:
        """Close betting, take the shuffled deck and deal: two hole cards to each
        seated hand in settlement order (or, with ``shared_hand``, one player hand face
        up for every player, 004), two to the dealer, then the five community cards
        face down.

        The chance step of the round: the deck comes from outside (a shuffler), the
        engine draws nothing.

        Args:
            deck: the shuffled deck (52 distinct cards, first dealt first) or a
                :class:`~uth.cards.PreparedDeck` (its back colour is recorded in
                :class:`~uth.engine.events.BettingClosed`).
            at: when betting closed (recorded in :attr:`actions`).

        Returns:
            The events emitted, up to the pre-flop decisions.

        Raises:
            IllegalActionError, InvalidDealError, InvalidCardError: see
                :meth:`verify_close_betting`.

        """
        self._cards = self.verify_close_betting(deck, at=at)
        colour = self._colour = deck.colour if isinstance(deck, PreparedDeck) else None
        seated = [h for h in self._ordered() if h.behind is None]
        start = len(self._events)
        self._log("close_betting", None, {}, at)
        self._emit(ev.BettingClosed(tuple(h.player for h in self._ordered()), colour))
        pos = 0
        if self.rules.shared_hand:
            # 004: one player hand, face up, played by every player.
            shared = self._cards[0:2]
            pos = 2
            for hand in seated:
                hand.hole = shared
            self._emit(ev.PlayerHandDealt(shared))
        for hand in () if self.rules.shared_hand else seated:
            hand.hole = self._cards[pos : pos + 2]
            pos += 2
            self._emit(ev.HoleCardsDealt(hand.player, hand.hole))
        self._dealer = self._cards[pos : pos + 2]
        self._emit(ev.DealerCardsDealt(self._dealer))
        self._board = self._cards[pos + 2 : pos + 7]
        self._emit(ev.BoardPlaced(self._board))
        self._start_street(Phase.PRE_FLOP)
        return tuple(self._events[start:])

    def verify_act(
        self,
        player: str,
        action: Action | str,
        *,
        available: Decimal | None = None,
        auto: bool = False,
        at: datetime | None = None,
    ) -> Action:
        """Check :meth:`act`'s arguments without changing anything.

        The one definition of a legal decision, funds for the Play included
        (``available``; see :meth:`legal_actions`).

        Returns:
            The decision as an :class:`Action`.

        Raises:
            IllegalActionError: the text is no action; it is another hand's turn
                (``decision_order = "in_turn"``; the message names whose); the action
                is not among :meth:`legal_actions` (the message lists the legal
                ones); ``auto`` with another action than the timer's; ``at`` is not a
                timezone-aware datetime.

        """
        chosen = Action.parse(action) if isinstance(action, str) else action
        turn = self.to_act
        if turn is not None and player != turn and player in self._undecided:
            raise IllegalActionError(
                f"player: not {player!r}'s turn: {turn!r} decides first (decisions are "
                "taken in turn, clockwise from the player-dealer's left)",
                field="player",
            )
        legal = self.legal_actions(player, available=available)
        if auto and chosen in legal and chosen != self.timeout_action(player):
            raise IllegalActionError(
                f"action: the timer decides {self.timeout_action(player)}, not {chosen}",
                field="action",
            )
        if chosen not in legal:
            shown = ", ".join(str(a) for a in legal) or "none"
            raise IllegalActionError(
                f"action: {chosen} is not legal for {player!r} in phase {self.phase} "
                f"(legal: {shown})",
                field="action",
            )
        _check_at(at)
        return chosen

    can_act = _can_of(verify_act, "Whether :meth:`act` would accept this decision now.")

    def act(
        self,
        player: str,
        action: Action | str,
        *,
        available: Decimal | None = None,
        auto: bool = False,
        at: datetime | None = None,
    ) -> tuple[ev.Event, ...]:
        """Apply one decision; when it is the street's last, the round moves on.

        Args:
            player: the hand's id.
            action: an :class:`Action` or its text (``play_4x``, ``check``, ``fold``).
            available: the player's funds for the Play wager (see :meth:`legal_actions`).
            auto: the timer made the decision (recorded as AUTO CHECKED / AUTO FOLDED).
            at: when the decision was accepted (recorded in :attr:`actions`).

        Returns:
            The events emitted: the decision, then any cards turned, and at the end
            of the river the showdown and settlement.

        Raises:
            IllegalActionError: see :meth:`verify_act`.

        """
        chosen = self.verify_act(player, action, available=available, auto=auto, at=at)
        hand = self._hands[player]
        street = _STREETS[self.phase]
        start = len(self._events)
        self._log("act", player, {"action": str(chosen), "auto": auto}, at)
        self._undecided.discard(player)
        hand.decisions.append(("auto:" if auto else "") + str(chosen))
        if chosen.kind == "play":
            hand.play = chosen.multiple
        elif chosen.kind == "fold":
            hand.play = 0
        play = hand.wagers.ante * chosen.multiple
        self._emit(ev.DecisionMade(player, street, str(chosen), chosen.multiple, play, auto))
        if chosen.kind == "fold":
            self._settle_fold(hand)
        self._advance()
        return tuple(self._events[start:])

    def verify_void(self, reason: str = "", *, at: datetime | None = None) -> None:
        """Check :meth:`void`'s arguments without changing anything.

        Raises:
            IllegalActionError: the round is already settled or voided, or ``at`` is
                not a timezone-aware datetime.

        """
        if self.phase in (Phase.SETTLED, Phase.VOIDED):
            raise IllegalActionError(f"phase: a {self.phase} round cannot be voided", field="phase")
        _check_at(at)

    can_void = _can_of(
        verify_void,
        "Whether :meth:`void` would accept this now (the round is neither settled nor voided).",
    )

    def void(self, reason: str, *, at: datetime | None = None) -> tuple[ev.Event, ...]:
        """Void the round (misdeal, 003; malfunction, 004): every wager placed,
        Play included, is returned to its owner, a folded hand's too (collected at
        its fold, it is returned like the rest: a malfunction voids all pays and play).

        A round can be voided in any phase before settlement, betting included.

        Raises:
            IllegalActionError: see :meth:`verify_void`.

        """
        self.verify_void(reason, at=at)
        start = len(self._events)
        self._log("void", None, {"reason": reason}, at)
        for hand in self._ordered():
            for kind in INITIAL_WAGERS:
                amount = hand.wagers.get(kind)
                if amount:
                    self._emit(ev.WagerReturned(hand.player, kind, amount))
            multiple = self.play_multiple(hand.player)
            if multiple:
                self._emit(ev.WagerReturned(hand.player, "play", hand.wagers.ante * multiple))
        self.phase = Phase.VOIDED
        self._void_reason = reason
        self._undecided.clear()
        self._emit(ev.RoundVoided(reason))
        return tuple(self._events[start:])

    # ---------------------------------------------------------------- internals
    def _emit(self, event: _E) -> _E:
        self._events.append(event)
        return event

    def _log(
        self,
        kind: ActionKind,
        player: str | None,
        payload: dict[str, PayloadValue],
        at: datetime | None,
    ) -> None:
        self._actions.append(ActionRecord(kind, player, payload, at))

    def _require(self, phase: Phase, what: str) -> None:
        if self.phase != phase:
            raise IllegalActionError(
                f"phase: cannot {what} in phase {self.phase} (only in {phase})", field="phase"
            )

    def _hand(self, player: str) -> _Hand:
        hand = self._hands.get(player)
        if hand is None:
            raise IllegalActionError(f"player: no hand {player!r} in this round", field="player")
        return hand

    def _next_order(self) -> int:
        self._order += 1
        return self._order

    def _ordered(self) -> list[_Hand]:
        """The hands in settlement order (computed once per change of the hands)."""
        if self._order_cache is not None:
            return self._order_cache

        def key(h: _Hand) -> tuple[int, int]:
            return (h.seat if h.seat is not None else 10**9, h.order)

        seated: list[_Hand] = []
        behind: dict[str, list[_Hand]] = {}
        for h in self._hands.values():
            if h.behind is None:
                seated.append(h)
            else:
                behind.setdefault(h.behind, []).append(h)
        out: list[_Hand] = []
        for s in sorted(seated, key=key):
            out.append(s)
            out.extend(sorted(behind.get(s.player, ()), key=key))
        self._order_cache = out
        return out

    def _start_street(self, phase: Phase) -> None:
        self.phase = phase
        self._undecided = {
            h.player for h in self._hands.values() if h.behind is None and h.play is None
        }

    def _check_seat(self, player: str, seat: int | None, existing: _Hand | None) -> None:
        limit = self.rules.seats
        if existing is not None and existing.behind is not None:
            raise IllegalActionError(
                f"player: {player!r} already has a back-line bet", field="player"
            )
        if limit is None and seat is None:
            return  # nothing to check against the other hands: O(1) on a big live table
        others = [h for h in self._hands.values() if h.behind is None and h.player != player]
        if limit is not None and existing is None and len(others) >= limit:
            raise IllegalActionError(f"seat: the table's {limit} seats are taken", field="seat")
        if seat is not None:
            if seat < 1 or (limit is not None and seat > limit):
                shown = f"1..{limit}" if limit is not None else "1 or more"
                raise IllegalActionError(f"seat: must be {shown}, got {seat!r}", field="seat")
            if any(h.seat == seat for h in others):
                raise IllegalActionError(f"seat: seat {seat} is taken", field="seat")

    def _check_behind(self, player: str, behind: str) -> None:
        if not self.rules.back_line_bets:
            raise IllegalActionError(
                f"behind: rule set {self.rules.name!r} has no back-line bets", field="behind"
            )
        target = self._hands.get(behind)
        if target is None or target.behind is not None or behind == player:
            raise IllegalActionError(f"behind: {behind!r} is not a seated hand", field="behind")
        existing = self._hands.get(player)
        if existing is not None and existing.behind is None:
            raise IllegalActionError(
                f"player: {player!r} already has a seated hand", field="player"
            )

    def _advance(self) -> None:
        while self.phase in _STREETS and not self._undecided:
            if self.phase == Phase.PRE_FLOP:
                self._start_street(Phase.FLOP)
                self._turned = 3
                self._emit(ev.FlopTurned(self._board[:3]))
            elif self.phase == Phase.FLOP:
                self._start_street(Phase.RIVER)
                self._turned = 5
                self._emit(ev.TurnAndRiverTurned(self._board[3:]))
            else:
                self._showdown()

    def _group(self, hand: _Hand) -> list[_Hand]:
        """A seated hand and the back-line bets riding on it, in settlement order."""
        if not self.rules.back_line_bets:
            return [hand]  # O(1) per fold on a big live table
        ordered = self._ordered()
        i = ordered.index(hand)
        return [hand, *(h for h in ordered[i + 1 :] if h.behind == hand.player)]

    @staticmethod
    def _entry(hand: _Hand) -> HandEntry:
        return HandEntry(hand.player, hand.wagers, hand.hole or None, hand.play or 0, hand.behind)

    def _emit_settled(self, player: str, wagers: Iterable[WagerResult]) -> None:
        for w in wagers:
            self._players_net += w.net
            left = None if self._bank is None else self._bank - self._players_net
            self._emit(
                ev.WagerSettled(
                    player,
                    w.kind,
                    w.stake,
                    w.result,
                    w.net,
                    w.uncovered,
                    w.capped,
                    w.uncovered_stake,
                    w.uncovered_winnings,
                    left,
                )
            )

    def _settle_fold(self, hand: _Hand) -> None:
        """Settle a folded hand at once (RULES.md, "A round", step 7): collected face
        down before the dealer's cards are shown, first against a player-dealer's bank.
        """
        group = self._group(hand)
        results, self._fold_running = settle_at_fold(
            self.rules,
            self._board,
            [self._entry(h) for h in group],
            bank=self._bank,
            running=self._fold_running,
        )
        self._folded.append(hand.player)
        self._emit(ev.HandFolded(hand.player))
        for result in results:
            self._emit_settled(result.id, result.wagers)

    def _showdown(self) -> None:
        ordered = self._ordered()
        folded = [h for p in self._folded for h in self._group(self._hands[p])]
        gone = {h.player for h in folded}
        rest = [h for h in ordered if h.player not in gone]
        entries = [self._entry(h) for h in (*folded, *rest)]
        result = settle(self.rules, self._board, self._dealer, entries, bank=self._bank)
        dealer = result.dealer
        self._emit(
            ev.DealerRevealed(
                self._dealer, dealer.hand.category.key, dealer.hand.best_five, dealer.qualifies
            )
        )
        showdown = [h for h in result.hands if h.outcome != "fold"]
        returned = tuple(h.id for h in showdown)
        if not dealer.qualifies and returned:
            self._emit(ev.AntesReturned(returned))
        for hand_result in showdown:
            hand = self._hands[hand_result.id]
            if hand.behind is None:
                self._emit(
                    ev.HandShown(
                        hand.player,
                        hand.hole,
                        hand_result.hand.category.key,
                        hand_result.hand.best_five,
                        hand_result.outcome,
                    )
                )
            self._emit_settled(hand.player, hand_result.wagers)
        self.settlement = result
        self.phase = Phase.SETTLED
        self._emit(ev.RoundSettled(self.rules.banking, result.banker_net))


def _check_at(at: object) -> None:
    """An ``at`` keyword is None or a timezone-aware datetime."""
    if at is not None and (not isinstance(at, datetime) or at.utcoffset() is None):
        raise IllegalActionError(
            f"at: expected a timezone-aware datetime or None, got {at!r}", field="at"
        )


def replay(
    rules: RuleSet, deck: Sequence[Card] | PreparedDeck, events: Iterable[ev.Event]
) -> Round:
    """Rebuild a round from its rule set, deck and recorded events.

    Wagers, withdrawals, the close of betting, decisions and a void are re-applied;
    every other event is derived. The result's events equal the recorded ones.

    Raises:
        UthError: an event cannot be applied (the record does not match the deck
            or the rules).

    """
    items = list(events)
    opened = next((e for e in items if isinstance(e, ev.RoundOpened)), None)
    rnd = Round(
        rules,
        game_id=opened.game_id if opened else "",
        bank=opened.bank if opened else None,
    )
    for e in items:
        if isinstance(e, ev.WagersPlaced):
            rnd.place_wagers(
                e.player,
                ante=e.ante,
                blind=e.blind,
                trips=e.trips,
                bad_beat=e.bad_beat,
                seat=e.seat,
                behind=e.behind,
            )
        elif isinstance(e, ev.WagersWithdrawn) and rnd.has_hand(e.player):
            rnd.withdraw(e.player)
        elif isinstance(e, ev.BettingClosed):
            rnd.close_betting(deck)
        elif isinstance(e, ev.DecisionMade):
            rnd.act(e.player, e.action, auto=e.auto)
        elif isinstance(e, ev.RoundVoided):
            rnd.void(e.reason)
    return rnd


__all__ = [
    "CHECK",
    "FOLD",
    "Action",
    "ActionKind",
    "ActionRecord",
    "PayloadValue",
    "Phase",
    "Round",
    "replay",
]
