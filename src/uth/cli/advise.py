"""``uth advise``: the exact EV of every legal action at one decision.

A thin shell around :func:`uth.analysis.advisor.advise`: it parses the rule set and
the cards, asks the advisor, and prints a table of the actions with the best one
marked, or JSON (``{"actions": {"raise_4x": ev, ...}, "best": "raise_4x"}``). EVs
are in Antes for the whole hand (Ante, Blind and Play; a fold is -2). The table is
also what ``uth play --trainer`` shows beside each decision
(:func:`advice_table`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from uth.analysis.advisor import Advice, action_name, advise
from uth.analysis.trainer import TrainerSession
from uth.cards import Card, parse_cards
from uth.cli.views import cards_text
from uth.engine import Action
from uth.errors import InvalidCardError, UthError
from uth.rules import PRESET_NAMES, RuleSet, resolve

_STREET_WORDS = {"pre_flop": "before the flop", "flop": "on the flop", "river": "at the river"}


def action_label(name: str) -> str:
    """An advisor action name in words: ``raise_4x`` -> ``Play 4x``, ``check`` -> ``Check``."""
    if name.startswith("raise_"):
        return f"Play {name[len('raise_') :]}"
    return name.capitalize()


def ev_text(ev: Fraction) -> str:
    """An EV in Antes with a sign and four decimals: ``+0.1234``, ``-2.0000``."""
    return f"{float(ev):+.4f}"


def advice_table(advice: Advice, *, chosen: str | None = None) -> Table:
    """The actions of ``advice`` with their EV and cost, the best marked.

    Args:
        advice: the advisor's answer.
        chosen: the action taken, marked "you" (``uth play --trainer`` after a decision).

    """
    table = Table(title_justify="left", box=None, padding=(0, 2, 0, 0))
    table.add_column("Action")
    table.add_column("EV (Antes)", justify="right")
    table.add_column("Cost", justify="right")
    table.add_column("")
    best = advice.best
    for name, ev in advice.actions.items():
        marks = []
        if name == best:
            marks.append("best")
        if name == chosen:
            marks.append("you")
        style = "bold green" if name == best else ""
        cost = advice.cost(name)
        table.add_row(
            Text(action_label(name), style),
            Text(ev_text(ev), style),
            f"{float(cost):.4f}",
            Text(", ".join(marks), style),
        )
    return table


def advise_command(
    hole: Annotated[
        str,
        typer.Option("--hole", help="Your two hole cards, e.g. 'Ah Kd'.", show_default=False),
    ],
    rules: Annotated[
        str,
        typer.Option(
            "--rules", help=f"A preset ({', '.join(PRESET_NAMES)}) or a rule-set TOML file."
        ),
    ] = "casino",
    flop: Annotated[
        str | None,
        typer.Option(
            "--flop", help="The three flop cards: advice on the flop.", show_default=False
        ),
    ] = None,
    board: Annotated[
        str | None,
        typer.Option(
            "--board", help="All five community cards: advice at the river.", show_default=False
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """The exact EV of each legal action, in Antes (Ante, Blind and Play; fold = -2).

    Without --flop or --board: before the flop (from the exact analysis' table).
    Example: uth advise --rules casino --hole "Ah Kd" --flop "Qs 7d 2c"
    """
    # main.py owns the shared helpers (rule-set loading, one-line errors) and
    # imports this module, so they are imported here, at run time.
    from uth.cli.main import _fail
    from uth.cli.usage import EXIT_BAD_ARGUMENT

    try:
        rule_set = resolve(rules)
        cards = parse_cards(hole, field="hole", count=2)
        seen: tuple[Card, ...] = ()
        if flop is not None and board is not None:
            raise InvalidCardError(
                "board: give either --flop (three cards) or --board (five cards), not both",
                field="board",
            )
        field = "flop" if flop is not None else "board"
        if flop is not None:
            seen = parse_cards(flop, field=field, count=3)
        elif board is not None:
            seen = parse_cards(board, field=field, count=5)
        for card in seen:
            if card in cards:
                raise InvalidCardError(f"{field}: {card} is also a hole card", field=field)
        advice = advise(rule_set, cards, seen)
    except UthError as exc:
        raise _fail(exc, as_json=as_json, code=EXIT_BAD_ARGUMENT) from None
    if as_json:
        typer.echo(json.dumps(advice.to_json()))
        return
    console = Console(highlight=False)
    line = Text("Hole ")
    line.append_text(cards_text(cards))
    if seen:
        line.append(", board ")
        line.append_text(cards_text(seen))
    line.append(f": {_STREET_WORDS[advice.street]}, rule set {rule_set.name}")
    console.print(line)
    console.print(advice_table(advice))
    console.print(
        Text(
            "EV in Antes for the whole hand (Ante, Blind and Play; side bets excluded). "
            "Cost: EV given up against the best action.",
            "dim",
        )
    )


_REVIEW_STREET = {"pre_flop": "Pre-flop", "flop": "Flop", "river": "River"}


class TerminalTrainer:
    """Trainer mode of ``uth play --trainer``: the advice beside each decision, and
    after the showdown each decision's cost and the session total.

    Args:
        console: where to print.
        rules: the table's rule set.

    """

    def __init__(self, console: Console, rules: RuleSet) -> None:
        self.console = console
        self.session = TrainerSession(rules)

    def before(
        self, hole: Sequence[Card], board: Sequence[Card], legal: Sequence[Action]
    ) -> Advice | None:
        """Show the EV of each legal action before the player decides."""
        advice = self.session.advice(hole, board, [action_name(a) for a in legal])
        if advice is None:
            self.console.print(
                Text(
                    f"Trainer: no pre-flop EV table is known for rule set "
                    f"{self.session.rules.name!r}; this decision is not scored.",
                    "dim",
                )
            )
            return None
        self.console.print(Text("Trainer: EV of each option, in Antes", "dim"))
        self.console.print(advice_table(advice))
        return advice

    def after(self, advice: Advice | None, action: Action, *, auto: bool) -> None:
        """Record the decision taken at the spot of ``advice`` (None: not scored)."""
        if advice is not None:
            self.session.record(advice, action_name(action), auto=auto)

    def round_over(self) -> None:
        """Show what each decision of the round cost and the session total."""
        reviews = self.session.end_round()
        table = Table(title="Trainer: your decisions", title_justify="left", show_footer=True)
        table.add_column("Street", footer="Round")
        table.add_column("You")
        table.add_column("Best")
        round_cost = sum((r.cost for r in reviews), Fraction(0))
        table.add_column("Cost (Antes)", justify="right", footer=f"{float(round_cost):.4f}")
        for r in reviews:
            style = "green" if r.cost == 0 else "red"
            table.add_row(
                _REVIEW_STREET[r.street],
                action_label(r.action) + (" (auto)" if r.auto else ""),
                action_label(r.best),
                Text(f"{float(r.cost):.4f}", style),
            )
        self.console.print(table)
        self.console.print(
            f"Trainer: session cost {float(self.session.total):.4f} Antes "
            f"after {self.session.rounds} round{'s' if self.session.rounds != 1 else ''}."
        )


__all__ = ["TerminalTrainer", "action_label", "advice_table", "advise_command", "ev_text"]
