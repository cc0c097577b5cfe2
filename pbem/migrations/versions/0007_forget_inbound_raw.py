"""raw inbound mail may be forgotten after PBEM_MAIL_KEEP_DAYS

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 12:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbound_messages", schema=None) as batch_op:
        batch_op.alter_column("raw", existing_type=sa.LargeBinary(), nullable=True)


def downgrade() -> None:
    op.execute(
        sa.text("UPDATE inbound_messages SET raw = :empty WHERE raw IS NULL").bindparams(
            sa.bindparam("empty", b"", type_=sa.LargeBinary())
        )
    )
    with op.batch_alter_table("inbound_messages", schema=None) as batch_op:
        batch_op.alter_column("raw", existing_type=sa.LargeBinary(), nullable=False)
