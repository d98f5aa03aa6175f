"""Hostile values in every query parameter and form field of the whole site (the web pages, the
staff console, the accounts pages and the API), as anonymous, as a person and as staff: no
answer may be a 5xx. docs/api.md and docs/web.md, "Bad input".

Every URL pattern (Django's admin aside) is walked with its path parameters pointing at real
objects (a game the person plays, their bot, a club, a season, a ladder). A first GET and POST
per pattern and identity records which query and form keys the view reads (QueryDict's reads
are watched) and which forms its page renders (their fields and default values); an API
operation's JSON fields come from its OpenAPI schema (tests/api/test_schemathesis.py fuzzes the
schema itself). Then each key gets each hostile value, in turn from each identity whose request
read it, the rest of a rendered form left at its defaults: "²" (isdigit() but not int()), a NUL,
a lone surrogate (as the broken UTF-8 a client sends; in JSON the "\\ud800" escape), a number of
30 digits, -1, JSON nested 10,000 deep, 100,000 characters. A `<str:...>` path parameter gets
the same values; every id in a path (`<id:...>`) gets one past the largest a row can have, a
404. Bounded (about 2,000 requests), so CI runs it on PostgreSQL in well under a
minute.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote, urlencode, urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.http import QueryDict
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.datastructures import MultiValueDict
from drf_spectacular.generators import SchemaGenerator

from bots import turns
from games.creation import SeatSpec, game_create
from games.models import Bot
from tests.games.factories import SHORT, make_game, make_user, play_to_end
from tests.league.factories import make_club, make_competition, make_season
from tests.tournaments.factories import make_tournament

pytestmark = pytest.mark.django_db

# The values thrown into every key; lone surrogates are written as a client would send one
# (its UTF-8 with surrogatepass, which is no UTF-8), see `encode`.
HOSTILE = ["²", "a\x00b", "a\ud800b", "9" * 30, "-1", "[" * 10_000, "x" * 100_000]
# In JSON bodies: the same, as JSON text (Python's json cannot write the deep one).
HOSTILE_JSON = [
    json.dumps("²"),
    json.dumps("a\x00b"),
    json.dumps("a\ud800b"),
    str(10**30),
    "-1",
    "[" * 10_000 + "]" * 10_000,
    json.dumps("x" * 100_000),
]
# A form with more keys than this gets all of them at once, then VALUES_PER_KEY values per key
# (the values in turn, so that each is sent alone to some of its keys): one in the suite, two
# in the slow run (UNO_SLOW_TESTS=1). Each field of a long form is validated on its own, and
# every field gets every value in the all-at-once sends.
MANY_KEYS = 6
VALUES_PER_KEY = 2 if os.environ.get("UNO_SLOW_TESTS") == "1" else 1
SKIPPED_NAMESPACES = {"admin"}
# Served, not worth fuzzing per key: the OpenAPI schema and its viewer (drf-spectacular's).
SKIPPED_NAMES = {"api:schema", "api:docs"}


@dataclass
class Target:
    """One URL and method, the keys its views read, and where they go."""

    url: str
    method: str
    api: bool
    # key -> the identities whose requests read it
    query: dict[str, set[str]] = field(default_factory=dict)
    form: dict[str, set[str]] = field(default_factory=dict)
    # A rendered form's default values, left in place around the hostile field.
    defaults: dict[str, str] = field(default_factory=dict)
    json_fields: list[str] = field(default_factory=list)
    identities: set[str] = field(default_factory=set)


class Reads:
    """The keys read from any QueryDict while installed, by the QueryDict's id."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, str]] = []

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        seen = self.seen

        def watch(name: str) -> None:
            original = getattr(MultiValueDict, name)

            def watched(self: QueryDict, key: Any, *args: Any, **kwargs: Any) -> Any:
                seen.append((id(self), str(key)))
                return original(self, key, *args, **kwargs)

            monkeypatch.setattr(QueryDict, name, watched)

        for name in ("get", "getlist", "__getitem__", "__contains__"):
            watch(name)

    def of(self, data: QueryDict) -> set[str]:
        return {key for ident, key in self.seen if ident == id(data)}


