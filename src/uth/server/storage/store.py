"""``SqlStore``: the :class:`uth.server.ports.Ledger` and
:class:`uth.server.ports.RoundLog` ports on SQLAlchemy.

Every public method runs in one transaction (``with Session.begin()``). Balance
changes lock the player rows first (``SELECT ... FOR UPDATE`` on PostgreSQL;
SQLite transactions take the database write lock up front, see
:func:`uth.server.storage.db.make_engine`), always in the same order (the round
row, then the players by id) so that concurrent calls cannot deadlock. Every
change of a balance appends a ledger entry carrying the new balance, so a
player's balance always equals the sum of their ledger entries. Every amount is
at most :data:`~uth.server.ports.MAX_AMOUNT` and every balance at most
:data:`~uth.server.ports.MAX_BALANCE` (checked here, naming the field, and by the
database's ``CHECK`` constraints).
"""

from __future__ import annotations

from sqlalchemy import Engine
from sqlalchemy.orm import sessionmaker

from uth.server.ports import Store
from uth.server.storage._helpers import (
    CENT,
    MAX_NAME_KEY_LENGTH,
    MAX_NAME_LENGTH,
    ZERO,
    hash_token,
    name_key,
)
from uth.server.storage.ledger import SqlLedger
from uth.server.storage.round_log import SqlRoundLog

__all__ = [
    "CENT",
    "MAX_NAME_KEY_LENGTH",
    "MAX_NAME_LENGTH",
    "ZERO",
    "SqlStore",
    "hash_token",
    "name_key",
]


class SqlStore(SqlLedger, SqlRoundLog):
    """Accounts, ledger, rounds, history and audit log in a SQL database.

    The schema must exist (:func:`uth.server.storage.migrate.upgrade`).
    """

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @property
    def engine(self) -> Engine:
        """The engine the store runs on."""
        return self._engine


def _conforms(store: SqlStore) -> Store:
    """Let mypy (strict, run over the package) check that SqlStore is a Ledger and a RoundLog."""
    return store
