"""receiver_hosts and receiver_slots; webhook_deliveries.answer dropped

Notices on a road of their own: requests to one host are bounded in number
(receiver_slots) and a host that keeps timing out is backed off for every
sender (receiver_hosts). A receiver's answer is no longer kept: its owner
could read back through it what pbem reaches.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-07 18:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "receiver_hosts",
        sa.Column("host", sa.String(255), primary_key=True),
        sa.Column("timeouts", sa.Integer(), nullable=False),
        sa.Column("backed_off_until", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "receiver_slots",
        sa.Column("host", sa.String(255), primary_key=True),
        sa.Column("slot", sa.Integer(), primary_key=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
    )
    with op.batch_alter_table("webhook_deliveries") as batch:
        batch.drop_column("answer")


def downgrade() -> None:
    with op.batch_alter_table("webhook_deliveries") as batch:
        batch.add_column(sa.Column("answer", sa.Text(), nullable=True))
    op.drop_table("receiver_slots")
    op.drop_table("receiver_hosts")
