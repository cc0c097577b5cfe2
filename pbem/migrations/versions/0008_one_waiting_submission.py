"""one waiting submission per seat from the pages and the API

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23 16:50:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

WAITING_INTERACTIVE = "status = 'pending' AND channel IN ('api', 'web')"


def upgrade() -> None:
    # A seat that already has several waiting (from before this rule) keeps
    # its oldest waiting; the later ones are refused, as they would be now.
    op.execute(
        sa.text(
            "UPDATE submissions SET status = 'rejected',"
            " reason = 'your previous submission was still being processed'"
            f" WHERE {WAITING_INTERACTIVE} AND id NOT IN"
            f" (SELECT MIN(id) FROM submissions WHERE {WAITING_INTERACTIVE} GROUP BY seat_id)"
        )
    )
    op.create_index(
        "uq_submissions_seat_waiting",
        "submissions",
        ["seat_id"],
        unique=True,
        sqlite_where=sa.text(WAITING_INTERACTIVE),
        postgresql_where=sa.text(WAITING_INTERACTIVE),
    )


def downgrade() -> None:
    op.drop_index("uq_submissions_seat_waiting", table_name="submissions")
