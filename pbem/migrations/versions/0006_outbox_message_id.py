"""the outbox keeps each mail's Message-ID, so a resend carries the same one

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 12:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("message_id", sa.String(length=512), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("message_id")