class Forms(HTMLParser):
    """Every <form> of a page: its action, method, and its fields' default values."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.forms: list[tuple[str, str, dict[str, str]]] = []
        self._fields: dict[str, str] | None = None
        self._select: str | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag == "form":
            self._fields = {}
            self.forms.append((found.get("action", ""), found.get("method", "get"), self._fields))
        elif self._fields is None or "name" not in found:
            return
        elif tag in ("input", "textarea", "button"):
            if found.get("type") in ("checkbox", "radio") and "checked" not in found:
                self._fields.setdefault(found["name"], "")
            else:
                self._fields.setdefault(found["name"], found.get("value", ""))
        elif tag == "select":
            self._select = found["name"]
            self._fields.setdefault(found["name"], "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._fields = None
        elif tag == "select":
            self._select = None


def walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[Any]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace in SKIPPED_NAMESPACES:
                continue
            yield from walk(
                pattern.url_patterns,
                prefix + str(pattern.pattern),
                pattern.namespace or namespace,
            )
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}:{pattern.name}" if namespace else str(pattern.name)
            if name not in SKIPPED_NAMES:
                yield name, prefix + str(pattern.pattern)


PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


# An id one past the largest a row can have (PostgreSQL's bigint): it reached the database as
# an overflow (a 500) before ids had their own converter (frontdoor/converters.py).
PAST_BIGINT = str(2**63)


def fill(
    route: str, values: dict[str, Any], hostile: str | None = None, past_ids: bool = False
) -> str:
    """The route with each parameter filled; `hostile` in each str parameter if given, and
    PAST_BIGINT in each id if `past_ids`."""

    def one(match: re.Match[str]) -> str:
        converter, name = match.group(1) or "str", match.group(2)
        if hostile is not None and converter in ("str", "path"):
            return quote(encode(hostile), safe="")
        if past_ids and converter in ("int", "id"):
            return PAST_BIGINT
        if name == "slug":
            for start, value in values["slug"].items():
                if route.startswith(start):
                    return value
        return str(values.get(name, 1 if converter in ("int", "id") else "x"))

    return "/" + PARAMETER.sub(one, route)


def encode(value: str) -> bytes:
    return value.encode("utf-8", "surrogatepass")


def form_body(data: dict[str, str]) -> bytes:
    return urlencode({key: encode(value) for key, value in data.items()}).encode()


@pytest.fixture
def world(db: Any) -> dict[str, Any]:
    person = make_user("fuzzer")
    staff = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    bot = Bot.objects.create(
        owner=person, name="fuzz-bot", kind=Bot.Kind.BUILTIN, strategy="greedy"
    )
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(user=person), SeatSpec(bot="greedy")], seed=4
    )
    turns.advance_game(game_id=game.pk)
    finished = make_game(
        players=0,
        bots=["greedy", "random"],
        spec={"rules": "official", "options": {"scoring": "single-hand", "hand_size": 1}},
    )
    play_to_end(finished.pk)
    club, _, members = make_club(admin=person, members=1)
    season = make_season(club, person)
    ladder = make_competition(slug="fuzz-ladder", name="Fuzz ladder")
    cup = make_tournament(slug="fuzz-cup")
    return {
        "person": person,
        "staff": staff,
        "values": {
            "game_id": game.pk,
            "bot_id": bot.pk,
            "user_id": members[0].pk,
            "username": person.username,
            "code": club.invite_code,
            "name": "games",
            "family": "official",
            "slug": {
                "clubs/": club.slug,
                "api/clubs/": club.slug,
                "seasons/": season.slug,
                "api/seasons/": season.slug,
                "ladders/": ladder.slug,
                "api/ladders/": ladder.slug,
                "staff/ladders/": ladder.slug,
                "tournaments/": cup.slug,
                "api/tournaments/": cup.slug,
                "staff/projections/": "games",
            },
        },
        "finished": finished.pk,
    }


def plan(keys: dict[str, set[str]]) -> Iterator[tuple[dict[str, str], set[str]]]:
    """The hostile {key: value} sets to send, each with the identities that read its keys:
    every value in each key alone; past MANY_KEYS keys (a long form: its fields are
    validated each on its own anyway), every value in all keys at once, then each key alone
    with VALUES_PER_KEY values, in turn."""
    ordered = sorted(keys)
    if len(ordered) <= MANY_KEYS:
        for key in ordered:
            for value in HOSTILE:
                yield {key: value}, keys[key]
        return
    everyone = set().union(*keys.values())
    for value in HOSTILE:
        yield dict.fromkeys(ordered, value), everyone
    for index, key in enumerate(ordered):
        for step in range(VALUES_PER_KEY):
            yield {key: HOSTILE[(index + step) % len(HOSTILE)]}, keys[key]


def schema_fields() -> dict[tuple[str, str], list[str]]:
    """(path, method) -> the JSON body's top-level fields, from the OpenAPI schema."""
    document = SchemaGenerator().get_schema(request=None, public=True)
    components = document.get("components", {}).get("schemas", {})
    found = {}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            schema = content.get("application/json", {}).get("schema", {})
            if "$ref" in schema:
                schema = components[schema["$ref"].rsplit("/", 1)[1]]
            found[(path, method.upper())] = list(schema.get("properties", {}))
    return found


