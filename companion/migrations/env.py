"""Alembic environment: runs on the connection that `companion init-db` hands over."""
from alembic import context

from companion.store import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
