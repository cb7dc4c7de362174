"""One server per database: the lock a server holds while it runs. The lock is per
database (per schema on PostgreSQL) and per purpose, so that nothing else running
on the same PostgreSQL server (another test run, a ``uth serve``) collides with it.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from conftest import pg_conninfo
from uth.server.storage import ServerLockedError, acquire_server_lock
from uth.server.storage.lock import advisory_key


def test_a_second_server_on_the_same_database_is_refused(store_url: str) -> None:
    release = acquire_server_lock(store_url)
    try:
        with pytest.raises(ServerLockedError, match="another uth server is running on"):
            acquire_server_lock(store_url)
    finally:
        release()
    # Once released, the next server may start.
    acquire_server_lock(store_url)()


def test_an_in_memory_database_needs_no_lock() -> None:
    first = acquire_server_lock("sqlite://")
    second = acquire_server_lock("sqlite://")
    first()
    second()


def test_the_key_is_per_purpose_database_and_schema() -> None:
    assert advisory_key("server", "test", "public") == 7951227882125867273
    assert advisory_key("server", "test", "t_1") == -3683648505284696344
    assert advisory_key("migrate", "test", "public") == -3082590980606876695
    keys = {advisory_key(p, d, s) for p in ("server", "x") for d in ("a", "b") for s in ("c", "d")}
    assert len(keys) == 8


def test_a_lock_for_another_purpose_does_not_collide(store_url: str) -> None:
    release = acquire_server_lock(store_url)
    try:
        other = acquire_server_lock(store_url, purpose="maintenance")
        try:
            with pytest.raises(ServerLockedError):
                acquire_server_lock(store_url, purpose="maintenance")
        finally:
            other()
    finally:
        release()


def test_the_lock_of_another_database_does_not_collide(store_url: str, tmp_path: Path) -> None:
    """A server on another database (another schema of the same PostgreSQL database,
    as two test runs or a test run beside ``uth serve`` would use) does not hold
    this one's lock.
    """
    if store_url.startswith("sqlite"):
        other_url = f"sqlite:///{tmp_path / 'other.db'}"
        other_release = acquire_server_lock(other_url)
        try:
            acquire_server_lock(store_url)()
        finally:
            other_release()
        return
    base, _, _ = store_url.partition("?")
    schema = f"t_{uuid.uuid4().hex}"
    with psycopg.connect(pg_conninfo(base), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        # "uth serve" on the same database: its default schema, and another one.
        for other_url in (base, f"{base}?options=-csearch_path%3D{schema}"):
            other_release = acquire_server_lock(other_url)
            try:
                mine = acquire_server_lock(store_url)
                mine()
            finally:
                other_release()
    finally:
        with psycopg.connect(pg_conninfo(base), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
