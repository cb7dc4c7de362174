"""Fixtures of the storage tests: a migrated database on SQLite and on PostgreSQL.

PostgreSQL is expected at ``UTH_TEST_PG_URL`` (default
``postgresql+psycopg://postgres@127.0.0.1:5432/test``); that database is used only
to create this test run's own database (``uth_test_<hex>``, dropped when the run
ends), so that test runs side by side, or a test run beside ``uth serve`` on the
``test`` database, share nothing. Each test gets a fresh schema (``t_<hex>``) of
the run's database, selected through ``search_path`` in the URL and dropped after
the test. When PostgreSQL cannot be reached its parameters are skipped locally and
fail when the ``CI`` environment variable is set.
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
from sqlalchemy.engine import make_url

from uth.server.storage import SqlStore, make_engine, upgrade

PG_URL = os.environ.get("UTH_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def pg_conninfo(url: str = PG_URL) -> str:
    # psycopg wants a libpq URL: drop SQLAlchemy's "+driver".
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


@cache
def _pg_unavailable() -> str | None:
    try:
        with psycopg.connect(pg_conninfo(), connect_timeout=3):
            return None
    except psycopg.Error as exc:
        return f"PostgreSQL not reachable at {PG_URL}: {exc}".strip()


@pytest.fixture(scope="session")
def pg_run_url() -> Iterator[str]:
    """The URL of this test run's own PostgreSQL database, dropped at the end of the run."""
    reason = _pg_unavailable()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI is set: PostgreSQL tests must run)")
        pytest.skip(reason)
    name = f"uth_test_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(pg_conninfo(), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(pg_conninfo(), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database: a SQLite file, or a fresh schema of the run's
    PostgreSQL database.
    """
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'uth.db'}"
        return
    run_url: str = request.getfixturevalue("pg_run_url")
    schema = f"t_{uuid.uuid4().hex}"
    with psycopg.connect(pg_conninfo(run_url), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    sep = "&" if "?" in run_url else "?"
    try:
        yield f"{run_url}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(pg_conninfo(run_url), autocommit=True) as conn:
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
