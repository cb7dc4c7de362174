"""``uth play --rules california``: a California card-room table in the terminal.

Seeds 000 and 002; RULES.md, "Who banks", "A round" and "Order of decisions". You
sit in seat 1; computer players sit in seats 2 and on (``--computers``, 3 by
default). The engine runs the table: :class:`uth.engine.banking.Rotation` offers
the player-dealer position at the start of every round, clockwise, and passes over
a player who banked the last two rounds; :class:`uth.engine.Round` takes the
decisions in turn, clockwise from the player-dealer's left, and settles seat by
seat within the bank; the rounds are dealt from the engine's two alternating decks
through their discard rack (:class:`uth.cli.play.TableDecks`), a deck taken only
when somebody bets, and collected after its round. This module only asks, shows
and keeps the balances.

The computer players' policy (our choice, simple on purpose):

- **Bank**: accept the position with the fixed bank (``--bank``, default 10,000
  within the table's bank limits) whenever their balance covers it, else decline.
  Each computer starts with :data:`COMPUTER_BALANCE`.
- **Bet**: the table minimum Ante (and the Blind equal to it), no side bets; a
  computer whose balance would not cover the Ante, the Blind and a 4x Play sits the
  round out.
- **Decide**: pre-flop Play 4x with a pair or an ace, else check; on the flop Play
  2x with a pair or better that uses a hole card (a hand above the board's alone),
  else check; at the river Play 1x with a hand above the board's alone, else fold.

You are offered the position every time the offer reaches you: type a bank to
accept, Enter or ``n`` to decline, ``q`` to leave. As player-dealer you play no hand
that round; the round's result against your bank is added to your balance. When
nobody takes the position (the position cannot be offered to anyone who would
accept), no round is dealt and the game ends.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal

from rich.text import Text

from uth.cards import Card
from uth.cli.play import PLAYER, _message, _Quit, _read, _Table
from uth.cli.views import cards_text, describe, money
from uth.engine import Action, Phase, Round
from uth.engine import events as ev
from uth.engine.banking import Banker, NoBanker, Offered, Rotation
from uth.errors import UthError
from uth.evaluator import Category, evaluate
from uth.money import ZERO, parse_amount

#: Each computer player's starting balance.
COMPUTER_BALANCE = Decimal(50000)
#: The computer players' names, seat 2 on.
COMPUTER_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn")
_WORDS = {"win": "wins", "lose": "loses", "tie": "ties"}
_DECLINE = frozenset({"", "n", "no", "d", "decline"})


def computer_decision(
    hole: tuple[Card, ...], board: tuple[Card, ...], legal: tuple[Action, ...]
) -> Action:
    """The computer players' decision (module docstring), among the legal actions.

    Args:
        hole: the two hole cards.
        board: the community cards turned so far (0, 3 or 5).
        legal: the legal actions, largest Play first, check or fold last.

    """
    plays = [a for a in legal if a.kind == "play"]
    if not plays:
        return legal[-1]
    if not board:
        strong = hole[0].rank == hole[1].rank or 14 in (hole[0].rank, hole[1].rank)
        return plays[0] if strong else legal[-1]
    mine = evaluate((*hole, *board)).category
    alone = evaluate(board).category if len(board) == 5 else _flop_category(board)
    if len(board) == 3:
        return plays[0] if mine >= Category.PAIR and mine > alone else legal[-1]
    return plays[0] if mine > alone else legal[-1]


def _flop_category(flop: tuple[Card, ...]) -> Category:
    """The category of the three flop cards alone: three of a kind, a pair or high
    card (three cards make no straight or flush).
    """
    most = max(Counter(card.rank for card in flop).values())
    return {1: Category.HIGH_CARD, 2: Category.PAIR}.get(most, Category.THREE_OF_A_KIND)


@dataclass
class CardRoom(_Table):
    """A card-room game: the human in seat 1, computer players in seats 2 on."""

    computers: int = 3
    computer_bank: Decimal = Decimal(10000)
    balances: dict[str, Decimal] = field(default_factory=dict)
    rotation: Rotation = field(init=False)
    names: dict[str, str] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.rotation = Rotation(self.rules)
        self.rotation.sit(PLAYER, 1)
        self.names[PLAYER] = "You"
        for i, name in enumerate(COMPUTER_NAMES[: self.computers]):
            pid = name.lower()
            self.rotation.sit(pid, i + 2)
            self.names[pid] = name
            self.balances[pid] = COMPUTER_BALANCE

    # ------------------------------------------------------------------ the game
    def _welcome(self) -> None:
        super()._welcome()
        seats = ", ".join(f"{self.names[p]} (seat {s})" for s, p in self.rotation.seats.items())
        self.console.print(f"Seats: {seats}. Decisions are taken in turn, from seat 1.")
        self.console.print(
            f"The player-dealer banks the round; the position is offered clockwise and "
            f"nobody banks more than {self.rules.max_consecutive_banks} rounds in a row. "
            f"Computers bank {money(self.computer_bank)} when they can."
        )

    def play_round(self) -> None:
        """Offer the position, take the wagers, deal, decide in turn, settle."""
        self.console.rule(f"Round {self.rounds + 1}")
        self.console.print(f"Balance: {money(self.balance)}")
        banker = self._offer()
        if banker.player == PLAYER:
            self.console.print(
                f"You are the player-dealer with a bank of {money(banker.bank)}: "
                "no hand of yours this round."
            )
        else:
            self.console.print(
                f"{self.names[banker.player]} is the player-dealer with a bank of "
                f"{money(banker.bank)}."
            )
        playing = banker.player != PLAYER
        self.hole = self.board_shown = ()
        spent: dict[str, Decimal] = {}
        wagers = self._ask_wagers() if playing else None
        self.rounds += 1
        rnd = Round(self.rules, game_id=str(self.rounds), bank=banker.bank)
        for player in self.rotation.players():
            seat = self.rotation.seat_of(player)
            if player == PLAYER and wagers is not None:
                rnd.place_wagers(
                    PLAYER,
                    ante=wagers.ante,
                    trips=wagers.trips,
                    bad_beat=wagers.bad_beat,
                    seat=seat,
                )
                spent[PLAYER] = wagers.total
            elif player != PLAYER:
                ante = self.rules.ante.min
                if self.balances[player] >= ante * (2 + self.rules.play_multiples.largest):
                    rnd.place_wagers(player, ante=ante, seat=seat)
                    spent[player] = ante * 2
                else:
                    self.console.print(f"{self.names[player]} sits this round out.")
        if not spent:
            rnd.void("nobody bet")
            self.console.print("Nobody bets: no round is dealt.")
            self.rotation.end_round(dealt=False)
            return
        deck = self.decks.deal()  # as the table machine: only when someone bet
        if deck.colour is not None:
            self.console.print(f"Dealing from the {deck.colour} deck.")
        self.rows = []
        self._show(rnd.close_betting(deck))
        while rnd.phase in (Phase.PRE_FLOP, Phase.FLOP, Phase.RIVER):
            turn = rnd.to_act
            assert turn is not None
            left = (self.balance if turn == PLAYER else self.balances[turn]) - spent[turn]
            if turn == PLAYER:
                legal = rnd.legal_actions(PLAYER, available=left)
                advice = (
                    self.trainer.before(self.hole, self.board_shown, legal)
                    if self.trainer
                    else None
                )
                action, auto = self._decide(rnd, left)
                if self.trainer:
                    self.trainer.after(advice, action, auto=auto)
            else:
                legal = rnd.legal_actions(turn, available=left)
                action, auto = computer_decision(rnd.hole_cards(turn), rnd.board, legal), False
            spent[turn] += rnd.wagers(turn).ante * action.multiple
            self._show(rnd.act(turn, action, available=left, auto=auto))
        if self.trainer and playing:
            self.trainer.round_over()
        self._settle_balances(rnd, banker)
        self.decks.collect()
        self.rotation.end_round()
        self.console.print(f"Balance: {money(self.balance)}")

    def _offer(self) -> Banker:
        """Offer the position round the table until someone banks.

        Raises:
            _Quit: nobody banks (no round can be dealt), or the human leaves.

        """
        state: Offered | Banker | NoBanker = self.rotation.open_offer()
        said = 0
        while True:
            for step in state.steps[said:]:
                if step.player == PLAYER and step.outcome == "passed_over":
                    self.console.print(
                        f"You have banked {self.rules.max_consecutive_banks} rounds in a row: "
                        "the position passes on."
                    )
            said = len(state.steps)
            if not isinstance(state, Offered):
                break
            if state.player == PLAYER:
                state = self._ask_bank()
                continue
            name = self.names[state.player]
            if self.balances[state.player] >= self.computer_bank:
                state = self.rotation.answer(
                    state.player, self.computer_bank, balance=self.balances[state.player]
                )
            else:
                self.console.print(f"{name} declines the bank.")
                state = self.rotation.answer(state.player, None)
        if isinstance(state, NoBanker):
            passed = [
                self.names[s.player]
                for s in state.steps
                if s.outcome == "passed_over" and s.player != PLAYER  # yours is said above
            ]
            why = f" ({', '.join(passed)} banked the last two rounds)" if passed else ""
            self.console.print(f"Nobody takes the player-dealer position{why}: no round is dealt.")
            raise _Quit
        return state

    def _ask_bank(self) -> Offered | Banker | NoBanker:
        """The offer reached the human: a bank to accept, Enter or n to decline."""
        limits = self.rules.bank
        assert limits is not None
        if self.balance < limits.min:
            self.console.print(
                f"The player-dealer position is offered to you, but your balance of "
                f"{money(self.balance)} is below the minimum bank of {money(limits.min)}: "
                "you cannot bank, you decline."
            )
            return self.rotation.answer(PLAYER, None)
        high = min(limits.max, self.balance)
        while True:
            text = _read(
                f"The player-dealer position is offered to you. Bank ({money(limits.min)} to "
                f"{money(high)}), or Enter to decline: "
            )
            if text is None or text.strip().lower() in ("q", "quit", "exit"):
                raise _Quit
            if text.strip().lower() in _DECLINE:
                self.console.print("You decline the bank.")
                return self.rotation.answer(PLAYER, None)
            try:
                bank = parse_amount(text.strip(), field="bank")
                if bank < limits.min or bank > high:
                    # the prompt's range, in its format (the engine would refuse too)
                    said = (
                        f"The bank must be between {money(limits.min)} and {money(high)}"
                        f"{' (your balance)' if high < limits.max else ''}, got {money(bank)}"
                    )
                else:
                    state = self.rotation.answer(PLAYER, bank, balance=self.balance)
                    self.console.print(f"You bank {money(bank)}.")
                    return state
            except UthError as exc:
                said = _message(exc)
            self.console.print(
                Text(
                    f"{text.strip()!r} refused: {said[:1].lower()}{said[1:]}. "
                    "Type a bank, or Enter to decline.",
                    "red",
                )
            )

    def _settle_balances(self, rnd: Round, banker: Banker) -> None:
        """Each hand's net to its owner and the player-dealer's result to the banker."""
        assert rnd.settlement is not None
        for row in self.rows:
            if row.player == PLAYER:
                self.balance += row.net
            else:
                self.balances[row.player] += row.net
        result = rnd.settlement.banker_net
        if banker.player == PLAYER:
            self.balance += result
        else:
            self.balances[banker.player] += result

    # ------------------------------------------------------------------ events
    def _on_decision(self, e: ev.DecisionMade) -> None:
        if e.player == PLAYER:
            super()._on_decision(e)
            return
        what = f"plays {e.multiple}x ({money(e.play)})" if e.multiple else f"{e.action}s"
        self.console.print(f"{self.names[e.player]} {what}.")

    def _on_shown(self, e: ev.HandShown) -> None:
        if e.player == PLAYER:
            super()._on_shown(e)
            return
        line = Text(f"{self.names[e.player]} shows ")
        line.append_text(cards_text(e.cards))
        line.append(f": {describe(evaluate(e.best_five))}, {_WORDS.get(e.outcome, e.outcome)}")
        self.console.print(line)

    def _on_round_settled(self, e: ev.RoundSettled) -> None:
        if any(row.player == PLAYER for row in self.rows):
            self._my_settlement()
        self.console.print(
            "Settled: the folds first, then seat by seat from the player-dealer's left:"
        )
        order: list[str] = []
        for row in self.rows:
            if row.player not in order:
                order.append(row.player)
        for player in order:
            mine = [row for row in self.rows if row.player == player]
            net = sum((row.net for row in mine), ZERO)
            left = mine[-1].bank_left
            shown = money(net, sign=True) if net else "even"
            self.console.print(f"  {self.names[player]}: {shown}, bank left {money(left or ZERO)}")
        self.console.print(f"Player-dealer: {money(e.banker_net, sign=True)}")
