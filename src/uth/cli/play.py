"""``uth play``: one player against the dealer, in the terminal.

A thin shell around :class:`uth.engine.Round`: it asks for the wagers and the
decisions, passes them to the engine, and shows what the engine's events say,
one event at a time (the deal, the flop, the turn and river, the dealer's
announcement, each wager's result). Nothing here decides a rule: the legal
decisions come from :meth:`Round.legal_actions` given the balance left (RULES.md,
"Online table": only the Play multiples the balance covers are offered; at the
river a player who cannot cover 1x can only fold), and the money from the
``wager_settled`` events.

Choices of this command (our choice):

- The balance is the player's wallet; the wagers of a round stay on it until the
  round is settled, so the balance moves by the round's net result.
- A player-dealer table (``california``, ``california-bad-beat``) is a card-room
  table with computer players (:mod:`uth.cli.card_room`): the position is offered
  in rotation, you among them; the computers bank with the same bank (``--bank``,
  default 10,000 within the table's bank limits) whenever their balance covers it.
- Enter repeats the last bet; ``q`` at a betting prompt leaves the table. When the
  input ends (or on Ctrl-C) during a round, the timer decides what is left, as on
  a live table (004): auto check, then auto fold at the river.
- The game ends when the balance no longer covers the minimum Ante and Blind.
- ``--seed`` gives a reproducible sequence of decks (tests, bug reports); without
  it the decks are shuffled by the operating system's secure generator.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from uth.cards import (
    ALL_CARDS,
    Card,
    PreparedDeck,
    SecureShuffler,
    SeededShuffler,
    Shuffler,
    SingleDeck,
)
from uth.cli.advise import TerminalTrainer
from uth.cli.usage import shown
from uth.cli.views import RESULT_STYLE, WAGER_LABEL, cards_text, describe, money, wager_notes
from uth.engine import Action, Phase, Round
from uth.engine import events as ev
from uth.engine.decks import TwoDecks
from uth.engine.settlement import check_bank
from uth.engine.wagers import (
    BetSpot,
    Wagers,
    least_play,
    spot_limit,
    spot_max,
    validate_wagers,
)
from uth.errors import UthError
from uth.evaluator import evaluate
from uth.money import ZERO, parse_amount
from uth.rules import PRESET_NAMES, RuleSet, resolve

#: The player's id in the round.
PLAYER = "you"
#: The bank the computer puts up as player-dealer when ``--bank`` is not given.
DEFAULT_BANK = Decimal(10000)
#: Exit status when a command-line option is bad.
EXIT_BAD_ARGUMENT = 2

_QUIT = frozenset({"q", "quit", "exit"})
_STREET_WORDS = {"pre_flop": "before the flop", "flop": "on the flop", "river": "at the river"}
_OUTCOME_WORDS = {"win": "you win", "lose": "the dealer wins", "tie": "a tie"}


class _Quit(Exception):
    """The player leaves the table (``q``, or the input ended while betting)."""


def _read(prompt: str) -> str | None:
    """One line of input, or None when the input has ended (or on Ctrl-C)."""
    try:
        return input(prompt)
    except (EOFError, KeyboardInterrupt):
        return None


def _message(exc: UthError) -> str:
    """An error message without its field prefix (``wagers.ante: ...``)."""
    text = str(exc)
    if exc.field and text.startswith(f"{exc.field}: "):
        text = text[len(exc.field) + 2 :]
    return text[:1].upper() + text[1:]


def _as_typed(exc: UthError, typed: str | None) -> str:
    """A flag's error without its field, lower case, its value quoted as typed
    (``must not be negative, got -5``; ``..., got 'lots'``), as usage errors are.
    """
    text = _message(exc)
    text = text[:1].lower() + text[1:]
    head, got, _ = text.rpartition(", got ")
    return f"{head}, got {shown(typed)}" if got and typed is not None else text


def _key(action: Action) -> str:
    """What the player types for an action: ``4`` for Play 4x, ``c`` check, ``f`` fold."""
    return str(action.multiple) if action.kind == "play" else action.kind[0]


def _parse_action(text: str, legal: tuple[Action, ...]) -> Action | None:
    """The legal action the text names (``4``, ``4x``, ``play_4x``, ``c``, ``check``...)."""
    t = text.strip().lower().replace(" ", "_")
    for action in legal:
        names = {_key(action), str(action), action.kind}
        if action.kind == "play":
            names |= {f"{action.multiple}x", f"play{action.multiple}x", f"play_{action.multiple}"}
            if sum(a.kind == "play" for a in legal) == 1:
                names |= {"p", "play"}
        else:
            names.add("k" if action.kind == "check" else "f")
        if t in names:
            return action
    return None


@dataclass
class _Bets:
    """The amounts typed last time (Enter repeats them)."""

    ante: Decimal | None = None
    trips: Decimal = ZERO
    bad_beat: Decimal = ZERO


class TableDecks:
    """The decks of a game in the terminal, dealt as the table machine deals them
    (RULES.md, "Decks and shuffling"): one deck shuffled for every round (001, 004),
    or the engine's two alternating decks with their discard rack (000, 002;
    :class:`~uth.engine.decks.TwoDecks`), each colour loaded from the shuffler when
    it needs a deck and the deck dealt collected into the rack after its round
    (the cards of only one deck in the rack at a time: the rack refuses the other).

    Args:
        rules: the rule set (its ``deck_procedure``).
        shuffler: the shuffling machine.
    """

    def __init__(self, rules: RuleSet, shuffler: Shuffler) -> None:
        self.shuffler = shuffler
        self._single = SingleDeck(shuffler)
        #: The two decks and the rack, or None for one deck.
        self.two = TwoDecks() if rules.deck_procedure == "two_alternating_decks" else None

    def deal(self) -> PreparedDeck:
        """The deck for the next round (coloured with two decks).

        Raises:
            InvalidDealError: the last round's deck was not collected.
        """
        two = self.two
        if two is None:
            return self._single.next_deck()
        for colour in two.needs_shuffle():
            two.load(colour, self.shuffler.shuffle(ALL_CARDS))
        return two.deal()

    def collect(self) -> None:
        """The round is over: its deck's cards into the discard rack (two decks)."""
        if self.two is not None:
            self.two.collect()


