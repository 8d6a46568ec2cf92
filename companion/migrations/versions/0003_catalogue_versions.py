"""Every save of the box data is kept, so the owner can undo a save or an import.

Revision ID: 0003
Revises: 0002

A new table only (nothing is rebuilt); the box data already saved becomes the first kept
version of each game.
"""
import datetime as dt

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade():
    versions = op.create_table(
        "catalogue_versions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("source", sa.String(40), nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_catalogue_versions_game", "catalogue_versions", ["game", "id"])
    catalogues = sa.table("catalogues", sa.column("game", sa.String),
                          sa.column("data", sa.JSON))
    rows = op.get_bind().execute(sa.select(catalogues.c.game, catalogues.c.data)).all()
    if rows:
        stamp = dt.datetime.now(dt.UTC)
        op.bulk_insert(versions, [{"game": r.game, "data": r.data, "source": "kept at upgrade",
                                   "saved_at": stamp} for r in rows])


def downgrade():
    op.drop_index("ix_catalogue_versions_game", "catalogue_versions")
    op.drop_table("catalogue_versions")
