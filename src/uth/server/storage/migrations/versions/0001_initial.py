"""Initial schema: players, rounds, ledger_entries, round_players, audit_log.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

from decimal import Decimal

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def _money() -> sa.Numeric[Decimal]:
    return sa.Numeric(14, 2)


def _time() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create the tables."""
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", _time(), nullable=False),
        sa.Column("balance", _money(), nullable=False),
        sa.CheckConstraint("balance >= 0", name=op.f("ck_players_balance_non_negative")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_players_token_hash")),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("started_at", _time(), nullable=False),
        sa.Column("settled_at", _time(), nullable=True),
        sa.Column("void_reason", sa.Text(), nullable=True),
        sa.Column("deck", sa.JSON(), nullable=True),
        sa.Column("board", sa.JSON(), nullable=True),
        sa.Column("dealer", sa.JSON(), nullable=True),
        sa.Column("dealer_category", sa.String(32), nullable=True),
        sa.Column("dealer_qualifies", sa.Boolean(), nullable=True),
        sa.Column("events", sa.JSON(), nullable=True),
        sa.CheckConstraint(
            "status IN ('open', 'settled', 'voided')", name=op.f("ck_rounds_status_known")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rounds")),
        sa.UniqueConstraint("game_number", name=op.f("uq_rounds_game_number")),
    )
    op.create_index(op.f("ix_rounds_status"), "rounds", ["status"])
    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("amount", _money(), nullable=False),
        sa.Column("balance_after", _money(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("wager", sa.String(16), nullable=True),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", _time(), nullable=False),
        sa.CheckConstraint(
            "kind IN ('signup', 'wager', 'payout', 'refund', 'adjustment')",
            name=op.f("ck_ledger_entries_kind_known"),
        ),
        sa.CheckConstraint(
            "balance_after >= 0", name=op.f("ck_ledger_entries_balance_after_non_negative")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_ledger_entries_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["round_id"], ["rounds.id"], name=op.f("fk_ledger_entries_round_id_rounds")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_entries")),
    )
    op.create_index(op.f("ix_ledger_entries_player_id"), "ledger_entries", ["player_id"])
    op.create_index(op.f("ix_ledger_entries_round_id"), "ledger_entries", ["round_id"])
    op.create_table(
        "round_players",
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("hole", sa.JSON(), nullable=False),
        sa.Column("decisions", sa.JSON(), nullable=False),
        sa.Column("wagers", sa.JSON(), nullable=False),
        sa.Column("category", sa.String(32), nullable=False),
        sa.Column("best_five", sa.JSON(), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("balance_before", _money(), nullable=False),
        sa.Column("balance_after", _money(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_round_players_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["round_id"], ["rounds.id"], name=op.f("fk_round_players_round_id_rounds")
        ),
        sa.PrimaryKeyConstraint("round_id", "player_id", name=op.f("pk_round_players")),
    )
    op.create_index(op.f("ix_round_players_player_id"), "round_players", ["player_id"])
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", _time(), nullable=False),
        sa.Column("actor", sa.String(100), nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )


def downgrade() -> None:
    """Drop the tables."""
    op.drop_table("audit_log")
    op.drop_index(op.f("ix_round_players_player_id"), table_name="round_players")
    op.drop_table("round_players")
    op.drop_index(op.f("ix_ledger_entries_round_id"), table_name="ledger_entries")
    op.drop_index(op.f("ix_ledger_entries_player_id"), table_name="ledger_entries")
    op.drop_table("ledger_entries")
    op.drop_index(op.f("ix_rounds_status"), table_name="rounds")
    op.drop_table("rounds")
    op.drop_table("players")
