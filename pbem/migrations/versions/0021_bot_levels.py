"""Bot levels: the stand-in level of games and leagues, and bots thinking on a queue of their own

games.stand_in and leagues.stand_in name the level of the bot that takes a
seat over (a timeout under on_timeout bot, a resignation, a withdrawal, a
seat handed to a bot); seats.bot_asked_at says since when a bot is asked to
think for the seat, so a think whose task message was lost is asked again.
Seats of the old "kinds" bot (a random kind of move first) get the `easy`
level, the nearest of the levels to what their players chose; a downgrade
leaves them `easy` (the old names know no levels).

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-27 11:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

DEFAULT_LEVEL = "medium"
LEVEL_OF_KINDS = "easy"


def upgrade() -> None:
    for table in ("games", "leagues"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(
                sa.Column(
                    "stand_in", sa.String(length=20), nullable=False, server_default=DEFAULT_LEVEL
                )
            )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot_asked_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_seats_bot_asked_at", ["bot_asked_at"], unique=False)
    seats = sa.table("seats", sa.column("bot", sa.String()))
    op.execute(seats.update().where(seats.c.bot == "kinds").values(bot=LEVEL_OF_KINDS))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_bot_asked_at")
        batch.drop_column("bot_asked_at")
    for table in ("leagues", "games"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("stand_in")
