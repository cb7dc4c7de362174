"""An index of rounds by table and game number.

A card-room table restores its rotation at start from its own kept rounds, newest
first, a page at a time (``RoundLog.table_rounds``: ``WHERE table_id = ... AND
game_number < ... ORDER BY game_number DESC``); without an index that reads every
round of every table. The index on (``table_id``, ``game_number``) serves it. No
data changes; the downgrade drops the index.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``ix_rounds_table_game`` on ``rounds (table_id, game_number)``."""
    op.create_index("ix_rounds_table_game", "rounds", ["table_id", "game_number"])


def downgrade() -> None:
    """Drop ``ix_rounds_table_game``."""
    op.drop_index("ix_rounds_table_game", table_name="rounds")
