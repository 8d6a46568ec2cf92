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
    """"edit", "view" or None for a token presented for ``play`` (constant-time compare). A
    seat token is an edit capability ("edit"); token_seat says which seat it is bound to."""
    if not token or len(token) > 200:
        return None
    digest = token_hash(token)
    if hmac.compare_digest(digest, play.edit_hash):
        return "edit"
    if hmac.compare_digest(digest, play.view_hash):
        return "view"
    if _seat_index(play, digest) is not None:
        return "edit"
    return None


def token_seat(play, token: str | None) -> int | None:
    """The seat (its index in seat order) a seat token is bound to; None for any other."""
    if not token or len(token) > 200:
        return None
    return _seat_index(play, token_hash(token))


def _seat_index(play, digest: str) -> int | None:
    found = None
    for index, kept in enumerate(getattr(play, "seat_hashes", None) or ()):
        # every hash compared (constant time whichever seat it is)
        if isinstance(kept, str) and hmac.compare_digest(digest, kept) and found is None:
            found = index
    return found


def seat_token_for(edit_token: str, seat: int) -> str:
    """The token of seat ``seat`` (index in seat order), derived from the edit token one way
    like the view token: the host's phone can always show every seat's code again, and a seat
    token reveals nothing of the edit token nor of another seat's (192 bits each)."""
    digest = hashlib.sha256(f"north-sea-companion:seat:{seat}:".encode() + edit_token.encode()
                            ).digest()
    return base64.urlsafe_b64encode(digest[:TOKEN_BYTES]).decode().rstrip("=")


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


def play_tokens(seats: int) -> dict:
    """A new play's tokens: {"edit", "view", "seats": [one per player, in seat order]}."""
    edit = new_token()
    return {"edit": edit, "view": view_token_for(edit),
            "seats": [seat_token_for(edit, i) for i in range(seats)]}
