"""Money as integer cents (``BIGINT``) on every database, with its bounds.

``Numeric(14, 2)`` was exact on PostgreSQL but went through binary floating
point on SQLite (the column holds a REAL). Every money column becomes integer
cents, converted exactly (PostgreSQL: ``numeric * 100`` to ``bigint``; SQLite:
the REAL rounded to the nearest cent, exact for every amount up to the maximum),
and the bounds :data:`uth.server.ports.MAX_BALANCE` and
:data:`uth.server.ports.MAX_AMOUNT` become ``CHECK`` constraints. The downgrade
converts back to ``Numeric(14, 2)`` currency units.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

# The bounds in cents, as they were when this revision was written (a migration
# must not change when the application's constants do).
_MAX_BALANCE_CENTS = 99_999_999_999_999
_MAX_AMOUNT_CENTS = 99_999_999_999_999

#: Money columns by table.
_MONEY = {
    "players": ("balance",),
    "ledger_entries": ("amount", "balance_after"),
    "round_players": ("balance_before", "balance_after"),
}

#: CHECK constraints added by this revision: (table, name, condition).
_CHECKS = (
    ("players", "balance_at_most_max", f"balance <= {_MAX_BALANCE_CENTS}"),
    ("ledger_entries", "balance_after_at_most_max", f"balance_after <= {_MAX_BALANCE_CENTS}"),
    (
        "ledger_entries",
        "amount_in_range",
        f"amount BETWEEN -{_MAX_AMOUNT_CENTS} AND {_MAX_AMOUNT_CENTS}",
    ),
)


def upgrade() -> None:
    """Currency units (``Numeric(14, 2)``) to integer cents (``BIGINT``)."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    for table, columns in _MONEY.items():
        if sqlite:
            # Rewrite the values first (a REAL becomes an INTEGER), then the type.
            sets = ", ".join(f"{c} = CAST(ROUND({c} * 100) AS INTEGER)" for c in columns)
            op.execute(f"UPDATE {table} SET {sets}")
        with op.batch_alter_table(table) as batch:
            for column in columns:
                batch.alter_column(
                    column,
                    existing_type=sa.Numeric(14, 2),
                    type_=sa.BigInteger(),
                    existing_nullable=False,
                    postgresql_using=f"({column} * 100)::bigint",
                )
    for table, name, condition in _CHECKS:
        with op.batch_alter_table(table) as batch:
            batch.create_check_constraint(op.f(f"ck_{table}_{name}"), condition)


def downgrade() -> None:
    """Integer cents back to currency units (``Numeric(14, 2)``)."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    for table, name, _ in reversed(_CHECKS):
        with op.batch_alter_table(table) as batch:
            batch.drop_constraint(op.f(f"ck_{table}_{name}"), type_="check")
    for table, columns in _MONEY.items():
        with op.batch_alter_table(table) as batch:
            for column in columns:
                batch.alter_column(
                    column,
                    existing_type=sa.BigInteger(),
                    type_=sa.Numeric(14, 2),
                    existing_nullable=False,
                    postgresql_using=f"({column} / 100.0)::numeric(14, 2)",
                )
        if sqlite:
            sets = ", ".join(f"{c} = {c} / 100.0" for c in columns)
            op.execute(f"UPDATE {table} SET {sets}")
