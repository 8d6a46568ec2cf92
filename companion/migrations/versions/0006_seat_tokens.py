"""Seats: one token per seat of a play, stored hashed like the edit and view tokens.

plays.seat_hashes: a JSON list of SHA-256 hashes (hex), one per player in seat order
(companion.tokens.seat_token_for); NULL for the plays made before this revision, which have
no seats (their phones work as before). A new column only: nothing is rebuilt.

Revision ID: 0006
Revises: 0005
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("plays", sa.Column("seat_hashes", sa.JSON, nullable=True))


def downgrade():
    with op.batch_alter_table("plays") as batch:
        batch.drop_column("seat_hashes")
