"""board pictures: each (game, ply, viewer) drawn once and kept for reuse

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-24 07:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "board_pictures",
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("viewer", sa.String(length=16), nullable=False),
        sa.Column("drawing", sa.String(length=32), nullable=False),
        sa.Column("png", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game", "ply", "viewer", "drawing", name="pk_board_pictures"),
    )
    op.create_index("ix_board_pictures_created_at", "board_pictures", ["created_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_board_pictures_created_at", table_name="board_pictures")
    op.drop_table("board_pictures")
