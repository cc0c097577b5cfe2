"""list indexes: a user's games and the open seats, found without scanning

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-24 07:00:00

"My games", the open games and profiles look a user's games up by seat
(user, game) and by organiser, and open games by their open seats; each
was a scan of every game or seat.
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

OPEN_SEAT = "user_id IS NULL AND bot IS NULL"


def upgrade() -> None:
    op.create_index("ix_games_created_by_id", "games", ["created_by_id"], unique=False)
    op.create_index("ix_seats_user_id_game_id", "seats", ["user_id", "game_id"], unique=False)
    op.drop_index("ix_seats_user_id", table_name="seats")
    op.create_index(
        "ix_seats_open",
        "seats",
        ["game_id"],
        unique=False,
        sqlite_where=sa.text(OPEN_SEAT),
        postgresql_where=sa.text(OPEN_SEAT),
    )


def downgrade() -> None:
    op.drop_index("ix_seats_open", table_name="seats")
    op.create_index("ix_seats_user_id", "seats", ["user_id"], unique=False)
    op.drop_index("ix_seats_user_id_game_id", table_name="seats")
    op.drop_index("ix_games_created_by_id", table_name="games")
