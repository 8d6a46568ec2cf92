"""Connections the database server dropped (a restart, a network cut), on PostgreSQL.

A pooled connection is pinged (a ``SELECT 1`` round trip) only when it is taken from the pool
after sitting idle for IDLE_PING_SECONDS, or when a store call runs again after a drop; a
connection in use moments ago is trusted. Pinging at every checkout (``pool_pre_ping``) cost
a round trip on every read and every write: an event's lock, bump and commit paid for a
fourth.

Where a trusted connection turns out dead (the server went away while it sat idle less than
that), the statement fails with SQLAlchemy's disconnect error, and the store runs the call
once more on a verified connection only where that is certainly safe:
- a read (it changes nothing);
- a write transaction that failed before its commit was sent: the server commits nothing it
  was not told to commit, so nothing of it was written.
A write whose commit was under way when the connection dropped may have committed: it is
never repeated here. Its error reaches the caller (503, "the database cannot be reached"),
and a phone that sends the change again with its Idempotency-Key is answered from the
first one if it did commit (companion.service), recorded once if it did not.
"""
from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import sqlalchemy as sa
from sqlalchemy import event as sa_event

IDLE_PING_SECONDS = 10.0     # a connection idle longer than this is pinged before use

_IDLE_SINCE = "idle_since"   # in the pool's info of a connection: when it was checked in
# the calls of this thread or greenlet ping every connection they take (a retry after a drop)
_VERIFY = ContextVar("verify_checkouts", default=False)
# set when a write transaction's commit is sent: a drop after it leaves the outcome unknown
_COMMITTING = ContextVar("committing", default=False)


def ping_idle_connections(engine: sa.Engine) -> None:
    """Check a pooled connection before use only when it sat idle (or a retry asks): a dead
    one is replaced, and every connection pooled before it with it (the server that dropped
    one dropped them all), as SQLAlchemy's own pre-ping does."""
    dialect = engine.dialect

    def checked_in(_dbapi_connection, record) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    def checkout(dbapi_connection, record, _proxy) -> None:
        since = record.info.get(_IDLE_SINCE)
        if since is None:           # a new connection: it has just answered
            return
        if not _VERIFY.get() and time.monotonic() - since < IDLE_PING_SECONDS:
            return
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as err:
            if dialect.is_disconnect(err, dbapi_connection, None):
                raise sa.exc.InvalidatePoolError() from err
            raise

    sa_event.listen(engine, "checkin", checked_in)
    sa_event.listen(engine, "checkout", checkout)


def dropped(err: BaseException) -> bool:
    """Whether ``err`` is the server having dropped the connection (SQLAlchemy's is_disconnect,
    its connection invalidated)."""
    return isinstance(err, sa.exc.DBAPIError) and err.connection_invalidated


@contextmanager
def verified_checkouts() -> Iterator[None]:
    """Every connection taken from the pool meanwhile is pinged first."""
    token = _VERIFY.set(True)
    try:
        yield
    finally:
        _VERIFY.reset(token)


@contextmanager
def committing_marked(begin) -> Iterator:
    """``begin`` (a transaction's context: it commits on a clean exit), marking when the commit
    is under way (see write_again_if_dropped)."""
    _COMMITTING.set(False)
    with begin as conn:
        yield conn
        _COMMITTING.set(True)


def read_again_if_dropped(method):
    """A store read run once more, on a verified connection, when the server had dropped the
    one it took. A read given a write's ``conn`` is part of that write: never run again."""
    @functools.wraps(method)
    def read(self, *args, **kwargs):
        if kwargs.get("conn") is not None:
            return method(self, *args, **kwargs)
        try:
            return method(self, *args, **kwargs)
        except sa.exc.DBAPIError as err:
            if not dropped(err):
                raise
        with verified_checkouts():
            return method(self, *args, **kwargs)
    return read


def write_again_if_dropped(method):
    """A store write (its whole transaction in the method) run once more, on a verified
    connection, when the server dropped the connection before the commit was sent (so nothing
    of it was written); never when the drop came during the commit."""
    @functools.wraps(method)
    def write(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sa.exc.DBAPIError as err:
            if not dropped(err) or _COMMITTING.get():
                raise
        with verified_checkouts():
            return method(self, *args, **kwargs)
    return write
