"""The API's JSON renderer (api/renderers.py) writes what DRF's JSONRenderer writes, byte for
byte, for the values the API answers with, and leaves to DRF what orjson would write otherwise."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import json
import uuid

import pytest
from django.utils.translation import gettext_lazy
from rest_framework import renderers
from rest_framework.test import APIClient

from api.renderers import JSONRenderer
from tests.games.factories import make_user


@dataclasses.dataclass
class Point:
    x: int


VALUES = {
    "plain": {"game": 7, "version": 12, "events": [{"type": "card-played", "card": "R5"}]},
    "next": {"next": [], "repeated": False, "none": None, "seats": (0, 1), "name": "Zoë 🃏"},
    "times": {
        "at": datetime.datetime(2026, 11, 29, 4, 30, 1, 123456, tzinfo=datetime.UTC),
        "naive": datetime.datetime(2026, 11, 29, 4, 30),
        "day": datetime.date(2026, 11, 29),
        "time": datetime.time(4, 30, 1),
        "for": datetime.timedelta(seconds=90),
    },
    "others": {
        "price": decimal.Decimal("1.25"),
        "id": uuid.UUID(int=5),
        "lazy": gettext_lazy("Not found."),
        "set": {3},
        "bytes": b"ab",
        "rating": 25.5,
    },
    "line separators": {"text": "a\u2028b\u2029c"},
    "integer keys": {1: "one", 2: ["two"]},
    "past 64 bits": {"n": 2**70, "m": -(2**64)},
}


@pytest.mark.parametrize("value", VALUES.values(), ids=VALUES.keys())
def test_the_renderer_writes_drfs_json(value):
    assert JSONRenderer().render(value) == renderers.JSONRenderer().render(value)


def test_a_dataclass_is_refused_as_drf_refuses_it():
    # json.dumps and DRF's encoder know no dataclass; orjson would write one.
    with pytest.raises(TypeError):
        renderers.JSONRenderer().render({"p": Point(1)})
    with pytest.raises(TypeError):
        JSONRenderer().render({"p": Point(1)})


def test_an_indented_answer_is_drfs():
    value = {"a": [1, 2]}

    indented = JSONRenderer().render(value, "application/json; indent=2")

    assert indented == renderers.JSONRenderer().render(value, "application/json; indent=2")
    assert json.loads(indented) == value
    assert indented.count(b"\n") == 5


def test_nothing_is_an_empty_body():
    assert JSONRenderer().render(None) == b""


@pytest.mark.django_db
def test_the_api_answers_with_it():
    client = APIClient()
    client.force_login(make_user("reader"))

    response = client.get("/api/me/notifications")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.content == renderers.JSONRenderer().render(response.json())
