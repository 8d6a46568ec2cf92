"""Who made each change, compensating undos, and Idempotency-Keys.

events.device: the phone (X-Device-Id) or API client that made the change, for "undo my last
change"; events.undoes: a compensating event's target position. idempotency_keys: a change's
Idempotency-Key with its first answer, so a phone's retry records nothing twice.
Only new columns and a new table: nothing is rebuilt (see issue 15 on SQLite batch mode).

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("events", sa.Column("device", sa.String(64), nullable=True))
    op.add_column("events", sa.Column("undoes", sa.Integer, nullable=True))
    op.create_table(
        "idempotency_keys",
        sa.Column("play_id", sa.String(32), sa.ForeignKey("plays.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("key", sa.String(100), nullable=False),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("response", sa.LargeBinary, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("play_id", "key", name="pk_idempotency_keys"),
    )


def downgrade():
    op.drop_table("idempotency_keys")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("undoes")
        batch.drop_column("device")
