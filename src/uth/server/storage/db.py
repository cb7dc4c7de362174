"""Engines for the live table's database: SQLite (file, WAL) or PostgreSQL (psycopg 3)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url

SQLITE_BUSY_TIMEOUT_MS = 30_000


def normalize_url(url: str | URL) -> URL:
    """The URL with PostgreSQL routed through psycopg 3.

    ``postgresql://`` and ``postgres://`` become ``postgresql+psycopg://``; any
    other URL (``sqlite:///path.db``, an explicit driver) is returned as it is.
    """
    if isinstance(url, str) and url.startswith("postgres://"):
        url = "postgresql://" + url.removeprefix("postgres://")
    parsed = make_url(url)
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_engine(url: str | URL, **kwargs: Any) -> Engine:
    """Create an engine for ``url``.

    SQLite: every connection gets ``journal_mode=WAL``, ``foreign_keys=ON`` and a
    ``busy_timeout``; transactions start with ``BEGIN IMMEDIATE`` so that a
    read-then-write transaction (a balance update) takes the write lock up front
    instead of failing to upgrade it under concurrency.

    PostgreSQL: ``postgresql://`` URLs use psycopg 3; connections are pinged
    before use.

    Extra keyword arguments go to :func:`sqlalchemy.create_engine`.
    """
    parsed = normalize_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(parsed, **kwargs)
        _configure_sqlite(engine)
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    return create_engine(parsed, **kwargs)


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy (the "begin" hook below) own transaction boundaries
        # instead of the sqlite3 module's implicit BEGIN.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")
