"""Capability tokens: at least 128 bits of randomness, stored hashed, compared in constant time."""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

TOKEN_BYTES = 24          # 192 bits of randomness per token
PLAY_ID_BYTES = 9


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_play_id() -> str:
    return secrets.token_urlsafe(PLAY_ID_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def token_role(play, token: str | None) -> str | None:
    """"edit", "view" or None for a token presented for ``play`` (constant-time compare)."""
    if not token or len(token) > 200:
        return None
    digest = token_hash(token)
    if hmac.compare_digest(digest, play.edit_hash):
        return "edit"
    if hmac.compare_digest(digest, play.view_hash):
        return "view"
    return None


def view_token_for(edit_token: str) -> str:
    """The view token is derived from the edit token one way: whoever can edit can always share
    a view link, and a view token reveals nothing of the edit token (192 bits either way)."""
    digest = hashlib.sha256(b"north-sea-companion:view:" + edit_token.encode()).digest()
    return base64.urlsafe_b64encode(digest[:TOKEN_BYTES]).decode().rstrip("=")


def bearer_token(headers) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    value = headers.get("Authorization", "")
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None
