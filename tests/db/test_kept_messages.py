"""What keeps a play keeps its messages as data (companion.games.messages): the initial state,
the snapshots and the summary hold each message's id and parameters, not only its English, on
SQLite and PostgreSQL, through a backup and a restore into the other engine; and a play kept
before messages were data (plain English in its rows) still opens."""
from __future__ import annotations

import json

import sqlalchemy as sa

from companion.games.messages import TAG, Message
from companion.service import PlayService
from companion.store import play_snapshots
from companion.store import plays as plays_table
from tests.db.backends import backend_app, backend_of, db_url, postgres_database  # noqa: F401

NOTICE = "%(player)s chose %(place)s."


def raw(url: str, sql: str, **params):
    """A row's JSON as the database holds it, read without the store's types."""
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            value = conn.execute(sa.text(sql), params).scalar_one()
    finally:
        engine.dispose()
    return json.loads(value) if isinstance(value, str) else value


def reavers_play(app):
    """A Reavers play with a pawn placed (a notice with a player's name and a location in it)
    and a snapshot kept after every event."""
    service = app.extensions["companion"]
    keeper = PlayService(service.store, snapshot_every=1)
    row, tokens, _ = keeper.create({"game": "reavers", "players": ["Åsa", "Bo"], "seed": 3})
    keeper.change(row.id, {"type": "place", "data": {"location": "raid_keeps"}})
    keeper.tokens = tokens
    return keeper, row.id


def test_snapshots_and_the_initial_state_keep_ids_and_parameters(backend_app, db_url):  # noqa: F811
    keeper, play_id = reavers_play(backend_app)
    snapshot = raw(db_url, "SELECT state FROM play_snapshots WHERE play_id = :p "
                           "ORDER BY position DESC LIMIT 1", p=play_id)
    notice = snapshot["table"]["notices"][0]
    assert notice[TAG] == NOTICE
    assert notice["params"]["place"] == {TAG: "Raid Keeps"}
    assert notice["params"]["player"] in ("Åsa", "Bo")
    initial = raw(db_url, "SELECT initial FROM plays WHERE id = :p", p=play_id)
    first = initial["setup"]["checklist"][0]
    assert first[TAG].startswith("Lay the board 2-player side up") and first["params"]
    # and read back through the store: messages again, the same English
    cold = PlayService(keeper.store, snapshot_every=1)
    state = cold.state(cold.load(play_id))
    said = state["table"]["notices"][0]
    assert isinstance(said, Message) and said.id == NOTICE
    assert said == f"{said.params['player']} chose Raid Keeps."
    assert isinstance(cold.load(play_id).initial["setup"]["checklist"][0], Message)


def test_a_finished_plays_summary_keeps_its_questions(backend_app, db_url):  # noqa: F811
    """A finished Reavers play whose score asks for a keep spoils schedule: the summary keeps
    the question as a message (the printed type said in the reader's words)."""
    service = backend_app.extensions["companion"]
    row, _, _ = service.create({"game": "reavers", "players": ["Ann", "Bo"], "seed": 1})
    service.change(row.id, {"type": "sheet", "data": {"player": "Ann", "fields": {
        "keep_spoils": {"Treasure": 2}}}})
    service.change(row.id, {"type": "finish"})
    summary = raw(db_url, "SELECT summary FROM plays WHERE id = :p", p=row.id)
    question = summary["missing"][0]["question"]
    assert question[TAG].startswith("How much glory is a set of 1, 2, 3 … %(kind)s cards")
    assert question["params"] == {"kind": {TAG: "Treasure"}}
    kept = service.load(row.id).summary["missing"][0]["question"]
    assert isinstance(kept, Message) and kept.params["kind"].id == "Treasure"


