"""Rich renderings for the command line: a hand, a rule set, a settlement.

Only presentation lives here; every value comes from the engine's objects.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from uth.cards.card import Card, Suit
from uth.engine.settlement import HandEntry, Settlement
from uth.evaluator import Category, HandValue
from uth.rules import Limit, RuleSet
from uth.rules.model import PayTable

_RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)
_DECKS = {
    "single_deck": "one deck, shuffled after every round",
    "two_alternating_decks": "two decks with different backs, used in alternate rounds",
}
_DECISIONS = {
    "at_once": "at once, every player against the same timer",
    "in_turn": "in turn, clockwise from the player-dealer's left",
}
_FOLDED_TRIPS = {
    "player_hand": "settled on the player's best hand",
    "board_only": "settled on the five community cards",
}
#: Rich style of each wager result.
RESULT_STYLE = {"win": "green", "lose": "red", "push": "yellow", "no_action": "dim"}
_OUTCOME_STYLE = {"win": "bold green", "lose": "bold red", "tie": "bold yellow", "fold": "dim"}
#: The display name of each wager.
WAGER_LABEL = {
    "ante": "Ante",
    "blind": "Blind",
    "play": "Play",
    "trips": "Trips",
    "bad_beat": "Bad Beat",
}


def _plural(card: Card) -> str:
    name = card.rank_name
    return name + ("es" if name.endswith("x") else "s")


def describe(hand: HandValue) -> str:
    """The hand in words: ``"full house, aces over sevens"``, ``"pair of queens"``."""
    cat = hand.category
    five = hand.best_five
    top = five[0]
    if cat is Category.ROYAL_FLUSH:
        return "royal flush"
    if cat in (Category.STRAIGHT_FLUSH, Category.STRAIGHT, Category.FLUSH):
        return f"{cat.label}, {top.rank_name} high"
    if cat is Category.FOUR_OF_A_KIND:
        return f"four of a kind, {_plural(top)}"
    if cat is Category.FULL_HOUSE:
        return f"full house, {_plural(top)} over {_plural(five[3])}"
    if cat is Category.THREE_OF_A_KIND:
        return f"three of a kind, {_plural(top)}"
    if cat is Category.TWO_PAIR:
        return f"two pair, {_plural(top)} and {_plural(five[2])}"
    if cat is Category.PAIR:
        return f"pair of {_plural(top)}"
    return f"high card, {top.rank_name}"


def cards_text(cards: Iterable[Card]) -> Text:
    """Cards with suit symbols, hearts and diamonds in red: ``A♠ K♥``."""
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        text.append(card.rank_char + card.suit.symbol, "red" if card.suit in _RED_SUITS else "")
    return text


def render_hand(console: Console, hand: HandValue) -> None:
    """Print a hand's category in words and its best five cards."""
    line = Text(describe(hand).capitalize(), "bold")
    console.print(line)
    five = Text("Best five: ")
    five.append_text(cards_text(hand.best_five))
    five.append(f"  ({' '.join(str(c) for c in hand.best_five)})", "dim")
    console.print(five)


def money(amount: Decimal, *, sign: bool = False) -> str:
    """An amount with thousands separators and two decimals (``+1,250.00`` with ``sign``)."""
    if not amount:
        return "0.00"
    return f"{amount:+,.2f}" if sign else f"{amount:,.2f}"


def _limit(limit: Limit | None) -> str:
    return "not offered" if limit is None else f"{money(limit.min)} to {money(limit.max)}"


def _pay_table(title: str, hand: str, table: PayTable, otherwise: str) -> Table:
    out = Table(title=title, title_justify="left")
    out.add_column(hand)
    out.add_column("Pays", justify="right")
    for category in sorted(table, reverse=True):
        out.add_row(category.label, str(table[category]))
    out.add_row(Text("anything less", "dim"), Text(otherwise, "dim"))
    return out


