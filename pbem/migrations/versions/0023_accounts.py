"""users.is_admin, suspended_at and deleted_at; chat_messages.removed_at

Accounts people can leave and a server its administrator can keep clean: an
administrator's role, a suspended account, a deleted one kept as a former
player for the records, and a chat line a moderator removed.

Revision ID: 0023
Revises: 0020 (the lead chains it after 0021 and 0022 at merge)
Create Date: 2026-11-27 11:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("is_admin", sa.Boolean(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("chat_messages") as batch:
        batch.add_column(sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_column("removed_at")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("deleted_at")
        batch.drop_column("suspended_at")
        batch.drop_column("is_admin")
