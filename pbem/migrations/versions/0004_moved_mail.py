"""the players' choice of 'X moved' mails

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 12:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("moved_mail", sa.String(length=16), nullable=False, server_default="each")
        )


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("moved_mail")