@dataclass
class _Table:
    """The state of one game: the player's balance and the decks."""

    console: Console
    rules: RuleSet
    decks: TableDecks
    balance: Decimal
    start: Decimal = field(init=False)
    rounds: int = 0
    last: _Bets = field(default_factory=_Bets)
    rows: list[ev.WagerSettled] = field(default_factory=list)
    hole: tuple[Card, ...] = ()
    board_shown: tuple[Card, ...] = ()
    trainer: TerminalTrainer | None = None

    def __post_init__(self) -> None:
        self.start = self.balance

    # ------------------------------------------------------------------ the game
    def run(self) -> None:
        """Play rounds until the player quits or cannot cover the minimum bets."""
        self._welcome()
        while True:
            least = self.rules.ante.min * 2
            if self.balance < least:
                self.console.print(
                    f"Your balance of {money(self.balance)} does not cover the minimum Ante and "
                    f"Blind ({money(least)}). Game over."
                )
                break
            try:
                self.play_round()
            except _Quit:
                break
        change = self.balance - self.start
        self.console.print(
            f"You leave the table with {money(self.balance)} "
            f"({money(change, sign=True) if change else 'even'} after "
            f"{self.rounds} round{'s' if self.rounds != 1 else ''})."
        )

    def _welcome(self) -> None:
        rules = self.rules
        self.console.print(Text(f"Ultimate Texas Hold'em: {rules.title or rules.name}", "bold"))
        self.console.print(
            f"Ante {money(rules.ante.min)} to {money(rules.ante.max)}, Blind equal to the Ante. "
            "Press Enter to repeat your last bet, q to leave."
        )

    def play_round(self) -> None:
        """Take the wagers, deal, ask the decisions, and settle one round."""
        self.console.rule(f"Round {self.rounds + 1}")
        self.console.print(f"Balance: {money(self.balance)}")
        wagers = self._ask_wagers()
        deck = self.decks.deal()
        self.rounds += 1
        rnd = Round(self.rules, game_id=str(self.rounds))
        rnd.place_wagers(
            PLAYER, ante=wagers.ante, trips=wagers.trips, bad_beat=wagers.bad_beat, seat=1
        )
        if deck.colour is not None:
            self.console.print(f"Dealing from the {deck.colour} deck.")
        self.rows = []
        self._show(rnd.close_betting(deck))
        left = self.balance - wagers.total
        while rnd.phase in (Phase.PRE_FLOP, Phase.FLOP, Phase.RIVER):
            legal = rnd.legal_actions(PLAYER, available=left)
            advice = (
                self.trainer.before(self.hole, self.board_shown, legal) if self.trainer else None
            )
            action, auto = self._decide(rnd, left)
            if self.trainer:
                self.trainer.after(advice, action, auto=auto)
            events = rnd.act(PLAYER, action, available=left, auto=auto)
            left -= wagers.ante * action.multiple
            self._show(events)
        if self.trainer:
            self.trainer.round_over()
        self.decks.collect()
        net = sum((row.net for row in self.rows if row.player == PLAYER), ZERO)
        self.balance += net
        self.console.print(f"Balance: {money(self.balance)}")

    # ------------------------------------------------------------------ wagers
    def _ask_wagers(self) -> Wagers:
        rules = self.rules
        default = self.last.ante if self.last.ante is not None else rules.ante.min
        ante = self._ask_amount(
            f"Ante ({money(rules.ante.min)} to {money(rules.ante.max)})",
            default,
            lambda a: self._check(ante=a),
        )
        self.console.print(f"Blind: {money(ante)} (equal to the Ante)")
        trips = bad_beat = ZERO
        if rules.trips is not None:
            trips = self._ask_amount(
                f"Trips ({self._side_limits('trips', ante)}, 0 for none)",
                self.last.trips,
                lambda t: self._check(ante=ante, trips=t),
            )
        if rules.bad_beat is not None:
            bad_beat = self._ask_amount(
                f"Bad Beat ({self._side_limits('bad_beat', ante)}, 0 for none)",
                self.last.bad_beat,
                lambda b: self._check(ante=ante, trips=trips, bad_beat=b),
            )
        wagers = self._check(ante=ante, trips=trips, bad_beat=bad_beat)
        self.last = _Bets(ante, trips, bad_beat)
        left = self.balance - wagers.total
        if left < least_play(rules, ante):
            self.console.print(
                Text(
                    f"Note: {money(left)} left would not cover a 1x Play ({money(ante)}); "
                    "at the river you could only fold.",
                    "yellow",
                )
            )
        return wagers

    def _side_limits(self, spot: BetSpot, ante: Decimal) -> str:
        limit = spot_limit(self.rules, spot)
        high = spot_max(self.rules, spot, ante)
        assert limit is not None and high is not None
        return f"{money(limit.min)} to {money(high)}"

    def _check(self, *, ante: Decimal, trips: Decimal = ZERO, bad_beat: Decimal = ZERO) -> Wagers:
        """The wagers, checked against the rule set and the balance.

        Raises:
            UthError: a wager breaks the rules or the balance does not cover them.

        """
        wagers = validate_wagers(self.rules, ante=ante, trips=trips, bad_beat=bad_beat, field="bet")
        if wagers.total > self.balance:
            raise UthError(
                f"your balance of {money(self.balance)} does not cover "
                f"{money(wagers.total)} (Ante and Blind {money(wagers.ante * 2)}"
                + (f", Trips {money(wagers.trips)}" if wagers.trips else "")
                + (f", Bad Beat {money(wagers.bad_beat)}" if wagers.bad_beat else "")
                + ")"
            )
        return wagers

    def _ask_amount(
        self, label: str, default: Decimal, check: Callable[[Decimal], object]
    ) -> Decimal:
        """Ask for an amount until one passes ``check``; Enter gives the default."""
        while True:
            text = _read(f"{label} [{money(default)}]: ")
            if text is None or text.strip().lower() in _QUIT:
                raise _Quit
            try:
                amount = parse_amount(text.strip() or default, field="amount")
            except UthError as exc:
                if "expected" in str(exc):
                    shown = f"{text.strip()!r} is not an amount"
                else:
                    shown = f"{text.strip()!r} is not a valid amount ({_message(exc).lower()})"
                self.console.print(
                    Text(
                        f"{shown}: type a number such as 10 or 12.50, Enter to repeat, q to leave.",
                        "red",
                    )
                )
                continue
            try:
                check(amount)
            except UthError as exc:
                self.console.print(Text(_message(exc), "red"))
                continue
            return amount

    # ------------------------------------------------------------------ decisions
    def _decide(self, rnd: Round, left: Decimal) -> tuple[Action, bool]:
        """The player's decision on this street, among the legal ones."""
        legal = rnd.legal_actions(PLAYER, available=left)
        street = _STREET_WORDS[rnd.phase]
        ante = rnd.wagers(PLAYER).ante
        if len(legal) == 1:
            self.console.print(f"{money(left)} left does not cover a Play {street}.")
            return legal[0], False
        words = [
            f"play {a.multiple}x ({money(ante * a.multiple)})" if a.kind == "play" else a.kind
            for a in legal
        ]
        keys = "/".join(_key(a) for a in legal)
        choices = ", ".join(words[:-1]) + f" or {words[-1]}"
        while True:
            text = _read(f"{street.capitalize()}: {choices}? [{keys}]: ")
            if text is None:
                timed = rnd.timeout_action(PLAYER)
                self.console.print(
                    f"No answer: auto {'folded' if timed.kind == 'fold' else 'checked'}."
                )
                return timed, True
            action = _parse_action(text, legal)
            if action is not None:
                return action, False
            hint = (
                " (the round is under way: finish it first)"
                if text.strip().lower() in _QUIT
                else ""
            )
            self.console.print(
                Text(f"{text.strip()!r} is not a choice here{hint}: type one of {keys}.", "red")
            )

    # ------------------------------------------------------------------ events
    def _show(self, events: tuple[ev.Event, ...]) -> None:
        """Show what each event says (betting_closed and board_placed say nothing)."""
        for e in events:
            match e:
                case ev.HoleCardsDealt():
                    self._on_dealt(e)
                case ev.PlayerHandDealt():
                    self._on_shared_hand(e)
                case ev.DealerCardsDealt():
                    self._on_dealer_dealt(e)
                case ev.DecisionMade():
                    self._on_decision(e)
                case ev.FlopTurned():
                    self._on_flop(e)
                case ev.TurnAndRiverTurned():
                    self._on_turn_river(e)
                case ev.DealerRevealed():
                    self._on_revealed(e)
                case ev.AntesReturned():
                    self._on_antes_returned(e)
                case ev.HandShown():
                    self._on_shown(e)
                case ev.HandFolded():
                    self._on_folded(e)
                case ev.WagerSettled():
                    self.rows.append(e)
                case ev.RoundSettled():
                    self._on_round_settled(e)

    def _board_line(self, label: str, cards: tuple[Card, ...]) -> None:
        """Cards just turned, the board when it has more, and the player's hand now."""
        line = Text(f"{label}: ")
        line.append_text(cards_text(cards))
        if self.board_shown != cards:
            line.append("   board: ")
            line.append_text(cards_text(self.board_shown))
        if len(self.hole) == 2:
            mine = evaluate((*self.hole, *self.board_shown))
            line.append(f"   you have {describe(mine)}", "cyan")
        self.console.print(line)

    def _on_dealt(self, e: ev.HoleCardsDealt) -> None:
        if e.player == PLAYER:
            self.hole = e.cards
            self.board_shown = ()
            line = Text("Your cards: ")
            line.append_text(cards_text(e.cards))
            self.console.print(line)

    def _on_shared_hand(self, e: ev.PlayerHandDealt) -> None:
        self.hole = e.cards
        self.board_shown = ()
        line = Text("Your cards: ")
        line.append_text(cards_text(e.cards))
        line.append("  (one hand, face up, played by every player at this table)")
        self.console.print(line)

    def _on_dealer_dealt(self, e: ev.DealerCardsDealt) -> None:
        self.console.print(
            "The dealer takes two cards face down; five community cards wait face down."
        )

    def _on_decision(self, e: ev.DecisionMade) -> None:
        if e.player != PLAYER:
            return
        auto = " (auto)" if e.auto else ""
        if e.multiple:
            self.console.print(f"You play {e.multiple}x: {money(e.play)} on Play{auto}.")
        else:
            self.console.print(f"You {e.action}{auto}.")

    def _on_flop(self, e: ev.FlopTurned) -> None:
        self.board_shown = e.cards
        self._board_line("Flop", e.cards)

    def _on_turn_river(self, e: ev.TurnAndRiverTurned) -> None:
        self.board_shown = (*self.board_shown, *e.cards)
        self._board_line("Turn and river", e.cards)

    def _on_revealed(self, e: ev.DealerRevealed) -> None:
        line = Text("Dealer shows: ")
        line.append_text(cards_text(e.cards))
        self.console.print(line)
        said = Text(e.announcement, "bold green" if e.qualifies else "bold yellow")
        said.append(f"  ({describe(evaluate(e.best_five))}: ", "")
        said.append_text(cards_text(e.best_five))
        said.append(")")
        self.console.print(said)

    def _on_antes_returned(self, e: ev.AntesReturned) -> None:
        if PLAYER in e.players:
            self.console.print("The dealer does not qualify: your Ante is returned.")

    def _on_shown(self, e: ev.HandShown) -> None:
        if e.player != PLAYER:
            return
        line = Text(f"You have {describe(evaluate(e.best_five))} (")
        line.append_text(cards_text(e.best_five))
        line.append("): ")
        line.append(_OUTCOME_WORDS.get(e.outcome, e.outcome), "bold")
        self.console.print(line)

    def _on_folded(self, e: ev.HandFolded) -> None:
        if e.player == PLAYER:
            self.console.print("Your hand is folded face down.")

    def _on_round_settled(self, e: ev.RoundSettled) -> None:
        self._my_settlement()

    def _my_settlement(self) -> None:
        """The player's wagers, results and net, and notes on uncovered or capped wins."""
        table = Table(title="Settlement", title_justify="left", show_footer=True)
        table.add_column("Wager", footer="Total")
        table.add_column("Stake", justify="right")
        table.add_column("Result")
        mine = [row for row in self.rows if row.player == PLAYER and row.stake]
        net = sum((row.net for row in mine), ZERO)
        table.add_column("Net", justify="right", footer=money(net, sign=True))
        notes = []
        for row in mine:
            result = Text(row.result.replace("_", " "), RESULT_STYLE.get(row.result, ""))
            table.add_row(
                WAGER_LABEL.get(row.wager, row.wager),
                money(row.stake),
                result,
                money(row.net, sign=True),
            )
            said = wager_notes(row.capped, row.uncovered_stake, row.uncovered_winnings)
            if said:
                notes.append(f"{WAGER_LABEL.get(row.wager, row.wager)}: {'; '.join(said)}.")
        self.console.print(table)
        for note in notes:
            self.console.print(note)


