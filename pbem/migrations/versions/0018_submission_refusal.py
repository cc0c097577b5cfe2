"""submissions.refusal: a refusal's message id, parameters and rule

So a refused move is shown in each reader's language; `reason` keeps the
English text, and rows from before stay English only.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-24 12:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("refusal", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("refusal")
