"""A bot owner with only a personal token (api/auth.py): every owners' endpoint works with
`Authorization: Token <key>` and no cookie or CSRF token; a token's scopes (`bots`, `play`)
bound what it may do (403 `token-scope`); a revoked or replaced key is 401 `token-invalid`;
entering a ladder names its entrant, and a ladder for bots refuses a person."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import PersonalToken
from accounts.services import token_issue
from games.creation import SeatSpec, game_create
from games.models import Bot, Game
from league.models import Entry
from tests.games.factories import SHORT, make_user
from tests.league.factories import make_competition

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture(autouse=True)
def quick_validation(settings):
    settings.BOTS_VALIDATION_MATCHES = 1


def script(key: str) -> APIClient:
    """A script: the token only, and CSRF checks on, as a browser's would be."""
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_an_owner_does_everything_with_a_bots_token(django_capture_on_commit_callbacks):
    owner = make_user("owner")
    ladder = make_competition(slug="arena-test")
    api = script(token_issue(user=owner, scopes=["bots"]))

    with django_capture_on_commit_callbacks(execute=True):
        registered = api.post(
            "/api/me/bots", {"name": "Gus", "kind": "builtin", "strategy": "greedy"}, format="json"
        )
    assert registered.status_code == 201, registered.json()
    bot_id = registered.json()["id"]
    assert Bot.objects.get(pk=bot_id).owner == owner

    listed = api.get("/api/me/bots")
    assert [row["name"] for row in listed.json()] == ["Gus"]
    detail = api.get(f"/api/me/bots/{bot_id}").json()
    assert detail["status"] == "active"
    assert detail["stats"]["calls"] == 0 and detail["strikes"] == 0

    with django_capture_on_commit_callbacks(execute=True):
        changed = api.patch(f"/api/me/bots/{bot_id}", {"strategy": "random"}, format="json")
    assert (changed.status_code, changed.json()["strategy"]) == (200, "random")

    with django_capture_on_commit_callbacks(execute=True):
        validated = api.post(f"/api/me/bots/{bot_id}/validate")
    assert validated.status_code == 202
    assert Bot.objects.get(pk=bot_id).status == Bot.Status.ACTIVE

    entered = api.post("/api/ladders/arena-test/enter", {"bot": bot_id}, format="json")
    assert entered.status_code == 201, entered.json()
    assert (entered.json()["kind"], entered.json()["name"]) == ("bot", "Gus")
    left = api.post("/api/ladders/arena-test/leave", {"bot": bot_id}, format="json")
    assert (left.status_code, left.json()["active"]) == (200, False)
    assert list(Entry.objects.filter(competition=ladder).values_list("bot", "active")) == [
        (bot_id, False)
    ]


def test_a_pull_bots_token_is_issued_with_a_personal_token():
    owner = make_user("owner")
    bot = Bot.objects.create(owner=owner, name="poller", kind="pull", status="active")
    response = script(token_issue(user=owner)).post(f"/api/me/bots/{bot.pk}/token")
    assert response.status_code == 200 and response.json()["token"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/me/bots"),
        ("post", "/api/me/bots"),
        ("get", "/api/me/bots/{id}"),
        ("patch", "/api/me/bots/{id}"),
        ("post", "/api/me/bots/{id}/validate"),
        ("post", "/api/me/bots/{id}/token"),
        ("post", "/api/ladders/open/enter"),
        ("post", "/api/ladders/open/leave"),
    ],
)
def test_a_token_without_bots_is_refused_on_the_owners_endpoints(method, path):
    owner = make_user("owner")
    make_competition(slug="open")
    bot = Bot.objects.create(owner=owner, name="b", kind="builtin", strategy="greedy")
    before = Bot.objects.filter(pk=bot.pk).values().get()
    api = script(token_issue(user=owner, scopes=["play"]))

    body = {"bot": bot.pk, "name": "new", "kind": "builtin", "strategy": "random"}
    response = getattr(api, method)(path.format(id=bot.pk), body, format="json")

    assert (response.status_code, response.json()["code"]) == (403, "token-scope")
    assert "`bots`" in response.json()["message"]
    assert Bot.objects.filter(pk=bot.pk).values().get() == before
    assert not Entry.objects.exists()