def test_a_backup_moves_the_messages_to_the_other_engine(backend_app, db_url, tmp_path,  # noqa: F811
                                                         postgres_url):
    from contextlib import nullcontext

    from tests.db.test_backup import _bare_app

    keeper, play_id = reavers_play(backend_app)
    file = tmp_path / "club.nscbackup"
    result = backend_app.test_cli_runner().invoke(args=["backup", str(file)])
    assert result.exit_code == 0, result.output
    other = (postgres_database(postgres_url) if backend_of(db_url) == "sqlite"
             else nullcontext(f"sqlite:///{tmp_path / 'moved.db'}"))
    with other as target:
        moved = _bare_app(tmp_path, target)
        result = moved.test_cli_runner().invoke(args=["restore", str(file)])
        assert result.exit_code == 0, result.output
        snapshot = raw(target, "SELECT state FROM play_snapshots WHERE play_id = :p "
                               "ORDER BY position DESC LIMIT 1", p=play_id)
        assert snapshot["table"]["notices"][0][TAG] == NOTICE
        store = moved.extensions["companion"].store
        state = PlayService(store).state(store.load_play(play_id))
        assert state["table"]["notices"][0].id == NOTICE
        moved.extensions["notifier"].stop()
        store.engine.dispose()


def test_a_play_kept_before_messages_were_data_still_opens(backend_app, db_url):  # noqa: F811
    """Rows written by an older version hold the English only (and a snapshot under another
    rules fingerprint): the play opens, its page shows the English words, a new change
    works."""
    keeper, play_id = reavers_play(backend_app)
    store = keeper.store

    def english(value):
        if isinstance(value, dict):
            if TAG in value:
                return str(Message(value[TAG], value.get("params")))
            return {k: english(v) for k, v in value.items()}
        if isinstance(value, list):
            return [english(v) for v in value]
        return value

    with store.engine.begin() as conn:
        initial = raw(db_url, "SELECT initial FROM plays WHERE id = :p", p=play_id)
        conn.execute(sa.update(plays_table).where(plays_table.c.id == play_id)
                     .values(initial=english(initial)))
        conn.execute(sa.update(play_snapshots).where(play_snapshots.c.play_id == play_id)
                     .values(rules="0" * 64))
    cold = PlayService(store)
    state = cold.state(cold.load(play_id))
    first = state["setup"]["checklist"][0]
    assert first.startswith("Lay the board 2-player side up") and not isinstance(first, Message)
    page = backend_app.test_client().get(f"/plays/{play_id}/{keeper.tokens['edit']}",
                                         headers={"Accept-Language": "de"})
    assert page.status_code == 200 and "Lay the board 2-player side up" in page.get_data(
        as_text=True)
    cold.change(play_id, {"type": "place", "data": {"location": "battle_at_sea"}})
    assert cold.state(cold.load(play_id))["table"]["notices"][0].id == NOTICE


def test_a_plays_initial_state_is_decoded_once_however_often_it_is_read(backend_app, db_url,  # noqa: F811
                                                                        monkeypatch):
    """Every write and every read of a play reads its row; the initial state in it (the setup
    and the box data: most of a row's bytes) is decoded the first time only, while the stored
    text stays the same, and again as soon as it changed (a restore, an older version's rows)."""
    import companion.store as store_module

    service = backend_app.extensions["companion"]
    decoded = []
    real = store_module.from_data
    monkeypatch.setattr(store_module, "from_data", lambda v: decoded.append(1) or real(v))
    row, _, _ = service.create({"game": "reavers", "players": ["Ann", "Bo"], "seed": 1})
    for vp in range(5):
        service.change(row.id, {"type": "sheet", "data": {"player": "Ann",
                                                          "fields": {"glory": vp}}})
        service.load(row.id)
    assert len(decoded) == 1
    fresh = store_module.Store(db_url)     # nothing kept: reads the stored text afresh
    assert service.load(row.id).initial == fresh.load_play(row.id).initial
    first = service.load(row.id).initial["setup"]["checklist"][0]
    assert isinstance(first, Message) and first.params
    with service.store.engine.begin() as conn:
        conn.execute(sa.update(plays_table).where(plays_table.c.id == row.id)
                     .values(initial=dict(fresh.load_play(row.id).initial, seed=99)))
    before = len(decoded)
    assert service.load(row.id).initial["seed"] == 99 and len(decoded) == before + 1
    fresh.engine.dispose()
