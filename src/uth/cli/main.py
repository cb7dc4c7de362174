"""The ``uth`` command line (Typer).

Commands:
    ``uth eval CARD...``: the best five-card hand of 5 to 7 cards.
    ``uth rules list`` / ``uth rules show PRESET|FILE``: the rule sets.
    ``uth settle [FILE]``: settle a finished deal given as JSON (the JSON
    contract is documented in :mod:`uth.cli.settle_io`).
    ``uth advise``: the exact EV of each legal action at a decision
    (:mod:`uth.cli.advise`).
    ``uth replay GAME_NUMBER`` / ``--all``: re-run stored rounds and confirm their
    result and ledger entries (:mod:`uth.cli.replay`).

Errors are one line, never a traceback: ``error: <field>: <what>, got <value>``
on stderr, or ``{"error": "..."}`` on stdout with ``--json``. Exit status: 0 on
success; 1 when a deal given to ``settle`` (or one line of a batch) is bad; 2
when a command-line argument is bad (cards for ``eval``, a rule set for
``rules show``, an option value Typer refuses: :mod:`uth.cli.usage`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from uth.cards import parse_cards
from uth.cli import settle_io, views
from uth.cli.advise import advise_command
from uth.cli.analyze import analyze_command
from uth.cli.play import play_command
from uth.cli.replay import replay_command
from uth.cli.server_cmds import db_app, serve_command
from uth.cli.simulate import simulate_command
from uth.cli.usage import EXIT_BAD_ARGUMENT, Commands
from uth.errors import InvalidDealError, UthError
from uth.evaluator import evaluate
from uth.rules import PRESET_NAMES, preset, resolve

app = typer.Typer(
    cls=Commands,
    help="Ultimate Texas Hold'em: tables, settlement and game math.",
    no_args_is_help=True,
)
rules_app = typer.Typer(
    help="Show the rule sets: presets and rule-set files.", no_args_is_help=True
)
app.add_typer(rules_app, name="rules")
app.add_typer(db_app, name="db")
app.command("serve")(serve_command)
app.command("play")(play_command)
app.command("advise")(advise_command)
app.command("analyze")(analyze_command)
app.command("simulate")(simulate_command)
app.command("replay")(replay_command)

#: Exit status when a deal given to ``settle`` is bad.
EXIT_BAD_DEAL = 1

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


def _fail(exc: UthError, *, as_json: bool, code: int) -> typer.Exit:
    """Print a one-line error (JSON on stdout with ``--json``) and return the Exit to raise."""
    if as_json:
        typer.echo(settle_io.dumps(settle_io.error_to_json(exc)))
    else:
        typer.echo(f"error: {settle_io.error_message(exc)}", err=True)
    return typer.Exit(code)


def _print_json(obj: Any) -> None:
    typer.echo(json.dumps(obj, indent=2, ensure_ascii=False))


@app.command()
def version() -> None:
    """Print the version of uth."""
    from uth import __version__

    typer.echo(__version__)


@app.command("eval")
def eval_command(
    cards: Annotated[
        list[str] | None,
        typer.Argument(
            help="5 to 7 cards such as As Kd 7c (also 'As,Kd,7c' or 'AsKd7c').",
            metavar="CARD",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Evaluate the best five-card hand of 5 to 7 cards.

    Example: uth eval As Ks Qs Js Ts 2c 3d
    """
    try:
        hand = evaluate(parse_cards(" ".join(cards or []), field="cards"))
    except UthError as exc:
        raise _fail(exc, as_json=as_json, code=EXIT_BAD_ARGUMENT) from None
    if as_json:
        typer.echo(
            json.dumps(
                {"category": hand.category.key, "best_five": [str(c) for c in hand.best_five]}
            )
        )
        return
    views.render_hand(Console(), hand)


@rules_app.command("show")
def rules_show(
    name: Annotated[
        str,
        typer.Argument(
            help="A preset (casino, california, california-bad-beat, live) or a TOML file.",
            metavar="PRESET|FILE",
        ),
    ],
    as_json: JsonOption = False,
) -> None:
    """Show a rule set: options, limits, pay tables and notes."""
    try:
        rules = resolve(name)
    except UthError as exc:
        raise _fail(exc, as_json=as_json, code=EXIT_BAD_ARGUMENT) from None
    if as_json:
        _print_json(rules.model_dump(mode="json"))
        return
    views.render_rules(Console(), rules)


@rules_app.command("list")
def rules_list(as_json: JsonOption = False) -> None:
    """List the preset rule sets with their titles and seeds."""
    presets = [preset(name) for name in PRESET_NAMES]
    if as_json:
        _print_json(
            [
                {"name": r.name, "title": r.title, "seed": r.seed, "banking": r.banking}
                for r in presets
            ]
        )
        return
    views.render_rules_list(Console(), presets)


def _read_input(file: str | None) -> str:
    """The text of FILE, or of stdin when FILE is omitted or ``-``."""
    try:
        if file is None or file == "-":
            stream = sys.stdin
            data = stream.buffer.read() if hasattr(stream, "buffer") else stream.read()
            source = "stdin"
        else:
            data = Path(file).read_bytes()
            source = file
    except OSError as exc:
        raise InvalidDealError(f"{file}: cannot read: {exc.strerror}", field="file") from None
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidDealError(f"{source}: not UTF-8 text", field="input") from None


@app.command("settle")
def settle_command(
    file: Annotated[
        str | None,
        typer.Argument(
            help="A JSON deal, or JSON Lines (one deal per line); stdin when omitted or '-'.",
            metavar="FILE",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOption = False,
    schema: Annotated[
        bool,
        typer.Option(
            "--schema", help="Print the contract's JSON Schema (input and output) and exit."
        ),
    ] = False,
) -> None:
    """Settle a finished deal given as JSON, or a batch of deals as JSON Lines.

    Input: {"rules": "casino", "board": [5 cards], "dealer": [2 cards],
    "hands": [{"id": "seat1", "hole": [2 cards], "wagers": {"ante": 10,
    "blind": 10, "trips": 5}, "play": 4}]}, plus "player_dealer": {"bank": 500}
    with a player-dealer rule set. A batch always prints JSON Lines, one result
    (or {"error": ...}) per input line; exit status 1 if any deal is bad.
    --schema prints the JSON Schema of the contract (docs/settle.schema.json).
    """
    if schema:
        typer.echo(settle_io.contract_schema_text(), nl=False)
        return
    try:
        parsed = settle_io.parse_input(_read_input(file))
    except UthError as exc:
        raise _fail(exc, as_json=as_json, code=EXIT_BAD_DEAL) from None
    if parsed.batch:
        failed = False
        for item in parsed.items:
            result = settle_io.settle_json(item)
            failed = failed or "error" in result
            typer.echo(settle_io.dumps(result))
        if failed:
            raise typer.Exit(EXIT_BAD_DEAL)
        return
    try:
        deal = settle_io.deal_from_json(parsed.items[0])
        settlement = settle_io.settle_deal(deal)
    except UthError as exc:
        raise _fail(exc, as_json=as_json, code=EXIT_BAD_DEAL) from None
    if as_json:
        typer.echo(settle_io.dumps(settle_io.settlement_to_json(settlement)))
        return
    views.render_settlement(Console(), settlement, deal.rules, deal.hands)