def test_a_token_without_play_makes_no_move_and_starts_no_game():
    ana = make_user("ana")
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")], seed=3
    )
    api = script(token_issue(user=ana, scopes=["bots"]))
    version = game.version

    # Reading needs no scope.
    assert api.get(f"/api/games/{game.pk}").status_code == 200
    moves = [
        api.post(f"/api/games/{game.pk}/commands", {"command": {"type": "draw"}}, format="json"),
        api.post(f"/api/games/{game.pk}/resign"),
        api.post(f"/api/games/{game.pk}/vacation", {"days": 1}, format="json"),
        api.post(
            "/api/games",
            {"variant": SHORT, "seats": [{"user": "me"}, {"bot": "greedy"}]},
            format="json",
        ),
    ]

    for response in moves:
        assert (response.status_code, response.json()["code"]) == (403, "token-scope")
    assert Game.objects.count() == 1
    assert Game.objects.get(pk=game.pk).version == version


def test_a_play_token_plays():
    ana = make_user("ana")
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")], seed=3
    )
    api = script(token_issue(user=ana, scopes=["play"]))
    assert api.post(f"/api/games/{game.pk}/resign").status_code == 200


def test_a_revoked_or_replaced_token_is_401_token_invalid():
    ana = make_user("ana")
    old = token_issue(user=ana)
    new = token_issue(user=ana)
    refused = script(old).get("/api/me/bots")
    assert (refused.status_code, refused.json()["code"]) == (401, "token-invalid")
    assert refused["WWW-Authenticate"] == "Token"

    assert script(new).delete("/api/me/token").status_code == 204
    for path in ("/api/me/bots", "/api/games", "/api/ladders"):
        response = script(new).get(path)
        assert (response.status_code, response.json()["code"]) == (401, "token-invalid"), path


