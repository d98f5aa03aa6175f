"""accounts/migrations/0006_personal_tokens_named.py: a token made when a person had only one
keeps working, named "default", the one `/api/me/token` manages (docs/api.md)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from accounts.services import key_hash

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0005_profile_export_name")]
AFTER = [("accounts", "0006_personal_tokens_named")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_an_existing_token_is_named_default_and_keeps_working():
    old = migrate(BEFORE)
    user = old.get_model("auth", "User").objects.create(username="ana", is_active=True)
    key = "an-old-key-made-before-names-existed"
    old.get_model("accounts", "PersonalToken").objects.create(
        user=user, key_hash=key_hash(key), prefix=key[:6], scopes="bots"
    )
    try:
        new = migrate(AFTER)
        token = new.get_model("accounts", "PersonalToken").objects.get()
        assert (token.name, token.scopes, token.prefix) == ("default", "bots", key[:6])
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert script.get("/api/me/bots").status_code == 200
    shown = script.get("/api/me/token").json()
    assert (shown["prefix"], shown["scopes"]) == (key[:6], ["bots"])
    assert [t["name"] for t in script.get("/api/me/tokens").json()] == ["default"]