def play_command(
    rules: Annotated[
        str,
        typer.Option(
            "--rules",
            help=f"A preset ({', '.join(PRESET_NAMES)}) or a rule-set TOML file.",
        ),
    ] = "casino",
    balance: Annotated[str, typer.Option("--balance", help="Your starting balance.")] = "1000",
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed the shuffle for a reproducible game (tests only)."),
    ] = None,
    bank: Annotated[
        str | None,
        typer.Option(
            "--bank",
            help="Player-dealer tables: the computer's bank each round "
            f"(default {DEFAULT_BANK:,}, within the table's limits).",
        ),
    ] = None,
    trainer: Annotated[
        bool,
        typer.Option(
            "--trainer", help="Show the exact EV of each option and score your decisions."
        ),
    ] = False,
    computers: Annotated[
        int,
        typer.Option(
            "--computers",
            min=1,
            max=6,
            help="Player-dealer tables: computer players in seats 2 on (you sit in seat 1).",
        ),
    ] = 3,
) -> None:
    """Play Ultimate Texas Hold'em against the dealer in the terminal."""
    try:
        rule_set = resolve(rules)
    except UthError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_BAD_ARGUMENT) from None
    try:
        start = parse_amount(balance, field="--balance")
    except UthError as exc:
        typer.echo(f"error: --balance: {_as_typed(exc, balance)}", err=True)
        raise typer.Exit(EXIT_BAD_ARGUMENT) from None
    bank_amount: Decimal | None = None
    try:
        if bank is not None:
            bank_amount = check_bank(rule_set, parse_amount(bank, field="--bank"), label="")
        elif rule_set.bank is not None:
            bank_amount = min(max(DEFAULT_BANK, rule_set.bank.min), rule_set.bank.max)
    except UthError as exc:
        typer.echo(f"error: --bank: {_as_typed(exc, bank)}", err=True)
        raise typer.Exit(EXIT_BAD_ARGUMENT) from None
    shuffler: Shuffler = SeededShuffler(seed) if seed is not None else SecureShuffler()
    console = Console(highlight=False, soft_wrap=True)
    coach = TerminalTrainer(console, rule_set) if trainer else None
    if rule_set.banking == "player_dealer" and bank_amount is not None:
        from uth.cli.card_room import CardRoom  # imports this module

        room = CardRoom(
            console,
            rule_set,
            TableDecks(rule_set, shuffler),
            start,
            trainer=coach,
            computers=computers,
            computer_bank=bank_amount,
        )
        room.run()
        return
    table = _Table(
        console,
        rule_set,
        TableDecks(rule_set, shuffler),
        start,
        trainer=coach,
    )
    table.run()


__all__ = ["play_command"]
