"""correspondence time: game clocks, seat deadlines, players' quiet hours,
reminders, digest and calendar, vacations and pauses, game events

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24 01:40:00
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("days_per_move", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("bank_days", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.add_column(
            sa.Column("weekends_off", sa.Boolean(), nullable=False, server_default="0")
        )
        batch_op.add_column(
            sa.Column("on_timeout", sa.String(length=8), nullable=False, server_default="bot")
        )
        batch_op.add_column(sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("abandoned_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("asked_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("timeout_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(
            sa.Column("bank_seconds", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.add_column(
            sa.Column("extra_seconds", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.add_column(sa.Column("reminded_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("timed_out_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index("ix_seats_timeout_at", ["timeout_at"], unique=False)
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("quiet_start", sa.String(length=5), nullable=True))
        batch_op.add_column(sa.Column("quiet_end", sa.String(length=5), nullable=True))
        batch_op.add_column(sa.Column("reminder_hours", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("digest_hour", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("digest_sent_on", sa.Date(), nullable=True))
        batch_op.add_column(sa.Column("calendar_token", sa.String(length=40), nullable=True))
    users = sa.table(
        "users",
        sa.column("id", sa.Integer()),
        sa.column("quiet_start", sa.String()),
        sa.column("quiet_end", sa.String()),
        sa.column("reminder_hours", sa.Integer()),
        sa.column("calendar_token", sa.String()),
    )
    bind = op.get_bind()
    bind.execute(users.update().values(quiet_start="22:00", quiet_end="08:00", reminder_hours=24))
    for (user_id,) in bind.execute(sa.select(users.c.id)).all():
        bind.execute(
            users.update()
            .where(users.c.id == user_id)
            .values(calendar_token=secrets.token_urlsafe(24))
        )
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.alter_column("calendar_token", existing_type=sa.String(length=40), nullable=False)
        batch_op.create_unique_constraint("uq_users_calendar_token", ["calendar_token"])
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("not_before", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "clock_stops",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_clock_stops_game_id_games", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_clock_stops_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_clock_stops"),
    )
    op.create_index("ix_clock_stops_game_id", "clock_stops", ["game_id"], unique=False)
    op.create_index("ix_clock_stops_user_id", "clock_stops", ["user_id"], unique=False)
    op.create_table(
        "game_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("seat_position", sa.Integer(), nullable=True),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"], ["users.id"], name="fk_game_events_actor_id_users", ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_game_events_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_game_events"),
    )
    op.create_index("ix_game_events_game_id", "game_events", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_game_events_game_id", table_name="game_events")
    op.drop_table("game_events")
    op.drop_index("ix_clock_stops_user_id", table_name="clock_stops")
    op.drop_index("ix_clock_stops_game_id", table_name="clock_stops")
    op.drop_table("clock_stops")
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("not_before")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_constraint("uq_users_calendar_token", type_="unique")
        for column in (
            "calendar_token",
            "digest_sent_on",
            "digest_hour",
            "reminder_hours",
            "quiet_end",
            "quiet_start",
        ):
            batch_op.drop_column(column)
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index("ix_seats_timeout_at")
        for column in (
            "timed_out_at",
            "reminded_at",
            "extra_seconds",
            "bank_seconds",
            "timeout_at",
            "deadline",
            "asked_at",
        ):
            batch_op.drop_column(column)
    with op.batch_alter_table("games", schema=None) as batch_op:
        for column in (
            "abandoned_at",
            "paused_at",
            "on_timeout",
            "weekends_off",
            "bank_days",
            "days_per_move",
        ):
            batch_op.drop_column(column)
