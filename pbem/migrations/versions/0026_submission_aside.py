"""submission_aside

The lines of a mailed turn set aside as no move (a greeting, a signature)
are kept with the submission until it is judged, and named in the answer
to the turn instead of a mail of their own.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07 22:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("aside", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("aside")
