"""The `companion` CLI (exit codes, JSON) and persistence across a restart."""
from __future__ import annotations

import json

from companion import create_app


def test_cli_setup_prints_the_setup_json(runner):
    result = runner.invoke(args=["setup", "knarr", "--players", "Ann,Bo", "--seed", "9",
                                 "--option", "artifacts=true"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "knarr" and data["seed"] == 9 and data["players"] == ["Ann", "Bo"]
    assert data["setup"]["artifacts"]


def test_cli_bad_input_exits_2_with_the_message_on_stderr(runner):
    result = runner.invoke(args=["setup", "knarr", "--players", "Ann"])
    assert result.exit_code == 2
    assert "2 to 4 players" in result.stderr
    result = runner.invoke(args=["setup", "chess", "--players", "Ann,Bo"])
    assert result.exit_code == 2


def test_cli_score_reads_a_file(runner, tmp_path):
    path = tmp_path / "body.json"
    path.write_text(json.dumps({"players": [{"name": "Ann", "sheet": {"vp": 3}},
                                            {"name": "Bo", "sheet": {"vp": 5}}]}))
    result = runner.invoke(args=["score", "knarr", str(path)])
    assert result.exit_code == 0
    assert json.loads(result.output)["winners"] == ["Bo"]
    path.write_text("{not json")
    assert runner.invoke(args=["score", "knarr", str(path)]).exit_code == 2


def test_cli_init_db_is_idempotent(runner):
    assert runner.invoke(args=["init-db"]).exit_code == 0
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0 and f"revision {newest_migration()}." in result.output


def newest_migration() -> str:
    from pathlib import Path

    from alembic.config import Config
    from alembic.script import ScriptDirectory

    import companion

    config = Config()
    config.set_main_option("script_location",
                           str(Path(companion.__file__).parent / "migrations"))
    return ScriptDirectory.from_config(config).get_current_head()


def test_a_play_survives_a_restart(tmp_path):
    url = f"sqlite:///{tmp_path / 'keep.db'}"
    first = create_app({"DATABASE_URL": url, "SECRET_KEY": "k", "TESTING": True})
    first.extensions["companion"].store.init_db()
    client = first.test_client()
    play = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"]}).json
    headers = {"Authorization": f"Bearer {play['edit_token']}"}
    for vp in (3, 8):
        client.post(f"/api/v1/plays/{play['id']}/events", headers=headers,
                    json={"type": "sheet", "data": {"player": "Bo", "fields": {"vp": vp}}})
    client.post(f"/api/v1/plays/{play['id']}/undo", headers=headers)
    first.extensions["companion"].store.engine.dispose()

    second = create_app({"DATABASE_URL": url, "SECRET_KEY": "k", "TESTING": True})
    state = second.test_client().get(f"/api/v1/plays/{play['id']}", headers=headers).json["state"]
    assert state["sheets"]["Bo"]["vp"] == 3
    assert state["version"] == 3 and state["can_redo"] is True
