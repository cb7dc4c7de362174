"""Ledger entries keyed by hand: a player may have two hands in one round.

At a card-room table a seated player may also bet behind another seat (issue 13,
item 4): their back-line hand is a second hand in the same round, with its own
Ante, Blind, Play and payouts. ``ledger_entries.hand`` holds the engine hand id of
such a second hand (``"7@3"``: player 7 behind seat 3) and is NULL for a player's
own hand, so a round's entries are known by (round, player, hand, entry kind,
wager) and the two hands' entries never collide. Entries written before this
revision are all of players' own hands: they keep NULL.

The downgrade drops the column. The entries stay (every amount and balance is
kept); a second hand's entries then read as the player's own, so a round in which
a player had two hands no longer replays entry by entry under the older revision
(its totals per player still add up).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``ledger_entries.hand`` (NULL for existing entries: players' own hands)."""
    with op.batch_alter_table("ledger_entries") as batch:
        batch.add_column(sa.Column("hand", sa.String(32), nullable=True))


def downgrade() -> None:
    """Drop ``ledger_entries.hand``."""
    with op.batch_alter_table("ledger_entries") as batch:
        batch.drop_column("hand")