def render_rules(console: Console, rules: RuleSet) -> None:
    """Print a rule set: options, limits, pay tables and notes."""
    console.print(Text(rules.title or rules.name, "bold"))
    info = Table.grid(padding=(0, 2))
    info.add_column(style="cyan")
    info.add_column()
    multiples = rules.play_multiples

    def times(values: tuple[int, ...], other: str) -> str:
        return " or ".join(f"{m}x" for m in values) + f" the Ante, or {other}"

    rows: list[tuple[str, str]] = [
        ("Rule set", rules.name),
        ("Rules document", rules.seed or "-"),
        ("Banker", "the house" if rules.banking == "house" else "a player-dealer (the bank)"),
        ("Decks", _DECKS[rules.deck_procedure]),
        ("Seats", "unlimited" if rules.seats is None else str(rules.seats)),
        ("Back-line bets", "allowed" if rules.back_line_bets else "not allowed"),
        (
            "Player hands",
            "one shared hand dealt face up, each player decides alone"
            if rules.shared_hand
            else "two hole cards to each hand",
        ),
    ]
    if rules.banking == "player_dealer":
        rows.append(("Banks in a row", f"at most {rules.max_consecutive_banks}"))
    rows += [
        ("Decisions", _DECISIONS[rules.decision_order]),
        ("Play before the flop", times(multiples.pre_flop, "check")),
        ("Play after the flop", times(multiples.flop, "check")),
        ("Play at the river", times(multiples.river, "fold")),
        ("Dealer qualifies with", f"{rules.dealer_qualifier.label} or better"),
        ("Trips of a folded hand", _FOLDED_TRIPS[rules.folded_trips]),
    ]
    cap = rules.payout_cap
    cap_amount = rules.cap_amount()
    if cap is None or cap_amount is None:
        rows.append(("Payout cap", "none"))
    else:
        rule = (
            f"the greater of {money(cap.amount)} and the most a table-minimum bettor could win"
            if cap.min_bettor_rule
            else money(cap.amount)
        )
        rows.append(
            (
                "Payout cap",
                f"{money(cap_amount)} on Ante + Blind + Play per player per round ({rule}); "
                "Trips not capped",
            )
        )
    for key, value in rows:
        info.add_row(key, escape(value))
    console.print(info)

    limits = Table(title="Limits", title_justify="left")
    limits.add_column("Wager")
    limits.add_column("Limits")
    limits.add_row("Ante", _limit(rules.ante))
    limits.add_row("Blind", "equal to the Ante")
    limits.add_row("Trips", _limit(rules.trips))
    limits.add_row("Bad Beat Bonus", _limit(rules.bad_beat))
    if rules.bank is not None:
        limits.add_row("Bank", _limit(rules.bank))
    console.print(limits)
    if rules.side_bets_not_above_ante:
        console.print("Trips and Bad Beat Bonus may not exceed the Ante.")

    console.print(_pay_table("Blind pay table", "Player wins with", rules.blind_pays, "push"))
    if rules.trips_pays:
        console.print(_pay_table("Trips pay table", "Player's hand", rules.trips_pays, "lose"))
    if rules.bad_beat_pays:
        console.print(
            _pay_table("Bad Beat Bonus pay table", "Beaten hand", rules.bad_beat_pays, "lose")
        )
    render_return_to_player(console, rules)
    if rules.notes:
        console.print(Text("Notes", "bold"))
        notes = Table.grid(padding=(0, 1))
        notes.add_column()
        notes.add_column()
        for note in rules.notes:
            notes.add_row("-", Text(note))
        console.print(notes)


def render_return_to_player(console: Console, rules: RuleSet) -> None:
    """Print the rule set's return to player from the exact analysis (never typed):
    the stored result (shipped for the presets, or cached by ``uth analyze``), or
    how to compute it.
    """
    from uth.analysis import cached_result

    result = cached_result(rules)
    if result is None:
        console.print(
            Text(
                "Return to player: not yet computed for this rule set; "
                "`uth analyze --rules FILE` computes it (about half a minute).",
                "dim",
            )
        )
        return
    table = Table(title="Return to player (exact analysis, perfect play)", title_justify="left")
    table.add_column("Figure")
    table.add_column("Value", justify="right")
    table.add_row("Return to player, total bet", f"{float(result.rtp_total_bet) * 100:.2f}%")
    table.add_row(
        "Return to player, initial bet (Ante)", f"{float(result.rtp_initial_bet) * 100:.2f}%"
    )
    table.add_row("House edge (per Ante)", f"{float(result.house_edge) * 100:.3f}%")
    if result.trips is not None:
        table.add_row("Trips return to player", f"{float(result.trips[0]) * 100:.2f}%")
    if result.bad_beat is not None:
        table.add_row("Bad Beat return to player", f"{float(result.bad_beat[0]) * 100:.2f}%")
    console.print(table)


