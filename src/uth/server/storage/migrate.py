"""Run the database migrations from code (no ``alembic.ini`` needed).

The Alembic scripts ship inside the package (``uth/server/storage/migrations``),
so these functions work from an installed wheel as well as from a checkout::

    from uth.server.storage.migrate import upgrade
    upgrade("sqlite:///uth.db")
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import inspect

from uth.server.storage.db import make_engine

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
VERSION_TABLE = "alembic_version"


def alembic_config(url: str | None = None) -> Config:
    """An Alembic ``Config`` pointing at the packaged migrations (and at ``url``)."""
    cfg = Config()
    # ConfigParser interpolates '%': escape it in paths and URLs (%3D in options=...).
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    cfg.set_main_option("path_separator", "os")
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    """Migrate the database at ``url`` up to ``revision`` (in one transaction)."""
    _run(url, "upgrade", revision)


def downgrade(url: str, revision: str) -> None:
    """Migrate the database at ``url`` down to ``revision`` (``"base"``: drop everything)."""
    _run(url, "downgrade", revision)


def current_revision(url: str) -> str | None:
    """The revision the database at ``url`` is at, or None when unmigrated."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()


def known_revision(revision: str) -> bool:
    """Whether ``revision`` names one packaged migration (``"head"``, ``"base"``, a
    revision id such as ``"0003"`` or a unique prefix of one), as ``upgrade`` accepts.
    """
    try:
        ScriptDirectory.from_config(alembic_config()).get_revisions(revision)
    except CommandError:
        return False
    return True


def revisions() -> list[str]:
    """The packaged migrations' revision ids, oldest first (``["0001", ...]``)."""
    script = ScriptDirectory.from_config(alembic_config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def head_revision() -> str:
    """The latest revision of the packaged migrations (what ``upgrade`` reaches)."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None  # the package ships its migrations
    return head


def is_empty(url: str) -> bool:
    """Whether the database at ``url`` holds no tables (Alembic's version table aside).

    True for a fresh database and for one downgraded to ``base``.
    """
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            names = set(inspect(conn).get_table_names())
    finally:
        engine.dispose()
    return not (names - {VERSION_TABLE})


def _run(url: str, direction: str, revision: str) -> None:
    cfg = alembic_config(url)
    engine = make_engine(url)
    sqlite = engine.dialect.name == "sqlite"
    try:
        with engine.connect() as conn:
            if sqlite:
                # SQLite's batch migrations copy and drop tables, which foreign keys
                # forbid; the pragma cannot change inside a transaction, so it is
                # set before one begins, and the keys are checked before commit.
                conn.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")  # type: ignore[union-attr]
            with conn.begin():
                cfg.attributes["connection"] = conn
                if direction == "upgrade":
                    command.upgrade(cfg, revision)
                else:
                    command.downgrade(cfg, revision)
                if sqlite:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        raise RuntimeError(f"migration broke foreign keys: {broken[:5]}")
    finally:
        engine.dispose()