def test_a_token_is_made_with_scopes_and_never_widens_itself():
    ana = make_user("ana")
    session = APIClient()
    session.force_login(ana)

    made = session.post("/api/me/token", {"scopes": ["bots"]}, format="json")
    assert (made.status_code, made.json()["scopes"]) == (201, ["bots"])
    assert session.get("/api/me/token").json()["scopes"] == ["bots"]
    narrow = script(made.json()["token"])

    wider = narrow.post("/api/me/token", {"scopes": ["bots", "play"]}, format="json")
    assert (wider.status_code, wider.json()["code"]) == (403, "token-scope")
    assert PersonalToken.objects.get(user=ana).scopes == "bots"
    same = narrow.post("/api/me/token")
    assert (same.status_code, same.json()["scopes"]) == (201, ["bots"])

    bad = session.post("/api/me/token", {"scopes": ["admin"]}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
    everything = session.post("/api/me/token")
    assert everything.json()["scopes"] == ["bots", "play"]


def test_a_token_made_before_scopes_has_them_all():
    """The migration's default: an existing token keeps working everywhere."""
    field = PersonalToken._meta.get_field("scopes")
    assert field.get_default() == "bots play"


# The footgun: entering a ladder names the entrant, and a ladder for bots refuses a person.


def test_an_entry_without_an_entrant_is_refused_not_guessed():
    ana = make_user("ana")
    make_competition(slug="open")
    bot = Bot.objects.create(owner=ana, name="b", kind="builtin", strategy="greedy")
    api = script(token_issue(user=ana))

    missing = api.post("/api/ladders/open/enter", {}, format="json")
    both = api.post("/api/ladders/open/enter", {"bot": bot.pk, "person": True}, format="json")

    assert (missing.status_code, missing.json()["code"]) == (400, "entrant-missing")
    assert (both.status_code, both.json()["code"]) == (400, "entrant-ambiguous")
    assert not Entry.objects.exists()
    person = api.post("/api/ladders/open/enter", {"person": True}, format="json")
    assert (person.status_code, person.json()["kind"]) == (201, "person")


def test_a_ladder_for_bots_refuses_a_person(settings):
    settings.LEAGUE_BOT_LADDERS = ["bot-arena"]
    ada = make_user("ada")
    make_competition(slug="bot-arena", name="Bot Arena")
    bot = Bot.objects.create(
        owner=ada, name="b", kind="builtin", strategy="greedy", status="active"
    )
    api = script(token_issue(user=ada))

    refused = api.post("/api/ladders/bot-arena/enter", {"person": True}, format="json")

    assert (refused.status_code, refused.json()["code"]) == (403, "ladder-for-bots")
    assert not Entry.objects.exists()
    entered = api.post("/api/ladders/bot-arena/enter", {"bot": bot.pk}, format="json")
    assert entered.status_code == 201
    assert list(Entry.objects.values_list("user", "bot")) == [(None, bot.pk)]


# Several tokens per person, each named, with its own scopes (GET/POST /api/me/tokens,
# DELETE /api/me/tokens/<id>); /api/me/token manages the one named "default".


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_several_named_tokens_each_authenticate_with_their_own_scopes():
    ana = make_user("ana")
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")], seed=3
    )
    session = signed_in(ana)

    ci = session.post("/api/me/tokens", {"name": "ci", "scopes": ["bots"]}, format="json")
    laptop = session.post("/api/me/tokens", {"name": "laptop", "scopes": ["play"]}, format="json")

    assert (ci.status_code, laptop.status_code) == (201, 201)
    assert (ci.json()["name"], ci.json()["scopes"]) == ("ci", ["bots"])
    assert (laptop.json()["name"], laptop.json()["scopes"]) == ("laptop", ["play"])
    assert ci.json()["token"] != laptop.json()["token"]
    assert ci.json()["token"].startswith(ci.json()["prefix"])
    bots, play = script(ci.json()["token"]), script(laptop.json()["token"])
    assert bots.get("/api/me/bots").status_code == 200
    assert play.get("/api/me/bots").json()["code"] == "token-scope"
    assert bots.post(f"/api/games/{game.pk}/resign").json()["code"] == "token-scope"
    assert play.post(f"/api/games/{game.pk}/resign").status_code == 200


def test_revoking_one_token_leaves_the_others_working():
    ana = make_user("ana")
    session = signed_in(ana)
    made = {
        name: session.post("/api/me/tokens", {"name": name}, format="json").json()
        for name in ("ci", "laptop")
    }

    revoked = session.delete(f"/api/me/tokens/{made['ci']['id']}")

    assert revoked.status_code == 204
    refused = script(made["ci"]["token"]).get("/api/me/bots")
    assert (refused.status_code, refused.json()["code"]) == (401, "token-invalid")
    assert script(made["laptop"]["token"]).get("/api/me/bots").status_code == 200
    assert [t["name"] for t in session.get("/api/me/tokens").json()] == ["laptop"]
    again = session.delete(f"/api/me/tokens/{made['ci']['id']}")
    assert (again.status_code, again.json()["code"]) == (404, "not-found")


