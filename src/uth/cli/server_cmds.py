"""``uth serve`` and ``uth db upgrade``: run the live table server and migrate its database."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

db_app = typer.Typer(help="Database migrations (Alembic).", no_args_is_help=True)


class JsonFormatter(logging.Formatter):
    """One JSON object per log line: time, level, logger, message (structured logs)."""

    def format(self, record: logging.LogRecord) -> str:
        """Format a record as a JSON line."""
        out = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out)


def _configure_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


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
    import uvicorn
    from pydantic import ValidationError

    from uth.errors import UthError
    from uth.server.app import create_app
    from uth.server.config import Settings

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
        settings = Settings(**overrides)  # type: ignore[arg-type]
        app = create_app(settings)
    except (ValidationError, UthError) as exc:
        typer.echo(f"error: {_one_line(exc)}", err=True)
        raise typer.Exit(2) from None
    _configure_logging(settings.log_level)
    logging.getLogger("uth.server").info(
        "serving on http://%s:%s (database %s)",
        settings.host,
        settings.port,
        _redact(settings.database_url),
    )
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_config=None,
        access_log=False,
        ws="websockets",
    )


@db_app.command("upgrade")
def db_upgrade(
    database_url: Annotated[
        str | None, typer.Option(help="SQLAlchemy URL (UTH_DATABASE_URL).")
    ] = None,
    revision: Annotated[str, typer.Option(help="Target revision.")] = "head",
) -> None:
    """Create or update the database schema to the latest migration."""
    from uth.server.config import Settings
    from uth.server.storage import current_revision, upgrade

    url = database_url or Settings().database_url
    upgrade(url, revision)
    typer.echo(f"database {_redact(url)} at revision {current_revision(url)}")


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())


def _redact(url: str) -> str:
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}@{host}"
    return url
