"""game_events.phrase: what happened, as a template and parameters

So a game's history and its mails say it in each reader's language; `text`
keeps the English, and events from before stay English only.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-24 13:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_events") as batch:
        batch.add_column(sa.Column("phrase", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_events") as batch:
        batch.drop_column("phrase")