def test_the_list_shows_every_token_and_never_a_key():
    ana = make_user("ana")
    session = signed_in(ana)
    default = session.post("/api/me/token", {"scopes": ["bots"]}, format="json").json()
    ci = session.post("/api/me/tokens", {"name": "ci", "scopes": ["play"]}, format="json").json()
    script(ci["token"]).get("/api/games")

    listed = session.get("/api/me/tokens")

    assert listed.status_code == 200
    rows = listed.json()
    assert [(t["name"], t["prefix"], t["scopes"]) for t in rows] == [
        ("default", default["prefix"], ["bots"]),
        ("ci", ci["prefix"], ["play"]),
    ]
    assert set(rows[1]) == {"id", "name", "prefix", "scopes", "created_at", "last_used_at"}
    assert rows[0]["last_used_at"] is None and rows[1]["last_used_at"] is not None
    for key in (default["token"], ci["token"]):
        assert key not in listed.content.decode()
    # Another person's list holds none of them.
    assert signed_in(make_user("bea")).get("/api/me/tokens").json() == []


def test_a_name_is_unique_per_person_in_any_case_and_checked():
    ana, bea = make_user("ana"), make_user("bea")
    session = signed_in(ana)
    assert session.post("/api/me/tokens", {"name": " CI "}, format="json").json()["name"] == "CI"

    taken = session.post("/api/me/tokens", {"name": "ci"}, format="json")
    assert (taken.status_code, taken.json()["code"]) == (409, "token-name-taken")
    # Another person may use the same name.
    assert signed_in(bea).post("/api/me/tokens", {"name": "ci"}, format="json").status_code == 201
    for bad in ("", "   ", "x" * 41, "two\nlines"):
        refused = session.post("/api/me/tokens", {"name": bad}, format="json")
        assert (refused.status_code, refused.json()["code"]) == (400, "invalid-token-name"), bad
    missing = session.post("/api/me/tokens", {"scopes": ["bots"]}, format="json")
    assert (missing.status_code, missing.json()["code"]) == (400, "invalid")
    unknown = session.post("/api/me/tokens", {"name": "x", "scopes": ["admin"]}, format="json")
    assert (unknown.status_code, unknown.json()["code"]) == (400, "invalid")
    assert PersonalToken.objects.filter(user=ana).count() == 1


@pytest.mark.parametrize("path", ["/api/me/tokens", "/api/me/token"])
def test_an_unknown_scope_is_refused_with_the_scopes_there_are(path):
    ana = make_user("ana")

    refused = signed_in(ana).post(path, {"name": "ci", "scopes": ["bot"]}, format="json")

    assert (refused.status_code, refused.json()["code"]) == (400, "invalid")
    assert refused.json()["errors"] == {
        "scopes": ['"bot" is not a scope: the scopes are bots, play.']
    }
    empty = signed_in(ana).post(path, {"name": "ci", "scopes": []}, format="json")
    assert empty.json()["errors"] == {
        "scopes": ["Name at least one scope: the scopes are bots, play."]
    }
    assert not PersonalToken.objects.filter(user=ana).exists()


def test_a_person_holds_at_most_ten_tokens():
    ana = make_user("ana")
    session = signed_in(ana)
    for number in range(10):
        made = session.post("/api/me/tokens", {"name": f"t{number}"}, format="json")
        assert made.status_code == 201

    refused = session.post("/api/me/tokens", {"name": "one more"}, format="json")
    default = session.post("/api/me/token")

    assert (refused.status_code, refused.json()["code"]) == (409, "too-many-tokens")
    assert (default.status_code, default.json()["code"]) == (409, "too-many-tokens")
    assert PersonalToken.objects.filter(user=ana).count() == 10
    # Revoking one makes room.
    first = session.get("/api/me/tokens").json()[0]["id"]
    assert session.delete(f"/api/me/tokens/{first}").status_code == 204
    assert session.post("/api/me/tokens", {"name": "one more"}, format="json").status_code == 201


def test_another_persons_token_id_is_404_and_stays():
    ana, bea = make_user("ana"), make_user("bea")
    key = token_issue(user=bea)
    theirs = PersonalToken.objects.get(user=bea).pk

    for path in (f"/api/me/tokens/{theirs}", "/api/me/tokens/999999"):
        response = signed_in(ana).delete(path)
        assert (response.status_code, response.json()["code"]) == (404, "not-found"), path
    assert script(key).get("/api/me/bots").status_code == 200


