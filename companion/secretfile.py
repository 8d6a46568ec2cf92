"""Secrets kept in a file of the instance folder (the session key, the owner key): made once,
readable by the server's user alone."""
from __future__ import annotations

import os
import secrets
import time
from pathlib import Path


def read_or_make(path: Path, nbytes: int = 32) -> str:
    """The secret in ``path``; the first caller writes a fresh one (``nbytes`` random bytes).

    O_EXCL: two server processes starting at once still agree on one secret; the other one
    waits for the first to finish writing. A file an older install left readable by everyone is
    narrowed to 0600."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(nbytes))
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    for _ in range(50):
        secret = path.read_text().strip()
        if secret:
            return secret
        time.sleep(0.01)
    raise RuntimeError(f"{path} is empty; delete it and start again.")
