"""The served OpenAPI document says each write command as the command table does
(tablelog.domain.commands): one operation per command, its summary the command's title, its
description opening with the command's line, its body the command's parameters (and the
version an entry was made against), and its 403 the roles the role matrix gives its action."""

from __future__ import annotations

from tablelog.access import WritePolicy
from tablelog.api import create_app
from tablelog.api.schemas import KIND_SCHEMAS
from tablelog.domain.commands import COMMANDS
from tablelog.domain.recording.users import ROLES
from tablelog.gate import ACTIONS, role_may


def served(recorder) -> dict:
    client = create_app(recorder, WritePolicy()).test_client()
    answer = client.get("/api/v1/openapi.json")
    assert answer.status_code == 200
    return answer.get_json()


def command_operations(document: dict) -> dict[str, dict]:
    """The operations that run a command, by the command's title (their summary)."""
    titles = {command.title for command in COMMANDS}
    found: dict[str, dict] = {}
    for item in document["paths"].values():
        for operation in item.values():
            if operation["summary"] in titles:
                assert operation["summary"] not in found, operation["summary"]
                found[operation["summary"]] = operation
    return found


def test_every_command_is_one_operation_said_in_the_tables_words(recorder):
    document = served(recorder)
    operations = command_operations(document)
    assert set(operations) == {command.title for command in COMMANDS}
    schemas = document["components"]["schemas"]
    for command in COMMANDS:
        operation = operations[command.title]
        assert operation["description"].startswith(command.does), command.name
        ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        body = schemas[ref.rpartition("/")[2]]
        assert set(body["properties"]) - {"version"} == {p.name for p in command.params}
        assert set(body.get("required", ())) == {p.name for p in command.params if p.required}
        for param in command.params:  # each field of its kind (a sheet's options: any object)
            field = body["properties"][param.name]
            assert field.get("type") == KIND_SCHEMAS[param.kind]["type"], (command.name, param)
        allowed = [role for role in ROLES if role_may(role, command.action)]
        assert " or ".join(allowed) in operation["responses"]["403"]["description"]


def test_every_commands_action_is_in_the_role_matrix():
    assert {command.action for command in COMMANDS} <= set(ACTIONS)
    assert len({command.action for command in COMMANDS}) == len(COMMANDS)
