"""One server per database: an exclusive lock held for the life of the process.

At start-up a server voids every round left open (seed 004: a round that cannot
be completed is cancelled and refunded). That is right after a crash and wrong
while another server is still dealing those rounds, so a server takes this lock
before it recovers anything, and a second one refuses to start. The lock goes
with the process, a killed one included: a PostgreSQL advisory lock lives on the
server's own connection; SQLite uses ``flock`` on a lock file beside the
database (``uth.db.server.lock``).

The lock belongs to one database and one purpose: on PostgreSQL its key is
derived from the purpose, the database name and the schema the tables live in
(:func:`advisory_key`), so servers (or test runs) on other databases or schemas
of one PostgreSQL server never collide, nor do locks taken for other purposes.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import text

from uth.errors import UthError
from uth.server.storage.db import make_engine, normalize_url
from uth.server.storage.errors import ServerLockedError

#: The purpose of the lock a running server holds.
SERVER = "server"


def advisory_key(purpose: str, database: str, schema: str) -> int:
    """The PostgreSQL advisory-lock key of ``purpose`` on one database and schema.

    The first 8 bytes of the BLAKE2b digest of ``uth:<purpose>:<database>:<schema>``
    as a signed 64-bit integer (advisory locks take a ``bigint``).
    """
    digest = hashlib.blake2b(f"uth:{purpose}:{database}:{schema}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big", signed=True)


def acquire_server_lock(url: str, purpose: str = SERVER) -> Callable[[], None]:
    """Take the database's lock for ``purpose``; returns the function that releases it.

    Raises:
        ServerLockedError: another process holds the lock.
    """
    parsed = normalize_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if not database or database == ":memory:":
            return lambda: None
        path = Path(database)
        return _flock(path.with_name(f"{path.name}.{purpose}.lock"), url)
    engine = make_engine(parsed)
    conn = engine.connect()
    database, schema = conn.execute(text("SELECT current_database(), current_schema()")).one()
    key = advisory_key(purpose, database, schema or "")
    if not conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}).scalar():
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
