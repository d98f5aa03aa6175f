"""The owners' bot tests' fixtures: `owner`, a person, and `api`, a client signed in as them."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.games.factories import make_user


@pytest.fixture
def owner() -> Any:
    return make_user("owner")


@pytest.fixture
def api(owner: Any) -> APIClient:
    client = APIClient()
    client.force_login(owner)
    return client
