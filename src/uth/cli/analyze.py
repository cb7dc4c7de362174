"""``uth analyze``: the exact return to player and optimal strategy of a rule set.

Prints a Rich progress bar while the analysis runs (none when the result is
already known), then the figures as a table, or the JSON object documented in
:meth:`uth.analysis.AnalysisResult.summary` with ``--json``. Method: docs/math.md.
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from uth.errors import UthError

if TYPE_CHECKING:
    from uth.analysis import AnalysisResult
    from uth.rules import RuleSet


def _pct(x: Fraction | float, digits: int = 3) -> str:
    return f"{float(x) * 100:.{digits}f}%"


def render_analysis(console: Console, result: AnalysisResult, elapsed_s: float) -> None:
    """Print the figures of an analysis as tables."""
    main = Table(
        title=f"Exact analysis: {result.rules_name} ({result.deck}, {result.deals:,} deals)",
        title_justify="left",
    )
    main.add_column("Figure")
    main.add_column("Value", justify="right")
    rows = [
        ("House edge (per Ante)", _pct(result.house_edge, 4)),
        ("Element of risk", _pct(result.element_of_risk, 4)),
        ("Return to player, initial bet (Ante)", _pct(result.rtp_initial_bet, 3)),
        ("Return to player, total bet", _pct(result.rtp_total_bet, 3)),
        ("Average total bet (Antes)", f"{float(result.average_total_bet):.4f}"),
        ("Standard deviation (Antes)", f"{result.std_dev:.4f}"),
        (
            "Win / tie / loss",
            f"{_pct(result.win, 2)} / {_pct(result.tie, 2)} / {_pct(result.loss, 2)}",
        ),
        (
            "Ante / Blind / Play (EV per Ante)",
            f"{float(result.ante):+.5f} / {float(result.blind):+.5f} / {float(result.play):+.5f}",
        ),
    ]
    for name, value in rows:
        main.add_row(name, value)
    console.print(main)
    decisions = Table(title="Decisions (probability per hand)", title_justify="left")
    decisions.add_column("Decision")
    decisions.add_column("Frequency", justify="right")
    for street, label in (("pre_flop", "pre-flop"), ("flop", "flop"), ("river", "river")):
        for multiple, freq in result.frequencies[street].items():
            decisions.add_row(f"raise {multiple}x ({label})", _pct(freq, 3))
    decisions.add_row("fold (river)", _pct(result.fold, 3))
    console.print(decisions)
    side = Table(title="Side bets", title_justify="left")
    side.add_column("Wager")
    side.add_column("Return to player", justify="right")
    side.add_column("Hit frequency", justify="right")
    if result.trips is not None:
        side.add_row("Trips", _pct(result.trips[0], 3), _pct(result.trips[1], 3))
    if result.bad_beat is not None:
        side.add_row("Bad Beat Bonus", _pct(result.bad_beat[0], 3), _pct(result.bad_beat[1], 3))
    if side.row_count:
        console.print(side)
    console.print(f"[dim]{elapsed_s:.1f} s[/dim]")


def analyze_command(
    rules_name: Annotated[
        str,
        typer.Option(
            "--rules",
            help="A preset (casino, california, california-bad-beat, live) or a TOML file.",
            metavar="PRESET|FILE",
        ),
    ] = "casino",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    chart: Annotated[
        Path | None,
        typer.Option("--chart", help="Draw the 13x13 pre-flop strategy chart into this PNG file."),
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Recompute even when the result is known.")
    ] = False,
    threads: Annotated[
        int | None, typer.Option("--threads", min=1, help="CPU threads (default: all cores).")
    ] = None,
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray-address",
            help="Split the work over a Ray cluster ('auto' or an address; needs uth\\[cluster]).",
        ),
    ] = None,
    store: Annotated[
        Path | None,
        typer.Option(
            "--store",
            help="Also write the result file into this directory (the package's data for presets).",
        ),
    ] = None,
) -> None:
    """The exact house edge, return to player and optimal strategy of a rule set."""
    # Imported here: numba and the analysis load only when this command runs.
    from uth.analysis import draw_chart, store_result
    from uth.cli.main import _fail
    from uth.cli.usage import EXIT_BAD_ARGUMENT
    from uth.rules import resolve

    try:
        rules = resolve(rules_name)
    except UthError as exc:
        raise _fail(exc, as_json=as_json, code=EXIT_BAD_ARGUMENT) from None
    started = time.perf_counter()
    try:
        result = _run(rules, as_json, no_cache, threads, ray_address)
    except UthError as exc:
        raise _fail(exc, as_json=as_json, code=EXIT_BAD_ARGUMENT) from None
    elapsed = time.perf_counter() - started
    if store is not None:
        store_result(result, store)
    if chart is not None:
        draw_chart(result, chart)
    if as_json:
        typer.echo(json.dumps(result.summary(elapsed_s=elapsed), indent=2))
    else:
        render_analysis(Console(), result, elapsed)


def _run(
    rules: RuleSet, as_json: bool, no_cache: bool, threads: int | None, ray_address: str | None
) -> AnalysisResult:
    """The stored result, or a new run (with a progress bar unless ``as_json``)."""
    from uth.analysis import cached_result, result_for

    known = None if no_cache else cached_result(rules)
    if known is not None:
        return known
    if as_json:
        return result_for(rules, use_cache=False, threads=threads, ray_address=ray_address)
    with Progress(
        TextColumn("analysing {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("flops"),
        TimeElapsedColumn(),
        transient=True,
    ) as bar:
        task = bar.add_task(rules.name, total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return result_for(
            rules, use_cache=False, threads=threads, progress=progress, ray_address=ray_address
        )
