"""Snapshots of a play's state every so many events, so a process without the state in its
cache, or an undo, replays only the events after the nearest snapshot, never the whole log.

A cache beside the log, never the truth: every row can be deleted and is rebuilt from the
events. ``rules`` is the fingerprint of the rules code that computed the state; a snapshot of
other rules is ignored (companion/snapshots.py). A new table only: nothing is rebuilt.

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "play_snapshots",
        sa.Column("play_id", sa.String(32), sa.ForeignKey("plays.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("rules", sa.String(64), nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("play_id", "position", name="pk_play_snapshots"),
    )


def downgrade():
    op.drop_table("play_snapshots")
