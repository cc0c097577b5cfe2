"""sign-in links and invitations

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 12:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("signed_in_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("invited_email", sa.String(length=320), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("invited_email")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("signed_in_at")
