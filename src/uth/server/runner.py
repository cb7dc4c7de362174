"""Running the server: JSON log lines and uvicorn, for ``uth serve`` and ``python -m uth.server``."""

from __future__ import annotations

import gc
import json
import logging
import socket
import sys
from datetime import UTC, datetime

from uth.errors import UthError
from uth.server.config import Settings


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


def configure_logging(level: str) -> None:
    """Send every log record to stderr as a JSON line."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


def redact(url: str) -> str:
    """A database URL without its password, for logs."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        return f"{scheme}://{creds.split(':', 1)[0]}@{host}"
    return url


def _check_port(host: str, port: int) -> None:
    """Refuse at once when the address cannot be listened on (taken, or no such
    host), before the database is touched.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise UthError(f"port: cannot listen on {host}:{port}: {reason}", field="port") from None


def serve(settings: Settings) -> None:
    """Build the app and run it with uvicorn until interrupted.

    The process holds the database's server lock while it runs, so that a second
    server on the same database refuses to start instead of voiding this one's
    rounds (see :mod:`uth.server.storage.lock`).

    Raises:
        UthError: the table configuration is invalid, or another server holds the
            database (before anything listens or any round is touched).
    """
    import uvicorn

    from uth.server.app import create_app
    from uth.server.storage import acquire_server_lock

    _check_port(settings.host, settings.port)
    app = create_app(settings)
    release = acquire_server_lock(settings.database_url)
    configure_logging(settings.log_level)
    logging.getLogger("uth.server").info(
        "serving on http://%s:%s (database %s)",
        settings.host,
        settings.port,
        redact(settings.database_url),
    )
    # A table of a thousand players: compressing every message per connection
    # costs more CPU than the loopback or LAN bandwidth it saves, and the
    # collector's full passes over long-lived objects paused the loop for 100+ ms
    # (docs/benchmarks.md).
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    try:
        uvicorn.run(
            app,
            host=settings.host,
            port=settings.port,
            log_config=None,
            access_log=False,
            ws_per_message_deflate=False,
            # Frames over 64 KiB are dropped by uvicorn before they are read; the
            # app answers frames over MAX_FRAME_BYTES itself (docs/protocol.md).
            ws_max_size=64 * 1024,
        )
    finally:
        release()


def startup_error(exc: Exception) -> str | None:
    """A one-line message for an error that stops the server from starting, or None
    when the error is not one of those (a bug, to be shown whole).

    Covers bad ``UTH_*`` settings, a bad table file, a second server on the same
    database, and a database that cannot be reached or migrated.
    """
    from pydantic import ValidationError
    from sqlalchemy.exc import SQLAlchemyError

    from uth.errors import UthError

    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        name = "UTH_" + ".".join(str(p) for p in err["loc"]).upper() if err["loc"] else "settings"
        msg = str(err["msg"]).removeprefix("Value error, ")
        if "input" in err and err["loc"]:
            msg += f" (got {err['input']!r})"
        return f"{name}: {msg}"
    if isinstance(exc, UthError):
        return " ".join(str(exc).split())
    if isinstance(exc, SQLAlchemyError):
        first = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        return f"database_url: cannot use the database: {first}"
    return None
