"""leagues: leagues, organisers, entrants, seasons; game titles, results and places in a season

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24 04:10:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leagues",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("ruleset", sa.String(length=40), nullable=False),
        sa.Column("players_per_game", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("time_control", sa.JSON(), nullable=True),
        sa.Column("points_table", sa.JSON(), nullable=True),
        sa.Column("open", sa.Boolean(), nullable=False),
        sa.Column("divisions", sa.Integer(), nullable=False),
        sa.Column("promotion", sa.Integer(), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by_id"],
            ["users.id"],
            name="fk_leagues_created_by_id_users",
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_leagues"),
        sa.UniqueConstraint("public_id", name="uq_leagues_public_id"),
    )
    op.create_table(
        "league_organisers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["leagues.id"],
            name="fk_league_organisers_league_id_leagues",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name="fk_league_organisers_user_id_users",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_league_organisers"),
        sa.UniqueConstraint("league_id", "user_id", name="uq_league_organisers_league_id"),
    )
    op.create_index("ix_league_organisers_user_id", "league_organisers", ["user_id"], unique=False)
    op.create_table(
        "entrants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("invited_email", sa.String(length=320), nullable=True),
        sa.Column("division", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["leagues.id"],
            name="fk_entrants_league_id_leagues",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_entrants_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_entrants"),
        sa.UniqueConstraint("league_id", "user_id", name="uq_entrants_league_id"),
        sa.UniqueConstraint("league_id", "invited_email", name="uq_entrants_league_id_email"),
    )
    op.create_index("ix_entrants_user_id", "entrants", ["user_id"], unique=False)
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("ruleset_version", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("legs", sa.Integer(), nullable=False),
        sa.Column("pacing", sa.String(length=8), nullable=False),
        sa.Column("round_days", sa.Integer(), nullable=True),
        sa.Column("schedule", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["leagues.id"],
            name="fk_seasons_league_id_leagues",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_seasons"),
        sa.UniqueConstraint("league_id", "number", name="uq_seasons_league_id"),
    )
    op.create_table(
        "season_entrants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("entrant_id", sa.Integer(), nullable=False),
        sa.Column("division", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["entrant_id"],
            ["entrants.id"],
            name="fk_season_entrants_entrant_id_entrants",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["seasons.id"],
            name="fk_season_entrants_season_id_seasons",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name="fk_season_entrants_user_id_users",
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_season_entrants"),
    )
    op.create_index("ix_season_entrants_season_id", "season_entrants", ["season_id"], unique=False)
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("title", sa.String(length=200), server_default="", nullable=False)
        )
        batch.add_column(sa.Column("result", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("season_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("division", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("round", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("number", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_games_season_id_seasons", "seasons", ["season_id"], ["id"], ondelete="CASCADE"
        )
        batch.create_index("ix_games_season_id", ["season_id"], unique=False)
        batch.create_unique_constraint(
            "uq_games_season_id", ["season_id", "division", "round", "number"]
        )
    # Games made before titles are called by their game's name.
    for ruleset, title in (("java", "Java"), ("taluva", "Taluva"), ("samurai", "Samurai")):
        op.execute(
            sa.text("UPDATE games SET title = :title WHERE ruleset = :ruleset").bindparams(
                title=title, ruleset=ruleset
            )
        )
    op.execute(sa.text("UPDATE games SET title = ruleset WHERE title = ''"))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("entrant_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_seats_entrant_id_season_entrants",
            "season_entrants",
            ["entrant_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch.create_index("ix_seats_entrant_id", ["entrant_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_entrant_id")
        batch.drop_constraint("fk_seats_entrant_id_season_entrants", type_="foreignkey")
        batch.drop_column("entrant_id")
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("uq_games_season_id", type_="unique")
        batch.drop_index("ix_games_season_id")
        batch.drop_constraint("fk_games_season_id_seasons", type_="foreignkey")
        for column in ("number", "round", "division", "season_id", "result", "title"):
            batch.drop_column(column)
    op.drop_index("ix_season_entrants_season_id", table_name="season_entrants")
    op.drop_table("season_entrants")
    op.drop_table("seasons")
    op.drop_index("ix_entrants_user_id", table_name="entrants")
    op.drop_table("entrants")
    op.drop_index("ix_league_organisers_user_id", table_name="league_organisers")
    op.drop_table("league_organisers")
    op.drop_table("leagues")
