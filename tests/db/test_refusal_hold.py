"""A client that ignores Retry-After, against the production server (`companion serve`: one
gevent worker, so every request below meets in one process).

Once Flask-Limiter has refused an address on a route, each repeat there is held by the server
(REFUSAL_HOLD seconds, a sleeping greenlet: companion/web/limit_gate.py) before its 429: the
server, not the client, sets how fast a client over its limit is answered (issue 22, F2: a
PDF loop's refusals, ~600 a second, raised other tables' tap p95 8-28x). Checked by order,
not by time: while twelve of the looper's repeats are held, one more of them is answered at
once (and its connection closed: a client cannot hold the worker's connections this way), and
another table's taps are answered, each on a new connection; the held ones are answered after
them, each a 429 with Retry-After. How much CPU a loop takes before and after is `make bench`'s
figure (`pdf_loop`, docs/benchmarks.md).
"""
from __future__ import annotations

import threading
import time

from benchmarks.harness import Client, Server, create_table, record

LOOPER = "127.0.0.2"
HOLD, HELD = 6, 12      # REFUSAL_HOLD; one play's phones (LIVE_STREAMS_PER_PLAY)
SETUP = "/api/v1/games/knarr/setup"
BODY = {"players": ["Ann", "Bo"], "seed": 1}


class Repeat(threading.Thread):
    """One repeat of the looper on a connection of its own, answered when it is answered."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.client = Client(url, timeout=60, source=LOOPER)
        self.reply = None
        self.answered_at = None

    def run(self) -> None:
        self.reply = self.client.post(SETUP, BODY)
        self.answered_at = time.monotonic()
        self.client.close()


def test_a_looping_clients_repeats_are_held_while_the_tables_are_served(tmp_path):
    env = {"RATELIMIT_COMPUTE": "1 per minute", "REFUSAL_HOLD": HOLD,
           "LIVE_STREAMS_PER_PLAY": HELD}
    with Server(f"sqlite:///{tmp_path}/hold.db", workers=1, log_dir=str(tmp_path),
                env=env) as server:
        looper = Client(server.url, source=LOOPER)
        assert [looper.post(SETUP, BODY).status for _ in range(2)] == [200, 429]  # Flask-Limiter
        looper.close()
        held = [Repeat(server.url) for _ in range(HELD)]
        for repeat in held:
            repeat.start()
        time.sleep(0.5)                      # (not a bound: the twelve are sent)
        one_more = Client(server.url, source=LOOPER)
        at_once = one_more.post(SETUP, BODY)
        at_once_answered = time.monotonic()
        assert at_once.status == 429 and int(at_once.headers["Retry-After"]) > 0
        assert at_once.headers.get("Connection", "").lower() == "close"
        owner = Client(server.url)
        table = create_table(owner)
        taps = []
        for i in range(5):
            phone = Client(server.url)       # a new connection each
            taps.append(record(phone, table, i).status)
            phone.close()
        taps_answered = time.monotonic()
        owner.close()
        assert taps == [200] * 5, table.errors
        for repeat in held:
            repeat.join(HOLD + 30)
        replies = [repeat.reply for repeat in held]
        assert all(r is not None and r.status == 429 for r in replies), replies
        assert all(int(r.headers["Retry-After"]) > 0 for r in replies)
        assert all(r.json()["error"]["code"] == "rate_limited" for r in replies)
        first_held = min(repeat.answered_at for repeat in held)
        assert at_once_answered < first_held and taps_answered < first_held
        # the looper's allowance is its own: another address computes as usual
        assert Client(server.url).post(SETUP, BODY).status == 200
