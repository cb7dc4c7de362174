"""Stored round records: each round keeps what it takes to replay it.

``rounds.record`` holds the round's record as canonical JSON text
(:mod:`uth.engine.history`: the full rule set, the deck order, the ordered actions
with who and when, and the result) and ``rounds.rules_fingerprint`` the SHA-256
fingerprint of its rule set (64 hex digits), so rounds of one rule set can be found
without reading the records. Rounds stored before this revision have neither (NULL):
``uth replay`` reports them as not replayable. The downgrade drops both columns
(the records are lost; everything else of the rounds stays).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``rounds.record`` and ``rounds.rules_fingerprint`` (NULL for existing rounds)."""
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("record", sa.Text(), nullable=True))
        batch.add_column(sa.Column("rules_fingerprint", sa.String(64), nullable=True))
        batch.create_index(op.f("ix_rounds_rules_fingerprint"), ["rules_fingerprint"])


def downgrade() -> None:
    """Drop the round records and their fingerprints."""
    with op.batch_alter_table("rounds") as batch:
        batch.drop_index(op.f("ix_rounds_rules_fingerprint"))
        batch.drop_column("rules_fingerprint")
        batch.drop_column("record")
