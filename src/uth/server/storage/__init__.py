"""The live table's storage: SQLAlchemy models, Alembic migrations and ``SqlStore``.

``SqlStore(engine)`` implements :class:`uth.server.ports.Store` on SQLite or
PostgreSQL; :func:`make_engine` builds the engine and
:func:`uth.server.storage.migrate.upgrade` creates or updates the schema.
"""

from __future__ import annotations

from uth.server.storage.db import make_engine, normalize_url
from uth.server.storage.errors import DuplicateError, RoundNotOpenError, ServerLockedError
from uth.server.storage.lock import acquire_server_lock
from uth.server.storage.migrate import current_revision, downgrade, is_empty, upgrade
from uth.server.storage.store import SqlStore, hash_token, name_key

__all__ = [
    "DuplicateError",
    "RoundNotOpenError",
    "ServerLockedError",
    "SqlStore",
    "acquire_server_lock",
    "current_revision",
    "downgrade",
    "hash_token",
    "is_empty",
    "make_engine",
    "name_key",
    "normalize_url",
    "upgrade",
]
