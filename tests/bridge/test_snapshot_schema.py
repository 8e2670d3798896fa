"""Issue 21 item 5: «`check_schema` runs on every snapshot read: an unknown schema version gets a Russian
message, never a crash.»"""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from engine.state import SCHEMA_VERSION, SchemaVersionError, check_schema
from sheets_bridge.cli import main
from tests.games import new_game


@pytest.mark.parametrize(("version", "words"), [
    (SCHEMA_VERSION + 1, "более новой версией forumwar: обновите forumwar"),
    (None, "нет поля schema_version"),
    ("1", "такой версии формата нет"),
    (True, "такой версии формата нет"),
])
def test_check_schema_refuses_a_version_it_does_not_read_in_russian(version, words):
    state = {"schema_version": version} if version is not None else {}
    with pytest.raises(SchemaVersionError) as caught:
        check_schema(state)
    assert words in str(caught.value) and f"читает {SCHEMA_VERSION}" in str(caught.value)


def test_check_schema_passes_the_current_version():
    check_schema({"schema_version": SCHEMA_VERSION})


@pytest.mark.parametrize("command", [["status"], ["check"], ["turn", "--yes"], ["verify", "--offline"]])
def test_every_command_refuses_a_snapshot_of_another_schema_version_with_a_russian_message(tmp_path, command):
    gd = new_game(tmp_path / "g", seed="schema")
    path = gd.snapshot_path(1, "orders")
    state = json.loads(path.read_text(encoding="utf-8"))
    state["schema_version"] = SCHEMA_VERSION + 1
    path.write_text(json.dumps(state), encoding="utf-8")
    result = CliRunner().invoke(main, [command[0], str(gd.path), *command[1:]])
    assert result.exit_code == 1, result.output
    assert "версия формата состояния 2, а эта версия forumwar читает 1" in result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
