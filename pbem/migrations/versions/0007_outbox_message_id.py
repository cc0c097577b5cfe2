"""the outbox keeps each mail's Message-ID, so a resend carries the same one

Revision ID: 0007
Revises: 0004
Create Date: 2026-11-24 12:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("message_id", sa.String(length=512), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("message_id")
