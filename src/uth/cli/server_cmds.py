"""``uth serve`` and ``uth db upgrade``: run the live table server and migrate its database."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

#: The settings ``uth serve`` takes as flags: an error in one given as a flag names
#: the flag, not its ``UTH_*`` variable.
_FLAGS = {
    "host": "--host",
    "port": "--port",
    "tables_file": "--tables",
    "database_url": "--database-url",
}

db_app = typer.Typer(help="Database migrations (Alembic).", no_args_is_help=True)


def serve_command(
    host: Annotated[str | None, typer.Option(help="Listen address (UTH_HOST).")] = None,
    port: Annotated[int | None, typer.Option(help="Listen port (UTH_PORT).")] = None,
    tables: Annotated[
        Path | None, typer.Option(help="Table configuration TOML (UTH_TABLES_FILE).")
    ] = None,
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy URL (UTH_DATABASE_URL).")
    ] = None,
) -> None:
    """Run the live table server (FastAPI + uvicorn) until interrupted."""
    from uth.server.config import Settings
    from uth.server.runner import serve, startup_error

    overrides = {
        k: v
        for k, v in {
            "host": host,
            "port": port,
            "tables_file": tables,
            "database_url": database_url,
        }.items()
        if v is not None
    }
    try:
        serve(Settings(**overrides))  # type: ignore[arg-type]
    except Exception as exc:
        message = startup_error(exc)
        if message is None:
            raise
        for name, flag in _FLAGS.items():
            if name in overrides:
                message = message.replace(f"UTH_{name.upper()}:", f"{flag}:", 1)
        typer.echo(f"error: {message}", err=True)
        raise typer.Exit(2) from None


@db_app.command("upgrade")
def db_upgrade(
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy URL (UTH_DATABASE_URL).")
    ] = None,
    revision: Annotated[str, typer.Option(help="Target revision.")] = "head",
) -> None:
    """Create or update the database schema to the latest migration."""
    from uth.server.config import Settings
    from uth.server.runner import redact, startup_error
    from uth.server.storage import current_revision, upgrade
    from uth.server.storage.migrate import known_revision, revisions

    if not known_revision(revision):
        known = ", ".join([*revisions(), "head"])
        typer.echo(f"error: --revision: no migration {revision!r} (known: {known})", err=True)
        raise typer.Exit(2)
    try:
        url = database_url or Settings().database_url
        upgrade(url, revision)
        typer.echo(f"database {redact(url)} at revision {current_revision(url)}")
    except Exception as exc:
        message = startup_error(exc)
        if message is None:
            raise
        typer.echo(f"error: {message}", err=True)
        raise typer.Exit(2) from None