def test_no_hostile_query_or_form_value_gets_a_5xx(world, monkeypatch):
    clients = {"anonymous": Client(raise_request_exception=False)}
    for name in ("person", "staff"):
        clients[name] = Client(raise_request_exception=False)
        clients[name].force_login(world[name])
    reads = Reads()
    reads.install(monkeypatch)
    bodies = schema_fields()
    routes = list(walk(get_resolver().url_patterns))
    names = {name for name, _ in routes}
    # The walk reaches every part of the site, or it proves nothing.
    assert {"web:command", "staff:game", "login", "password_reset", "api:game-command"} <= names

    targets: dict[tuple[str, str], Target] = {}
    failures: list[tuple[Any, ...]] = []
    sent = 0

    def send(who: str, method: str, url: str, **kwargs: Any) -> Any:
        nonlocal sent
        sent += 1
        response = clients[who].generic(method, url, **kwargs)
        # GET /api/health answers 503 by design while a part is down (no worker runs here).
        if response.status_code >= 500 and not url.startswith("/api/health"):
            data = kwargs.get("data", b"")[:120]
            failures.append((who, method, url[:160], data, response.status_code))
        if "_auth_user_id" not in clients[who].session and who != "anonymous":
            # A sign-out (or a password change) ended the session: sign in again.
            clients[who].force_login(world[who])
        return response

    def target(url: str, method: str) -> Target:
        path = urlsplit(url).path
        key = (path, method)
        if key not in targets:
            targets[key] = Target(url=path, method=method, api=path.startswith("/api/"))
        return targets[key]

    # Discovery: which keys each view reads, which forms each page renders.
    for name, route in routes:
        url = fill(route, world["values"])
        if name == "web:replay":
            url = url.replace(str(world["values"]["game_id"]), str(world["finished"]))
        api_path = "/" + PARAMETER.sub(lambda match: "{" + match.group(2) + "}", route)
        for who in clients:
            for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
                if method != "GET" and not (method == "POST" or url.startswith("/api/")):
                    continue
                reads.seen.clear()
                response = send(who, method, url)
                if response.status_code == 405:
                    continue
                found = target(url, method)
                found.identities.add(who)
                request = response.wsgi_request
                for key in reads.of(request.GET):
                    found.query.setdefault(key, set()).add(who)
                for key in reads.of(request.POST):
                    found.form.setdefault(key, set()).add(who)
                found.json_fields = bodies.get((api_path, method), [])
                if method == "GET" and response.status_code == 200 and not found.api:
                    content = response.content.decode(errors="replace")
                    for action, form_method, fields in Forms(content).forms:
                        into = target(urljoin(url, action), form_method.upper())
                        into.identities.add(who)
                        into.defaults = into.defaults or dict(fields)
                        keys = into.form if form_method.upper() == "POST" else into.query
                        for key in fields:
                            keys.setdefault(key, set()).add(who)
    assert targets[("/games/" + str(world["values"]["game_id"]) + "/command", "POST")].form

    # The hostile values, key by key.
    for found in targets.values():
        for where, keys in (("query", found.query), ("form", found.form)):
            for values, who_read in plan(keys):
                who = sorted(who_read)[sent % len(who_read)]
                if where == "query":
                    query = urlencode({key: encode(value) for key, value in values.items()})
                    send(who, found.method, f"{found.url}?{query}")
                else:
                    send(
                        who,
                        found.method,
                        found.url,
                        data=form_body({**found.defaults, **values}),
                        content_type="application/x-www-form-urlencoded",
                    )
        readers = sorted(found.identities)
        for key in found.json_fields:
            for index, value in enumerate(HOSTILE_JSON):
                body = ("{" + json.dumps(key) + ": " + value + "}").encode()
                who = readers[index % len(readers)]
                send(who, found.method, found.url, data=body, content_type="application/json")

    # The path's own text parameters.
    for _, route in routes:
        kinds = {match.group(1) or "str" for match in PARAMETER.finditer(route)}
        if not kinds & {"str", "path"}:
            continue
        for index, value in enumerate(HOSTILE):
            who = list(clients)[index % len(clients)]
            send(who, "GET", fill(route, world["values"], hostile=value))

    # The path's ids past the largest a row can have, by GET and POST: a 404, never a 5xx.
    for index, (_, route) in enumerate(routes):
        if not {match.group(1) for match in PARAMETER.finditer(route)} & {"int", "id"}:
            continue
        who = list(clients)[index % len(clients)]
        for method in ("GET", "POST"):
            answer = send(who, method, fill(route, world["values"], past_ids=True))
            if answer is not None and answer.status_code != 404:
                failures.append((method, route, answer.status_code, "past the largest id"))

    assert failures == [], f"{len(failures)} of {sent} requests got a 5xx: {failures[:20]}"
    assert sent > 500