def render_rules_list(console: Console, rules: Iterable[RuleSet]) -> None:
    """Print a table of rule sets: name, title, seed and banking."""
    table = Table(title="Presets", title_justify="left")
    for column in ("Name", "Title", "Seed", "Banking"):
        table.add_column(column)
    for r in rules:
        table.add_row(escape(r.name), escape(r.title), escape(r.seed), r.banking)
    console.print(table)


def wager_notes(
    capped: Decimal, uncovered_stake: Decimal, uncovered_winnings: Decimal
) -> list[str]:
    """What the payout cap and the bank did to a wager, in words.

    Args:
        capped: winnings withheld by the payout cap (001).
        uncovered_stake: the stake the player-dealer's bank could not cover (returned).
        uncovered_winnings: what that stake would have won (not paid); 0 on a loss.

    """
    notes = []
    if capped:
        notes.append(f"{money(capped)} of winnings over the payout cap, not paid")
    if uncovered_stake or uncovered_winnings:
        notes.append(f"{money(uncovered_stake)} of the stake not covered by the bank, returned")
    if uncovered_winnings:
        notes.append(f"{money(uncovered_winnings)} of winnings not paid by the bank")
    return notes


def render_settlement(
    console: Console, settlement: Settlement, rules: RuleSet, hands: Iterable[HandEntry]
) -> None:
    """Print a settlement: the dealer's hand, a table per hand, totals and the banker."""
    holes = {entry.id: entry for entry in hands}
    console.print(Text(f"Rules: {rules.name}" + (f" ({rules.title})" if rules.title else "")))
    board = Text("Board:  ")
    board.append_text(cards_text(settlement.board))
    console.print(board)
    dealer = settlement.dealer
    line = Text("Dealer: ")
    line.append(describe(dealer.hand), "bold")
    line.append(" (")
    line.append_text(cards_text(dealer.hand.best_five))
    line.append(") ")
    line.append(
        "qualifies" if dealer.qualifies else "does not qualify",
        "green" if dealer.qualifies else "yellow",
    )
    console.print(line)
    for hand in settlement.hands:
        entry = holes.get(hand.id)
        title = Text(hand.id, "bold")
        if hand.behind is not None:
            title.append(f" (back-line bet behind {hand.behind})")
        elif entry is not None and entry.hole is not None:
            title.append(" ")
            title.append_text(cards_text(entry.hole))
        title.append(f": {describe(hand.hand)}, ")
        title.append(hand.outcome, _OUTCOME_STYLE[hand.outcome])
        if hand.play_multiple:
            title.append(f" (Play {hand.play_multiple}x)")
        console.print(title)
        table = Table(show_footer=True)
        table.add_column("Wager", footer="Total")
        table.add_column("Stake", justify="right")
        table.add_column("Result")
        table.add_column("Net", justify="right", footer=money(hand.net, sign=True))
        notes = []
        for w in hand.wagers:
            table.add_row(
                WAGER_LABEL[w.kind],
                money(w.stake),
                Text(w.result.replace("_", " "), RESULT_STYLE[w.result]),
                money(w.net, sign=True),
            )
            said = wager_notes(w.capped, w.uncovered_stake, w.uncovered_winnings)
            if said:
                notes.append(f"{WAGER_LABEL[w.kind]}: {'; '.join(said)}.")
        console.print(table)
        for note in notes:
            console.print(note, soft_wrap=True)
    total = -settlement.banker_net
    banker = "House" if settlement.banker_kind == "house" else "Player-dealer"
    bank = f" (bank {money(settlement.bank)})" if settlement.bank is not None else ""
    summary = Table.grid(padding=(0, 2))
    summary.add_column()
    summary.add_column(justify="right")
    summary.add_row("Players", money(total, sign=True))
    summary.add_row(f"{banker}{bank}", money(settlement.banker_net, sign=True))
    console.print(Group(summary))
