"""The request an Idempotency-Key was first used with, as a digest: a key sent again with
another request (another change, another body) is refused as idempotency_key_reused instead
of being answered as a repeat while the new change is dropped.

idempotency_keys.request_digest: SHA-256 (hex) of the request's kind and its body as the
server read it (companion.web.changes.request_digest); NULL for keys stored before this
revision (kept at most 24 hours: they answer as repeats, as they did). A new column only:
nothing is rebuilt.

Revision ID: 0005
Revises: 0004
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("idempotency_keys",
                  sa.Column("request_digest", sa.String(64), nullable=True))


def downgrade():
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.drop_column("request_digest")
