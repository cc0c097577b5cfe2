"""users.language may be unset: pages follow the browser until one is chosen

German was offered but never translated: it becomes "not chosen".

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-24 11:50:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.alter_column("language", existing_type=sa.String(length=16), nullable=True)
    op.execute("UPDATE users SET language = NULL WHERE language NOT IN ('en', 'fr', 'cs')")


def downgrade() -> None:
    op.execute("UPDATE users SET language = 'en' WHERE language IS NULL")
    with op.batch_alter_table("users") as batch:
        batch.alter_column("language", existing_type=sa.String(length=16), nullable=False)
