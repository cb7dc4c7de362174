"""The ``uth`` command line (Typer)."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="Ultimate Texas Hold'em: tables, settlement and game math.", no_args_is_help=True
)


@app.command()
def version() -> None:
    """Print the version of uth."""
    from uth import __version__

    typer.echo(__version__)
