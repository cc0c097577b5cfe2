"""browser_sessions

A browser's sign-in is a row of its own, named by the secret in its session
and remember cookies: signing out deletes it, so a copy of that browser's
cookies no longer signs anybody in, and signing out everywhere, a
suspension and a deletion delete every one of the account's. The cookies
made before this revision held the user's id: they sign in nobody now, and
everybody signs in once more.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07 19:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "browser_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_browser_sessions_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_browser_sessions")),
        sa.UniqueConstraint("secret_hash", name=op.f("uq_browser_sessions_secret_hash")),
    )
    op.create_index("ix_browser_sessions_user_id", "browser_sessions", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_browser_sessions_user_id", table_name="browser_sessions")
    op.drop_table("browser_sessions")
