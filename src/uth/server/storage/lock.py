"""One server per database: an exclusive lock held for the life of the process.

At start-up a server voids every round left open (seed 004: a round that cannot
be completed is cancelled and refunded). That is right after a crash and wrong
while another server is still dealing those rounds, so a server takes this lock
before it recovers anything, and a second one refuses to start. The lock goes
with the process, a killed one included: a PostgreSQL advisory lock lives on the
server's own connection; SQLite uses ``flock`` on a ``.lock`` file beside the
database.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import text

from uth.errors import UthError
from uth.server.storage.db import make_engine, normalize_url
from uth.server.storage.errors import ServerLockedError

#: The advisory-lock key of uth servers on PostgreSQL ("uth" in ASCII).
_PG_KEY = 0x757468


def acquire_server_lock(url: str) -> Callable[[], None]:
    """Take the database's server lock; returns the function that releases it.

    Raises:
        ServerLockedError: another process holds the lock.
    """
    parsed = normalize_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if not database or database == ":memory:":
            return lambda: None
        return _flock(Path(database).with_name(Path(database).name + ".lock"), url)
    engine = make_engine(parsed)
    conn = engine.connect()
    if not conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": _PG_KEY}).scalar():
        conn.close()
        engine.dispose()
        raise ServerLockedError(_busy(url), field="database_url")
    conn.commit()

    def release() -> None:
        conn.close()
        engine.dispose()

    return release


def _flock(path: Path, url: str) -> Callable[[], None]:
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise UthError(
            f"database_url: cannot use the database: {path}: {exc.strerror}", field="database_url"
        ) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise ServerLockedError(_busy(url), field="database_url") from None
    return lambda: os.close(fd)


def _busy(url: str) -> str:
    shown = normalize_url(url).render_as_string(hide_password=True)
    return f"database_url: another uth server is running on {shown}; stop it first"