def test_a_token_makes_no_token_but_the_default_renews_itself():
    # A key that leaked (a CI log) must not mint keys that outlive its revocation: tokens are
    # made signed in; with a token, only the `default` key renews itself.
    ana = make_user("ana")
    default = token_issue(user=ana, scopes=["bots"])
    ci = signed_in(ana).post("/api/me/tokens", {"name": "ci", "scopes": ["bots"]}, format="json")
    leaked = script(ci.json()["token"])

    made = leaked.post("/api/me/tokens", {"name": "mine"}, format="json")
    renewed_by_another = leaked.post("/api/me/token", format="json")

    assert (made.status_code, made.json()["code"]) == (403, "session-required")
    assert "signed in" in made.json()["message"]
    # Where to read how, as the site serves it (not a path of the project's files).
    assert "/guides/bots-api/" in made.json()["message"]
    assert "docs/" not in made.json()["message"]
    assert (renewed_by_another.status_code, renewed_by_another.json()["code"]) == (
        403,
        "session-required",
    )
    assert sorted(t.name for t in PersonalToken.objects.filter(user=ana)) == ["ci", "default"]
    assert script(default).get("/api/me/bots").status_code == 200

    # The default key renews itself, no wider than it was; the old key stops at once.
    wider = script(default).post("/api/me/token", {"scopes": ["play"]}, format="json")
    renewed = script(default).post("/api/me/token", format="json")
    assert (wider.status_code, wider.json()["code"]) == (403, "token-scope")
    assert (renewed.status_code, renewed.json()["scopes"]) == (201, ["bots"])
    assert script(default).get("/api/me/bots").status_code == 401
    assert script(renewed.json()["token"]).get("/api/me/bots").status_code == 200


def test_the_singular_endpoint_manages_the_default_token_only():
    ana = make_user("ana")
    session = signed_in(ana)
    ci = session.post("/api/me/tokens", {"name": "ci", "scopes": ["bots"]}, format="json").json()
    assert session.get("/api/me/token").status_code == 404

    first = session.post("/api/me/token", {"scopes": ["play"]}, format="json").json()
    shown = session.get("/api/me/token").json()
    assert (shown["prefix"], shown["scopes"]) == (first["prefix"], ["play"])
    rotated = session.post("/api/me/token").json()

    assert script(first["token"]).get("/api/games").status_code == 401
    assert script(rotated["token"]).get("/api/games").status_code == 200
    assert script(ci["token"]).get("/api/me/bots").status_code == 200
    names = [t["name"] for t in session.get("/api/me/tokens").json()]
    assert sorted(names) == ["ci", "default"]
    # A token named "default" made by name is the one the singular endpoint manages.
    assert session.post("/api/me/tokens", {"name": "Default"}, format="json").json()["code"] == (
        "token-name-taken"
    )

    assert session.delete("/api/me/token").status_code == 204
    assert script(rotated["token"]).get("/api/games").status_code == 401
    assert script(ci["token"]).get("/api/me/bots").status_code == 200
    assert session.delete("/api/me/token").status_code == 404
    assert [t["name"] for t in session.get("/api/me/tokens").json()] == ["ci"]


