"""Alembic environment of the live table's database.

Run by :mod:`uth.server.storage.migrate`, which passes an open connection in
``config.attributes["connection"]``; without one, the engine is built from the
``sqlalchemy.url`` option. Offline mode (``--sql``) renders SQL for that URL.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from uth.server.storage.db import make_engine, normalize_url
from uth.server.storage.models import Base

target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )


def run_migrations_offline() -> None:
    """Render the migrations as SQL for the configured URL."""
    url = context.config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("offline migrations need the sqlalchemy.url option")
    context.configure(
        url=normalize_url(url),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run the migrations on the given connection, or on a new engine."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("online migrations need a connection or the sqlalchemy.url option")
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            _configure(conn)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


# Alembic loads this file as a script; importing it as a module does nothing.
if __name__ != "uth.server.storage.migrations.env":
    if context.is_offline_mode():
        run_migrations_offline()
    else:
        run_migrations_online()
