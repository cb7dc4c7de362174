"""``uth simulate``: Monte Carlo simulation of whole rounds (issue 12).

Plays ``--hands`` rounds of a rule set with a strategy in the numba kernel of
:mod:`uth.analysis.sim` and prints the mean result per Ante with its 95%
confidence interval, the standard deviation, the decision frequencies, each
wager's return and the side bets'; ``--json`` prints the same as JSON. With
``--bankroll``, ``--session-hands`` and ``--sessions`` it plays sessions instead
and prints their spread and the probability of ruin (``--plot FILE.png`` draws
them). On a player-dealer rule set it also reports how often the bank covered
every wager, the share of action returned, and the player-dealer's result.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from uth.analysis.sim.run import SimulationResult, simulate, table
from uth.analysis.sim.sessions import SessionResult, plot_sessions, simulate_sessions
from uth.analysis.sim.strategies import STRATEGY_NAMES, Strategy, optimal_pre_flop, strategy
from uth.errors import UthError
from uth.money import parse_amount
from uth.rules import RuleSet, resolve

#: Exit status when a command-line argument is bad.
EXIT_BAD_ARGUMENT = 2


def _strategy(name: str, rules: RuleSet) -> Strategy:
    if name == "optimal":
        return strategy(name, rules, optimal_pre_flop(rules))
    return strategy(name, rules)


def _pct(x: float) -> str:
    return f"{x:+.4%}"


def _print_result(console: Console, r: SimulationResult, banked: bool) -> None:
    t = RichTable(title=f"{r.rounds:,} rounds of {r.rules_name}, strategy {r.strategy}")
    t.add_column("figure")
    t.add_column("per Ante", justify="right")
    low, high = r.main.ci95
    t.add_row("mean result (Ante+Blind+Play)", f"{r.main.mean:+.5f}")
    t.add_row("95% confidence interval", f"[{low:+.5f}, {high:+.5f}]")
    t.add_row("standard deviation", f"{r.main.std_dev:.4f}")
    for name, value in r.wagers.items():
        t.add_row(f"{name.capitalize()} return", f"{value:+.5f}")
    if r.trips_rtp is not None:
        t.add_row("Trips return to player", f"{r.trips_rtp:.4%}")
    if r.bad_beat_rtp is not None:
        t.add_row("Bad Beat return to player", f"{r.bad_beat_rtp:.4%}")
    console.print(t)
    f = RichTable(title="decisions (share of seated hands)")
    for key in r.frequencies:
        f.add_column(key, justify="right")
    f.add_row(*(f"{v:.4%}" for v in r.frequencies.values()))
    console.print(f)
    if banked:
        b = RichTable(title="player-dealer")
        b.add_column("figure")
        b.add_column("value", justify="right")
        lo, hi = r.banker.ci95
        b.add_row("result per round per Ante", f"{r.banker.mean:+.5f} [{lo:+.5f}, {hi:+.5f}]")
        b.add_row("rounds the bank covered every wager", f"{r.covered_rounds:.4%}")
        b.add_row("share of action returned uncovered", f"{r.returned_share:.4%}")
        console.print(b)
    console.print(
        f"{r.rounds_per_second:,.0f} rounds/s ({r.elapsed_s:.2f} s, {r.workers} worker(s))"
    )


def _print_sessions(console: Console, s: SessionResult) -> None:
    t = RichTable(
        title=f"{s.sessions:,} sessions of {s.session_hands} hands from {s.bankroll:,.2f}"
    )
    t.add_column("figure")
    t.add_column("value", justify="right")
    lo, hi = s.ruin_ci95
    t.add_row("probability of ruin", f"{s.ruin_probability:.4%} [{lo:.4%}, {hi:.4%}]")
    t.add_row("a round needs at most", f"{s.need:,.2f}")
    t.add_row("mean session result", f"{s.mean:+,.2f} [{s.ci95[0]:+,.2f}, {s.ci95[1]:+,.2f}]")
    t.add_row("standard deviation", f"{s.std_dev:,.2f}")
    for key, value in s.percentiles.items():
        t.add_row(f"{key} percentile"[1:], f"{value:+,.2f}")
    console.print(t)


def simulate_command(
    rules: Annotated[str, typer.Option("--rules", help="A preset or a rule-set TOML file.")] = (
        "casino"
    ),
    strategy_name: Annotated[
        str, typer.Option("--strategy", help=f"One of {', '.join(STRATEGY_NAMES)}.")
    ] = "practical",
    hands: Annotated[int, typer.Option("--hands", help="Rounds to play.")] = 1_000_000,
    seed: Annotated[int, typer.Option("--seed", help="Random seed (same seed, same numbers).")] = 1,
    workers: Annotated[int, typer.Option("--workers", help="Threads playing blocks.")] = 1,
    ray_address: Annotated[
        str | None,
        typer.Option("--ray-address", help="Run on a Ray cluster: an address, auto, or local."),
    ] = None,
    seats: Annotated[int, typer.Option("--seats", help="Seated hands at the table.")] = 1,
    behind: Annotated[int, typer.Option("--behind", help="Back-line bets on each seat.")] = 0,
    ante: Annotated[str, typer.Option("--ante", help="Each hand's Ante (= Blind).")] = "1",
    trips: Annotated[str, typer.Option("--trips", help="Each hand's Trips wager.")] = "0",
    bad_beat: Annotated[str, typer.Option("--bad-beat", help="Each hand's Bad Beat.")] = "0",
    bank: Annotated[
        str | None, typer.Option("--bank", help="The player-dealer's bank (default: minimum).")
    ] = None,
    bankroll: Annotated[
        str | None, typer.Option("--bankroll", help="Play sessions from this bankroll.")
    ] = None,
    session_hands: Annotated[int, typer.Option("--session-hands", help="Rounds a session.")] = 200,
    sessions: Annotated[int, typer.Option("--sessions", help="Sessions to play.")] = 10_000,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Draw the sessions into this PNG file.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Simulate rounds (or sessions) of a rule set with a strategy."""
    console = Console()
    try:
        rule_set = resolve(rules)
        strat = _strategy(strategy_name, rule_set)
        amounts = {
            "ante": parse_amount(ante, field="--ante"),
            "trips": parse_amount(trips, field="--trips"),
            "bad_beat": parse_amount(bad_beat, field="--bad-beat"),
        }
        bank_amount: Decimal | None = None
        if bank is not None:
            bank_amount = parse_amount(bank, field="--bank")
        elif rule_set.bank is not None:
            bank_amount = rule_set.bank.min
        tbl = table(rule_set, seats=seats, behind=behind, bank=bank_amount, **amounts)
        money = parse_amount(bankroll, field="--bankroll") if bankroll is not None else None
        if money is not None and ray_address is not None:
            raise ValueError("--ray-address: sessions run on this machine; drop --ray-address")
    except (UthError, ValueError) as exc:
        _fail(str(exc), as_json)
        raise typer.Exit(EXIT_BAD_ARGUMENT) from None
    total = hands if money is None else sessions * session_hands
    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,} rounds"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=as_json,
        transient=True,
    ) as bar:
        task = bar.add_task("rounds", total=total)

        def advance(n: int) -> None:
            bar.advance(task, n)

        try:
            if money is None:
                result = simulate(
                    rule_set, strat, hands, seed, tbl=tbl, workers=workers,
                    ray_address=ray_address, progress=advance,
                )  # fmt: skip
            else:
                sess = simulate_sessions(
                    rule_set, strat, seed, bankroll=money, session_hands=session_hands,
                    sessions=sessions, tbl=tbl, workers=workers, progress=advance,
                )  # fmt: skip
        except (UthError, ValueError) as exc:
            _fail(str(exc), as_json)
            raise typer.Exit(EXIT_BAD_ARGUMENT) from None
    if money is not None:
        if plot is not None:
            plot_sessions(sess, plot, f"{rule_set.name}, strategy {strat.name}, seed {seed}")
        if as_json:
            typer.echo(json.dumps(sess.to_json(), indent=2))
        else:
            _print_sessions(console, sess)
            if plot is not None:
                console.print(f"figure: {plot}")
        return
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2))
    else:
        _print_result(console, result, rule_set.banking == "player_dealer")


#: The simulator's field names in its error messages, as this command's flags name them.
_FLAGS = {
    "rounds": "--hands",
    "seats": "--seats",
    "workers": "--workers",
    "player_dealer.bank": "--bank",
    "sessions": "--sessions/--session-hands",
}


def _fail(message: str, as_json: bool) -> None:
    """Print a one-line error (JSON on stdout with ``--json``), the field named as
    its flag (``rounds: ...`` as ``--hands: ...``).
    """
    field, sep, rest = message.partition(": ")
    message = f"{_FLAGS.get(field, field)}{sep}{rest}"
    if as_json:
        typer.echo(json.dumps({"error": message}))
    else:
        typer.echo(f"error: {message}", err=True)
