"""Fixtures of the storage tests: a migrated database on SQLite and on PostgreSQL.

PostgreSQL is expected at ``UTH_TEST_PG_URL`` (default
``postgresql+psycopg://postgres@127.0.0.1:5432/test``). Each test gets a fresh
schema (``t_<hex>``) selected through ``search_path`` in the URL, dropped after
the test. When PostgreSQL cannot be reached its parameters are skipped locally
and fail when the ``CI`` environment variable is set.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from uth.server.storage import SqlStore, make_engine, upgrade

PG_URL = os.environ.get("UTH_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _pg_conninfo() -> str:
    # psycopg wants a libpq URL: drop SQLAlchemy's "+driver".
    return PG_URL.replace("postgresql+psycopg://", "postgresql://", 1)


@cache
def _pg_unavailable() -> str | None:
    try:
        with psycopg.connect(_pg_conninfo(), connect_timeout=3):
            return None
    except psycopg.Error as exc:
        return f"PostgreSQL not reachable at {PG_URL}: {exc}".strip()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'uth.db'}"
        return
    reason = _pg_unavailable()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI is set: PostgreSQL tests must run)")
        pytest.skip(reason)
    schema = f"t_{uuid.uuid4().hex}"
    with psycopg.connect(_pg_conninfo(), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    sep = "&" if "?" in PG_URL else "?"
    try:
        yield f"{PG_URL}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(_pg_conninfo(), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture
def store(store_url: str) -> Iterator[SqlStore]:
    """A ``SqlStore`` on a freshly migrated database."""
    upgrade(store_url)
    engine = make_engine(store_url)
    try:
        yield SqlStore(engine)
    finally:
        engine.dispose()
