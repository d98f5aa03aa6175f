"""Production settings (config/settings.py; docs/operations.md, "HTTPS"): `manage.py check
--deploy` is clean with docker-compose.yml's environment for the web; HTTPS, HSTS and secure
cookies come from environment variables; every page carries a Content-Security-Policy that allows
no inline script or style, and no template needs one."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from tests.test_site import fresh_settings

ROOT = Path(__file__).resolve().parent.parent
# ${NAME:?message}: docker compose refuses to start without it; ${NAME:-default}: the default.
VARIABLE = re.compile(r"\$\{(\w+)(?::([?-])([^}]*))?\}")


def compose_web_environment(required: dict[str, str]) -> dict[str, str]:
    """The web service's environment as docker compose would give it with no variable set in
    the shell but `required`, the ones compose refuses to start without."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    environment = compose["services"]["web"]["environment"]

    def fill(match: re.Match[str]) -> str:
        name, kind, rest = match.groups()
        if kind == "?":
            return required[name]
        return rest if kind == "-" else ""

    return {name: VARIABLE.sub(fill, str(value)) for name, value in environment.items()}


def test_check_deploy_is_clean_with_docker_composes_production_settings(tmp_path):
    required = {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "UNO_APP_PASSWORD": "app-password",
    }
    environment = compose_web_environment(required)
    assert environment["SECURE_SSL_REDIRECT"] == "1", "compose should turn HTTPS on"
    # The compose network's hosts are loopback here; the check connects to neither.
    for name in ("DATABASE_URL", "REDIS_URL", "CACHE_URL"):
        environment[name] = (
            environment[name].replace("@db:", "@127.0.0.1:").replace("//redis:", "//127.0.0.1:")
        )
    environment["PROMETHEUS_MULTIPROC_DIR"] = str(tmp_path)
    env = {"PATH": os.environ["PATH"], **environment}

    run = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert run.returncode == 0, run.stdout + run.stderr
    assert "System check identified no issues (0 silenced)." in run.stdout, run.stdout + run.stderr


def test_the_https_settings_come_from_the_environment(monkeypatch):
    fresh = fresh_settings(
        monkeypatch,
        SECRET_KEY="k",
        SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO,https",
        SECURE_SSL_REDIRECT="1",
        SECURE_HSTS_SECONDS="31536000",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="1",
        SECURE_HSTS_PRELOAD="1",
        SECURE_COOKIES="1",
    )
    assert fresh.SECURE_PROXY_SSL_HEADER == ("HTTP_X_FORWARDED_PROTO", "https")
    assert fresh.SECURE_SSL_REDIRECT and fresh.SECURE_HSTS_SECONDS == 31536000
    assert fresh.SECURE_HSTS_INCLUDE_SUBDOMAINS and fresh.SECURE_HSTS_PRELOAD
    assert fresh.SESSION_COOKIE_SECURE and fresh.CSRF_COOKIE_SECURE


def test_without_them_plain_http_works_as_for_make_run_and_the_tests(monkeypatch):
    for name in ("SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT", "SECURE_COOKIES"):
        monkeypatch.delenv(name, raising=False)
    fresh = fresh_settings(monkeypatch, SECRET_KEY="k")
    assert not hasattr(fresh, "SECURE_PROXY_SSL_HEADER")
    assert not fresh.SECURE_SSL_REDIRECT and fresh.SECURE_HSTS_SECONDS == 0
    assert not fresh.SESSION_COOKIE_SECURE and not fresh.CSRF_COOKIE_SECURE


@pytest.mark.parametrize("value", ["https", "X-Forwarded-Proto,https", "HTTP_A,b,c"])
def test_a_malformed_proxy_header_is_refused_at_start(monkeypatch, value):
    with pytest.raises(ImproperlyConfigured, match="SECURE_PROXY_SSL_HEADER"):
        fresh_settings(monkeypatch, SECRET_KEY="k", SECURE_PROXY_SSL_HEADER=value)


@pytest.mark.django_db
def test_https_pages_carry_hsts_and_secure_cookies_behind_the_proxy(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = settings.SECURE_HSTS_PRELOAD = True
    settings.CSRF_COOKIE_SECURE = settings.SESSION_COOKIE_SECURE = True
    client = Client()

    plain = client.get("/accounts/login/")
    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    # The healthcheck and the scrape, made on the operator's own network, are not redirected.
    assert client.get("/api/health").status_code != 301

    page = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert page.status_code == 200
    assert page["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert "secure" in str(page.cookies["csrftoken"]).lower()


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/api/docs/", "/admin/login/"])
def test_every_page_has_a_csp_without_inline_script_or_style(client, path):
    response = client.get(path)
    assert response.status_code == 200
    policy = dict(
        directive.strip().split(" ", 1)
        for directive in response["Content-Security-Policy"].split(";")
    )
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in response["Content-Security-Policy"]


# What a CSP without 'unsafe-inline' blocks: a <script> with a body, an on* attribute, a <style>
# element, a style attribute, a javascript: URL.
INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+\s*=|<style\b|\sstyle\s*=|javascript:", re.I
)


def test_no_template_holds_an_inline_script_handler_or_style():
    found = [
        f"{path.relative_to(ROOT)}: {match[0]}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for match in INLINE.finditer(path.read_text())
    ]
    assert found == []