def test_a_token_revokes_or_replaces_no_token_wider_than_itself():
    """A `bots` token leaked from CI must not switch off the person's `play` token: it may end
    only tokens whose scopes it holds itself (403 `token-scope`), as it may make only those."""
    ana = make_user("ana")
    default = token_issue(user=ana, scopes=["bots", "play"])
    session = signed_in(ana)
    laptop = session.post("/api/me/tokens", {"name": "laptop", "scopes": ["play"]}, format="json")
    ci = session.post("/api/me/tokens", {"name": "ci", "scopes": ["bots"]}, format="json").json()
    narrow = script(ci["token"])

    revoke = narrow.delete(f"/api/me/tokens/{laptop.json()['id']}")
    replace = narrow.post("/api/me/token", {"scopes": ["bots"]}, format="json")
    delete = narrow.delete("/api/me/token")

    for response in (revoke, delete):
        assert (response.status_code, response.json()["code"]) == (403, "token-scope")
    # Replacing `default` makes a token: signed in only (the default renews itself alone).
    assert (replace.status_code, replace.json()["code"]) == (403, "session-required")
    assert script(laptop.json()["token"]).get("/api/games").status_code == 200
    assert script(default).get("/api/games").status_code == 200
    # Its own kind it may end: itself, at once.
    assert narrow.delete(f"/api/me/tokens/{ci['id']}").status_code == 204
    assert narrow.get("/api/me/bots").status_code == 401


@pytest.mark.parametrize("where", ["page", "shown", "api"])
def test_a_crash_report_never_shows_a_new_key(where, monkeypatch):
    # Django's crash report in HTML (an email to ADMINS with include_html, the error page's
    # frames) lists each frame's variables: a page or an answer that breaks after the key was
    # made must not carry it there.
    from django.contrib.sessions.backends.db import SessionStore
    from django.test import RequestFactory
    from django.views.debug import ExceptionReporter
    from rest_framework.request import Request

    from accounts.services import token_create
    from api import people
    from web import accounts as pages
    from web import shown_once

    class Seen(list):  # what the test saw, kept out of its own frame's line in the report
        def __repr__(self) -> str:
            return "<the key seen>"

    keys = Seen()

    def broken(*args, **kwargs):
        # render(request, template, {"key": ...}) or NewNamedTokenOutput(token, context=...)
        keys.append((kwargs.get("context") or args[-1])["key"])
        raise RuntimeError("broke after the key was made")

    def broken_keep(request, kind, pk, **values):
        keys.append(values["key"])
        raise RuntimeError("broke after the key was made")

    ana = make_user("ana")
    request = RequestFactory().post("/tokens", {"name": "ci", "scopes": ["bots"]})
    request.user = ana
    request.session = SessionStore()
    if where == "page":  # the form's POST, which keeps the key for the page after it
        monkeypatch.setattr(pages.shown_once, "keep", broken_keep)
        call = lambda: pages.token_create(request)  # noqa: E731
    elif where == "shown":  # the page that shows the key once
        made = Seen(token_create(user=ana, name="ci", scopes=["bots"]))  # this frame's too
        shown_once.keep(request, "token", made[0].pk, key=made[1], replaced="")
        session, request = request.session, RequestFactory().get(f"/tokens/{made[0].pk}/shown")
        request.user, request.session = ana, session
        monkeypatch.setattr(pages, "render", broken)
        call = lambda: pages.token_shown(request, made[0].pk)  # noqa: E731
    else:
        monkeypatch.setattr(people, "NewNamedTokenOutput", broken)
        wrapped = Request(request)
        wrapped._user, wrapped._auth = ana, None
        wrapped._full_data = {"name": "ci", "scopes": ["bots"]}
        call = lambda: people.Tokens().post(wrapped)  # noqa: E731
    with pytest.raises(RuntimeError) as raised:
        call()
    report = ExceptionReporter(request, raised.type, raised.value, raised.tb).get_traceback_html()

    assert keys and len(keys[0]) > 20
    assert "key" in report and "********************" in report
    assert keys[0] not in report


def test_a_name_typed_two_ways_is_one_name():
    # "café" with é, and with e and a combining acute accent: the same name to a reader.
    ana = make_user("ana")
    session = signed_in(ana)
    first = session.post("/api/me/tokens", {"name": "caf\u00e9"}, format="json")
    second = session.post("/api/me/tokens", {"name": "cafe\u0301"}, format="json")

    assert first.status_code == 201 and first.json()["name"] == "caf\u00e9"
    assert (second.status_code, second.json()["code"]) == (409, "token-name-taken")
