"""The site as a visitor and an operator see it: home page, health check, API docs, settings."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import OperationalError
from django.db.utils import ConnectionHandler

import config.settings

SETTINGS_FILE = Path(config.settings.__file__)
PROJECT_ROOT = SETTINGS_FILE.parent.parent


def test_home_page_says_what_the_service_is(client):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>UNO League</h1>" in html
    assert "Clubs run UNO leagues" in html
    assert "asynchronous turns" in html
    assert "rated ladders" in html


@pytest.mark.django_db
def test_health_reports_ok_and_the_database_vendor(client, eager_tasks):
    on_postgres = os.environ.get("DATABASE_URL", "").startswith("postgres")
    expected = "postgresql" if on_postgres else "sqlite"

    response = client.get("/api/health")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    # Eager tasks (no REDIS_URL) need no broker and no worker; tests/api/test_health.py has
    # the broker's and the workers' cases.
    assert response.json() == {
        "status": "ok",
        "database": expected,
        "broker": "eager",
        "workers": None,
    }


def test_health_reports_unavailable_when_the_database_is_down(client, monkeypatch, eager_tasks):
    class DownDatabase:
        vendor = "postgresql"

        def cursor(self):
            raise OperationalError("could not connect to server")

    monkeypatch.setattr("games.health.connection", DownDatabase())

    response = client.get("/api/health")

    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "code": "database-unavailable",
        "message": "The database does not answer.",
        "database": "postgresql",
        "broker": "eager",
        "workers": None,
    }


def test_api_errors_are_json_with_a_code_and_a_message(client):
    response = client.post("/api/health")

    assert response.status_code == 405
    assert response.json() == {
        "code": "method_not_allowed",
        "message": 'Method "POST" not allowed.',
    }


def test_api_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/", {"format": "json"})
    docs = client.get("/api/docs/")

    assert schema.status_code == 200
    assert "/api/health" in schema.json()["paths"]
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content


def fresh_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> ModuleType:
    """Execute config/settings.py again, under exactly these environment variables."""
    for name in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL", "CACHE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("fresh_settings", SETTINGS_FILE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_database_url_selects_postgresql(monkeypatch):
    fresh = fresh_settings(
        monkeypatch, SECRET_KEY="k", DATABASE_URL="postgres://uno@127.0.0.1:5432/uno"
    )

    database = ConnectionHandler(fresh.DATABASES)["default"]

    assert database.vendor == "postgresql"
    assert database.settings_dict["NAME"] == "uno"
    assert database.settings_dict["USER"] == "uno"
    assert database.settings_dict["HOST"] == "127.0.0.1"


def test_without_database_url_it_uses_sqlite_in_the_project_root(monkeypatch):
    fresh = fresh_settings(monkeypatch, SECRET_KEY="k")

    database = ConnectionHandler(fresh.DATABASES)["default"]

    assert database.vendor == "sqlite"
    assert Path(database.settings_dict["NAME"]) == PROJECT_ROOT / "db.sqlite3"


def test_secret_key_is_required_when_debug_is_off(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        fresh_settings(monkeypatch)


def test_debug_gets_a_dev_secret_key_and_prints_email(monkeypatch):
    fresh = fresh_settings(monkeypatch, DEBUG="1")

    assert fresh.DEBUG is True
    assert fresh.SECRET_KEY.startswith("insecure-dev-key")
    assert fresh.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"


def test_production_defaults_are_safe(monkeypatch):
    fresh = fresh_settings(monkeypatch, SECRET_KEY="k")

    assert fresh.DEBUG is False
    assert fresh.ALLOWED_HOSTS == []
    assert not hasattr(fresh, "EMAIL_BACKEND")


def test_allowed_hosts_is_a_comma_list(monkeypatch):
    fresh = fresh_settings(monkeypatch, SECRET_KEY="k", ALLOWED_HOSTS="uno.example.org, localhost,")

    assert fresh.ALLOWED_HOSTS == ["uno.example.org", "localhost"]


def test_without_redis_url_tasks_run_eagerly_in_process(monkeypatch):
    fresh = fresh_settings(monkeypatch, SECRET_KEY="k")

    assert fresh.CELERY_TASK_ALWAYS_EAGER is True
    assert fresh.CELERY_BROKER_URL == "memory://"


def test_redis_url_selects_the_redis_broker(monkeypatch):
    fresh = fresh_settings(monkeypatch, SECRET_KEY="k", REDIS_URL="redis://127.0.0.1:6379/0")

    assert fresh.CELERY_TASK_ALWAYS_EAGER is False
    assert fresh.CELERY_BROKER_URL == "redis://127.0.0.1:6379/0"


def test_redis_url_names_the_transport_that_keeps_its_client(monkeypatch):
    fresh = fresh_settings(monkeypatch, SECRET_KEY="k", REDIS_URL="redis://127.0.0.1:6379/0")
    assert fresh.CELERY_BROKER_TRANSPORT == "config.broker:Transport"
    # Any other broker keeps kombu's transport: rediss:// its TLS, which kombu turns on by the
    # transport's name, a Sentinel URL its own.
    for url in ("rediss://127.0.0.1:6380/0", "sentinel://127.0.0.1:26379"):
        other = fresh_settings(monkeypatch, SECRET_KEY="k", REDIS_URL=url)
        assert not hasattr(other, "CELERY_BROKER_TRANSPORT"), url
    assert not hasattr(fresh_settings(monkeypatch, SECRET_KEY="k"), "CELERY_BROKER_TRANSPORT")


def test_cache_url_selects_a_shared_redis_cache_and_none_keeps_memory(monkeypatch):
    fresh = fresh_settings(monkeypatch, SECRET_KEY="k", CACHE_URL="redis://127.0.0.1:6379/1")
    assert fresh.CACHES["default"] == {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:6379/1",
        # A Redis that does not answer holds a request a second at most (frontdoor/throttles.py).
        "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
    }
    assert not hasattr(fresh_settings(monkeypatch, SECRET_KEY="k"), "CACHES")


def test_celery_reaches_redis_when_redis_url_is_set(redis_url):
    from config.celery import app

    assert app.conf.broker_url == redis_url
    assert app.conf.task_always_eager is False
    with app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=1)


@pytest.mark.django_db
def test_a_person_signs_in_and_the_api_knows_them(client):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("ada", password="lovelace-1815")
    page = client.get("/accounts/login/")
    assert page.status_code == 200 and b"Sign in" in page.content

    wrong = client.post("/accounts/login/", {"username": "ada", "password": "nope"})
    assert b"did not match" in wrong.content
    assert client.get("/api/me/notifications").status_code == 403

    signed_in = client.post("/accounts/login/", {"username": "ada", "password": "lovelace-1815"})
    # Signing in without a `next` lands on the lobby, where a person's games are.
    assert signed_in.status_code == 302 and signed_in.url == "/play/"
    assert b"Sign out ada" in client.get("/").content
    assert client.get("/api/me/notifications").json() == {"turn_emails": "each"}

    client.post("/accounts/logout/")
    assert client.get("/api/me/notifications").status_code == 403
