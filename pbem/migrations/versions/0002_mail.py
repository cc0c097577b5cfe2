"""mail: inbound messages, outbox sending state, resigned seats

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 01:18:37.190083
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inbound_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(length=512), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("envelope_from", sa.String(length=320), nullable=True),
        sa.Column("envelope_to", sa.JSON(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("outcome", sa.String(length=32), nullable=True),
        sa.Column("detail", sa.Text(), nullable=True),
        sa.Column("seat_id", sa.Integer(), nullable=True),
        sa.Column("submission_id", sa.Integer(), nullable=True),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["seat_id"],
            ["seats.id"],
            name=op.f("fk_inbound_messages_seat_id_seats"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["submission_id"],
            ["submissions.id"],
            name=op.f("fk_inbound_messages_submission_id_submissions"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inbound_messages")),
        sa.UniqueConstraint("message_id", name=op.f("uq_inbound_messages_message_id")),
    )
    with op.batch_alter_table("inbound_messages", schema=None) as batch_op:
        batch_op.create_index(
            "ix_inbound_messages_status_received", ["status", "received_at"], unique=False
        )

    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("to_address", sa.String(length=320), nullable=True))
        batch_op.add_column(sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("last_error", sa.Text(), nullable=True))
        batch_op.alter_column("recipient_id", existing_type=sa.INTEGER(), nullable=True)

    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("resigned_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("resigned_at")

    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.alter_column("recipient_id", existing_type=sa.INTEGER(), nullable=False)
        batch_op.drop_column("last_error")
        batch_op.drop_column("claimed_until")
        batch_op.drop_column("attempts")
        batch_op.drop_column("to_address")

    with op.batch_alter_table("inbound_messages", schema=None) as batch_op:
        batch_op.drop_index("ix_inbound_messages_status_received")

    op.drop_table("inbound_messages")
