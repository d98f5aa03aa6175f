"""In a real browser, under the Content-Security-Policy (config/settings.py): the pages that are
not the site's own templates, Swagger UI at /api/docs/ and Django's admin, work with no CSP
violation (tests/web/browser/conftest.py fails a test on any), and so does the lobby, whose
script (static/notify.js: the turn alerts, the lobby's refresh and its countdowns) is a static
file."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.models import Bot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_swagger_ui_draws_the_api_under_the_csp(open_page):
    page = open_page(None, "/api/docs/")
    # Drawn by Swagger UI from the schema it fetched: its script and its init script ran.
    page.get_by_text("UNO League API").first.wait_for()
    page.locator(".opblock").first.wait_for()
    assert page.locator(".opblock").count() > 10
    # The way back to the site, above Swagger's page (it has no header of ours).
    back = page.get_by_role("navigation", name="Site")
    assert back.get_by_role("link", name="UNO League").get_attribute("href") == "/"
    assert back.get_by_role("link", name="The JSON API guide").get_attribute("href") == (
        "/guides/api/"
    )


def test_the_admin_lists_and_edits_under_the_csp(open_page):
    staff = User.objects.create_superuser("root", "root@example.org", "not-used-pass-71")
    Bot.objects.create(owner=staff, name="gus", kind=Bot.Kind.BUILTIN, strategy="greedy")
    page = open_page(staff, "/admin/")
    page.get_by_role("link", name="Bots").first.click()
    page.get_by_role("link", name="gus").click()
    page.wait_for_selector("#content-main form")
    # A change form's scripts: the related-object widgets and the "Save" row.
    assert page.locator("input[name=_save]").count() == 1
    page.goto(page.url.replace("/change/", "/history/"))
    page.get_by_text("gus").first.wait_for()


def test_the_lobby_loads_its_script_under_the_csp(open_page, live_server):
    person = User.objects.create_user("ana", password="not-used-pass-72")
    page = open_page(person, "/play/")
    scripts = page.evaluate("[...document.scripts].map((s) => s.src)")
    assert any(src.endswith(".js") and "notify" in src for src in scripts), scripts
    assert page.evaluate("[...document.scripts].every((s) => s.src)"), "an inline script"
