"""league digest: the weekday and hour of each player's weekly league mail

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24 04:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("league_digest_day", sa.Integer(), nullable=True, server_default="0")
        )
        batch_op.add_column(
            sa.Column("league_digest_hour", sa.Integer(), nullable=False, server_default="18")
        )
        batch_op.add_column(sa.Column("league_digest_sent_on", sa.Date(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        for column in ("league_digest_sent_on", "league_digest_hour", "league_digest_day"):
            batch_op.drop_column(column)
