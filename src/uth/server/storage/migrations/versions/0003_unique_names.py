"""A display name belongs to one account: ``players.name_key``, unique.

``name_key`` is the name as compared (:func:`uth.server.storage.store.name_key`:
NFKC, case-folded). Before this revision every sign-in opened a new account, so
a database may hold several accounts of one name: the oldest (lowest id) keeps
the name, the others keep their display name, balance and history but get no
key (NULL), so the name can no longer sign in to them (their session tokens
still work). Offline (``--sql``) the keys cannot be computed: the rendered SQL
adds the column and constraint and leaves existing accounts without a key.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

from uth.server.storage.store import name_key

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``name_key``, fill it (the oldest account keeps a shared name), make it unique."""
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("name_key", sa.String(400), nullable=True))
    players = sa.table(
        "players",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("name_key", sa.String()),
    )
    conn = op.get_bind()
    seen: set[str] = set()
    rows: list[tuple[int, str]] = []
    if not context.is_offline_mode():
        query = sa.select(players.c.id, players.c.name).order_by(players.c.id)
        rows = [(pid, name) for pid, name in conn.execute(query)]
    for pid, name in rows:
        key = name_key(name)
        if key in seen:
            continue
        seen.add(key)
        conn.execute(players.update().where(players.c.id == pid).values(name_key=key))
    with op.batch_alter_table("players") as batch:
        batch.create_unique_constraint(op.f("uq_players_name_key"), ["name_key"])


def downgrade() -> None:
    """Drop ``name_key`` (names may be shared again)."""
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint(op.f("uq_players_name_key"), type_="unique")
        batch.drop_column("name_key")
