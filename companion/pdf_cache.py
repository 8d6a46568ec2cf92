"""Every PDF made is kept on disk, so asking again costs a file read.

A document is named by what it shows: the SHA-256 of its HTML (a score sheet's HTML holds the
play, its version, the language, the paper, the date and the clock as printed) and of the
print stylesheets. Nothing can be served stale: another version, language or paper is other
HTML. Files lie in the instance folder (``pdf-cache/``, readable by the server's user only),
one folder per play (deleted with the play, names and scores and all) and one each for pads
and boards; past ``max_files`` the least recently used go.
"""
from __future__ import annotations

import hashlib
import os
import shutil
from functools import lru_cache
from pathlib import Path

MAX_FILES = 500


@lru_cache(maxsize=4)
def _styles_digest(static_folder: str) -> bytes:
    digest = hashlib.sha256()
    for css in sorted(Path(static_folder, "css").glob("*.css")):
        digest.update(css.name.encode() + b"\0" + css.read_bytes())
    return digest.digest()


class DocumentCache:
    def __init__(self, folder: str | Path, static_folder: str, max_files: int = MAX_FILES):
        self.folder = Path(folder)
        self.static_folder = str(static_folder)
        self.max_files = int(max_files)

    def path(self, html: str, owner: str) -> Path:
        digest = hashlib.sha256(_styles_digest(self.static_folder))
        digest.update(html.encode("utf-8"))
        return self.folder / _safe(owner) / f"{digest.hexdigest()}.pdf"

    def get(self, path: Path) -> bytes | None:
        try:
            data = path.read_bytes()
        except OSError:
            return None
        try:
            os.utime(path)   # recently used: pruned last
        except OSError:
            pass
        return data

    def put(self, path: Path, pdf: bytes) -> None:
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.parent.mkdir(mode=0o700, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(pdf)
        os.replace(temporary, path)
        self.prune()

    def forget(self, owner: str) -> None:
        """Every document of this owner (a deleted play's sheets)."""
        shutil.rmtree(self.folder / _safe(owner), ignore_errors=True)

    def prune(self) -> None:
        files = []
        for entry in self.folder.glob("*/*.pdf"):
            try:
                files.append((entry.stat().st_mtime, entry))
            except OSError:
                continue
        files.sort()
        for _, stale in files[:max(0, len(files) - self.max_files)]:
            try:
                stale.unlink()
            except OSError:
                pass


def _safe(owner: str) -> str:
    """A folder name from a play id (letters, digits, - and _) or a fixed word."""
    name = "".join(c for c in owner if c.isalnum() or c in "-_")[:40]
    return name or "_"
