"""submissions.author_id and sent_for_id: who sent a turn, and for whom

A seat can change hands between a turn being stored and being judged (an
organiser's replacement, a league place given to another player); the worker
refuses a turn sent for a holder the seat no longer has. Waiting turns from
before are taken as their seat's player's own.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-27 08:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

PLAYERS = ("api", "web", "mail")


def upgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("author_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("sent_for_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_submissions_author_id_users", "users", ["author_id"], ["id"], ondelete="SET NULL"
        )
        batch.create_foreign_key(
            "fk_submissions_sent_for_id_users",
            "users",
            ["sent_for_id"],
            ["id"],
            ondelete="SET NULL",
        )
    submissions = sa.table(
        "submissions",
        sa.column("seat_id", sa.Integer()),
        sa.column("channel", sa.String()),
        sa.column("status", sa.String()),
        sa.column("author_id", sa.Integer()),
        sa.column("sent_for_id", sa.Integer()),
    )
    seats = sa.table("seats", sa.column("id", sa.Integer()), sa.column("user_id", sa.Integer()))
    holder = sa.select(seats.c.user_id).where(seats.c.id == submissions.c.seat_id).scalar_subquery()
    waiting = submissions.c.status == "pending"
    op.execute(
        submissions.update()
        .where(waiting, submissions.c.channel.in_(PLAYERS))
        .values(author_id=holder, sent_for_id=holder)
    )
    op.execute(
        submissions.update()
        .where(waiting, submissions.c.channel == "clock")
        .values(sent_for_id=holder)
    )


def downgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.drop_constraint("fk_submissions_sent_for_id_users", type_="foreignkey")
        batch.drop_constraint("fk_submissions_author_id_users", type_="foreignkey")
        batch.drop_column("sent_for_id")
        batch.drop_column("author_id")
