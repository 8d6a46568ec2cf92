"""No token and no owner key in any log (F6): a real `companion serve` (gunicorn) run, its
stdout and stderr in a file as a service manager keeps them. Page paths spelled every way the
server still answers (%2F for a slash, %70 for a letter, twice encoded), a Referer, gunicorn's
"Invalid HTTP request line" warning in the error log, the owner link: all redacted. The owner
link is printed only to a terminal; `companion owner-key` prints the key (and, on a terminal,
the link)."""
from __future__ import annotations

import json
import os
import pty
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from companion.redact import redact
from companion.server import announce

COMPANION = str(Path(sys.executable).parent / "companion")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None

    def http_error_302(self, req, fp, code, msg, headers):
        return fp


def status_of(url: str, **headers) -> int:
    opener = urllib.request.build_opener(NoRedirect)
    try:
        return opener.open(urllib.request.Request(url, headers=headers), timeout=10).status
    except urllib.error.HTTPError as err:
        return err.code


def raw_request(port: int, line: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(line + b"\r\nHost: 127.0.0.1\r\n\r\n")
        return sock.recv(4096)


def spellings(play_id: str, token: str) -> list[str]:
    """One play page, spelled every way the server answers it."""
    quoted = "".join(f"%{ord(c):02X}" for c in token)
    return [f"/plays/{play_id}/{token}", f"/plays%2F{play_id}%2F{token}",
            f"/plays/{play_id}%2F{token}", f"/%70lays/{play_id}/{token}",
            f"/plays/{play_id}/{quoted}/history", f"/plays%2f{play_id}%2f{token}/join.svg"]


def test_no_log_line_holds_a_token_or_the_owner_key(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'log.db'}",
           "SECRET_KEY": "log-test", "PUBLIC_URL": base, "WEB_WORKERS": "1"}
    log_path = tmp_path / "out.log"
    with open(log_path, "w+") as log:
        server = subprocess.Popen([COMPANION, "serve", "--host", "127.0.0.1", "--port",
                                   str(port)], cwd=tmp_path, env=env, stdout=log,
                                  stderr=subprocess.STDOUT)
        try:
            for _ in range(600):
                assert server.poll() is None, log_path.read_text()
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=2)
                    break
                except OSError:
                    time.sleep(0.1)
            play = json.load(urllib.request.urlopen(urllib.request.Request(
                base + "/api/v1/plays", method="POST",
                headers={"Content-Type": "application/json"},
                data=b'{"game": "knarr", "players": ["Ann", "Bo"]}'), timeout=10))
            answered = []
            seat = play["seats"][0]["token"]        # a seat token too (issue 24)
            for token in (play["edit_token"], play["view_token"], seat):
                for path in spellings(play["id"], token):
                    answered.append(status_of(base + path, Referer=base + path))
            # every spelling opened the play (a seat's link has no code to share: its join.svg
            # is a 403): these are the requests a log must not keep
            assert answered == [200] * (len(answered) - 1) + [403], answered
            # gunicorn's own warning for a broken request line quotes the line
            reply = raw_request(port, f"GET /plays/{play['id']}/{play['edit_token']}/"
                                      "\u00e9 HTTP/1.1".encode())
            assert reply.startswith(b"HTTP/1.1 400")
            key = subprocess.run([COMPANION, "owner-key"], env=env, cwd=tmp_path,
                                 capture_output=True, text=True, check=True).stdout.strip()
            assert re.fullmatch(r"[\w-]{40,}", key), key       # the key alone, for scripts
            for path in (f"/owner/{key}", f"/owner%2F{key}", f"/%6Fwner/{key}"):
                assert status_of(base + path) == 302, path
            expected = len(answered) + 3
            for _ in range(100):
                text = log_path.read_text()
                if text.count("[token]") >= expected and text.count("/owner/[key]") >= 3 \
                        and "Invalid request" in text:
                    break
                time.sleep(0.1)
        finally:
            server.terminate()
            server.wait(timeout=20)
    text = log_path.read_text()
    for secret in (play["edit_token"], play["view_token"], play["seats"][0]["token"], key):
        assert secret not in text
        assert secret.lower() not in text.lower()
    assert f"/plays/{play['id']}/[token]" in text
    assert re.search(r"Invalid request from ip=127\.0\.0\.1: .*\[token\]", text), text
    assert text.count("GET /owner/[key]") == 3
    # not a terminal: the banner keeps the owner link out of the log and says how to see it
    assert "/owner/" not in text.split("GET", 1)[0]
    assert "Run `companion owner-key` in a terminal" in text


def test_redact_reads_every_spelling_of_a_path():
    assert redact('"GET /plays/p1/t0k-3n_/events?x=1 HTTP/1.1"') == \
        '"GET /plays/p1/[token]/events?x=1 HTTP/1.1"'
    assert redact("/api/v1/plays/p1/events") == "/api/v1/plays/p1/events"
    assert redact('"GET /owner/Kx_9-a HTTP/1.1" "http://h/owner/Kx_9-a"') == \
        '"GET /owner/[key] HTTP/1.1" "http://h/owner/[key]"'
    assert redact("/owner/plays/p1/delete") == "/owner/plays/p1/delete"
    for spelled in ("/plays%2Fp1%2Fsecret", "/plays/p1%2Fsecret", "/%70lays/p1/secret",
                    "/plays%252Fp1%252Fsecret", "%2Fplays%2Fp1%2Fsecret", "/PLAYS/p1/secret",
                    "/plays/p1/%73%65cret/history"):
        line = f'127.0.0.1 "GET {spelled} HTTP/1.1" 200'
        assert "secret" not in redact(line).lower() and "[token]" in redact(line), spelled
    assert redact("/owner%2FKx_9") == "/owner/[key]"
    # a decoded line break cannot forge a log line
    assert "\n" not in redact("/plays/p1/secret%0aGET%20/fake")
    # what holds no secret is logged as it was sent
    assert redact('"GET /static/css/app%20x.css HTTP/1.1"') == \
        '"GET /static/css/app%20x.css HTTP/1.1"'


def test_the_owner_link_is_printed_to_a_terminal_only(capsys):
    announce("http://192.168.1.20:5000", 5000, "the-owner-key", terminal=False)
    assert "the-owner-key" not in capsys.readouterr().out
    announce("http://192.168.1.20:5000", 5000, "the-owner-key", terminal=True)
    assert "http://192.168.1.20:5000/owner/the-owner-key" in capsys.readouterr().out


def test_owner_key_shows_the_link_on_a_terminal(tmp_path):
    """In a real terminal (a pseudo-terminal), `companion owner-key` adds the owner link and
    its QR code under the key."""
    env = {**os.environ, "PUBLIC_URL": "http://192.168.1.20:5000",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'k.db'}", "SECRET_KEY": "k"}
    leader, follower = pty.openpty()
    process = subprocess.Popen([COMPANION, "owner-key"], env=env, cwd=tmp_path,
                               stdout=follower, stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    output = b""
    try:
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
    finally:
        process.wait(timeout=30)
        os.close(leader)
    text = output.decode("utf-8", "replace")
    key = text.split()[0]
    assert f"http://192.168.1.20:5000/owner/{key}" in text
    assert "\u2588" in text or "\u2580" in text or "\u2584" in text    # the QR code's blocks
