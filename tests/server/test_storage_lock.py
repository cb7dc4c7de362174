"""One server per database: the lock a server holds while it runs."""

from __future__ import annotations

import pytest

from uth.server.storage import ServerLockedError, acquire_server_lock


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
