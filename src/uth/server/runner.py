"""Running the server: JSON log lines and uvicorn, for ``uth serve`` and ``python -m uth.server``."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

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


def serve(settings: Settings) -> None:
    """Build the app and run it with uvicorn until interrupted.

    Raises:
        UthError: the table configuration is invalid (before anything listens).
    """
    import uvicorn

    from uth.server.app import create_app

    app = create_app(settings)
    configure_logging(settings.log_level)
    logging.getLogger("uth.server").info(
        "serving on http://%s:%s (database %s)",
        settings.host,
        settings.port,
        redact(settings.database_url),
    )
    uvicorn.run(app, host=settings.host, port=settings.port, log_config=None, access_log=False)
