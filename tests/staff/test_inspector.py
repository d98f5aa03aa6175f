"""A game's inspector and the game search: the log with every field of every event (hidden cards
included), the engine's state after any event, the seats and settings; search by id, player,
bot and competition."""

from __future__ import annotations

import json
import random
import re
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from bots import turns
from engine.events import GAME_ABORTED
from games import event_reads
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from games.models import Bot, Game, GameEvent, Seat
from games.repository import repository
from league.models import Competition
from staff import actions, inspector
from tests.games.factories import make_user, play_turn
from tests.staff.test_dashboard import first_to_act_seed
from tests.tournaments.factories import make_tournament
from tournaments.models import Round, TournamentGame

pytestmark = pytest.mark.django_db

SHORT = {"rules": "official", "options": {"target": 50}}
T = datetime(2031, 5, 6, 12, 0, tzinfo=UTC)


class Page(HTMLParser):
    """The inspector's log rows (cell texts by version) and the text of every <pre> by id."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.rows: dict[int, list[str]] = {}
        self.pres: dict[str, str] = {}
        # Each event's data, in the row under its fields.
        self.data: dict[int, str] = {}
        self._row: int | None = None
        self._data: int | None = None
        self._cell: list[str] | None = None
        self._pre: str | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "tr" and "data-version" in found:
            self._row = int(found["data-version"] or 0)
            self.rows[self._row] = []
        elif tag == "tr" and "data-event-data" in found:
            self._data = int(found["data-event-data"] or 0)
            self.data[self._data] = ""
        elif tag == "td" and self._row is not None:
            self._cell = []
        elif tag == "pre" and found.get("id"):
            self._pre = found["id"]
            self.pres[self._pre] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None and self._row is not None:
            self.rows[self._row].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr":
            self._row = self._data = None
        elif tag == "pre":
            self._pre = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if self._data is not None:
            self.data[self._data] += data
        if self._pre is not None:
            self.pres[self._pre] += data


def staff_client(username: str = "root") -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_user(username, is_staff=True))
    return client


@pytest.fixture
def played():
    """A game of two bots and a person, the bots first: their first turns appended one at a
    time, 5 s apart."""
    with time_machine.travel(T, tick=False) as clock:
        lucy = make_user("lucy")
        game = game_create(
            variant_spec=SHORT,
            seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random"), SeatSpec(user=lucy)],
            seed=first_to_act_seed(3, 0),
            settings=GameSettings(turn_seconds=600),
        )
        for _ in range(2):
            clock.shift(timedelta(seconds=5))
            if not turns.advance_game(game_id=game.pk, batch=1).commands:
                break
        yield Game.objects.get(pk=game.pk)


def test_the_log_shows_every_event_with_every_field(played):
    page = Page(staff_client().get(f"/staff/games/{played.pk}/").content.decode())
    events = list(GameEvent.objects.filter(game=played).order_by("version"))
    assert len(events) == played.version
    assert sorted(page.rows) == [event.version for event in events]
    previous = None
    for event in events:
        cells = page.rows[event.version]
        position, version, kind, schema, visibility, actor, command_id, at, since = cells
        assert int(position) == event.global_position
        assert int(version) == event.version
        assert kind == event.type
        assert int(schema) == event.schema_version
        assert visibility == event.visibility
        assert actor == event.actor
        assert command_id == (event.command_id or "")
        assert at == f"{event.recorded_at:%Y-%m-%d %H:%M:%S.%f}"
        # Stored data, whole: the deck order and every hand included.
        assert json.loads(page.data[event.version]) == event.data
        gap = None if previous is None else event.recorded_at - previous
        assert since == ("" if gap is None else "+" + inspector.duration_words(gap.total_seconds()))
        previous = event.recorded_at
    # The runs were appended 5 s apart.
    assert "+5.0 s" in [page.rows[v][8] for v in page.rows]


def test_hidden_cards_are_shown_to_staff(played):
    private = GameEvent.objects.filter(game=played, visibility="private").order_by("version")
    assert private.exists()
    page = Page(staff_client().get(f"/staff/games/{played.pk}/").content.decode())
    for event in private:
        assert json.loads(page.data[event.version]) == event.data


def test_a_persons_actor_is_named(played):
    lucy = Seat.objects.get(game=played, number=2).user
    rng = random.Random(1)
    while not GameEvent.objects.filter(game=played, actor=f"user:{lucy.pk}").exists():
        play_turn(played.pk, rng)
    log = inspector.game_log(played)
    names = {entry.actor: entry.actor_name for entry in log}
    assert names[f"user:{lucy.pk}"] == "lucy"
    assert names["bot:greedy"] == "bot:greedy"


def test_a_staff_members_actor_is_named_as_staff(played):
    # A staff action's event names its actor staff:<id> (games/actors.py StaffActor), apart
    # from anything the same person does as a player.
    root = get_user_model().objects.create_user("root", is_staff=True)
    actions.game_abort(game_id=played.pk, user=root, reason="stuck in testing")
    [aborted] = [entry for entry in inspector.game_log(played) if entry.type == GAME_ABORTED]
    assert (aborted.actor, aborted.actor_name) == (f"staff:{root.pk}", "root (staff)")
    page = Page(staff_client("admin").get(f"/staff/games/{played.pk}/").content.decode())
    assert page.rows[aborted.version][5] == "root (staff)"


def test_the_state_after_any_event_is_the_engines_replay(played):
    client = staff_client()
    events = event_reads.load(played.pk)
    for at in (1, 2, played.version // 2, played.version):
        page = Page(client.get(f"/staff/games/{played.pk}/?at={at}").content.decode())
        variant = repository.variant(played, events)
        expected = asdict(variant.replay(events[:at]))
        shown = json.loads(page.pres["state-json"])
        assert shown == json.loads(inspector.pretty(expected))
        assert shown["hands"] == [list(hand) for hand in expected["hands"]]
        assert shown["draw"] == list(expected["draw"])
    # Without ?at, the state after the last event.
    page = Page(client.get(f"/staff/games/{played.pk}/").content.decode())
    final = repository.state(played)[1]
    assert json.loads(page.pres["state-json"]) == json.loads(inspector.pretty(asdict(final)))


def test_state_at_refuses_a_version_the_log_does_not_hold(played):
    with pytest.raises(ValueError):
        inspector.state_at(played, 0)
    with pytest.raises(ValueError):
        inspector.state_at(played, played.version + 1)
    client = staff_client()
    for at in ("0", str(played.version + 1)):
        assert client.get(f"/staff/games/{played.pk}/?at={at}").status_code == 404, at
    # No number at all is a 400 `invalid-number` (frontdoor/boundary.py;
    # tests/web/test_bad_input.py).
    for at in ("x", "-1", "²"):
        assert client.get(f"/staff/games/{played.pk}/?at={at}").status_code == 400, at
    assert client.get("/staff/games/999999/").status_code == 404


def test_the_seats_and_the_settings(played):
    Seat.objects.filter(game=played, number=2).update(deadline_at=T + timedelta(minutes=10))
    page = staff_client().get(f"/staff/games/{played.pk}/").content.decode()
    rows = inspector.seat_rows(Game.objects.get(pk=played.pk))
    assert [(r.number, r.who, r.controller) for r in rows] == [
        (0, "greedy (built-in)", "builtin"),
        (1, "random (built-in)", "builtin"),
        (2, "lucy", "person"),
    ]
    assert rows[2].deadline_at == T + timedelta(minutes=10)
    assert "2031-05-06 12:10:00" in page
    parsed = Page(page)
    assert json.loads(parsed.pres["context-json"]) == {"turn_seconds": 600}
    assert json.loads(parsed.pres["variant-json"]) == played.variant
    facts = inspector.game_facts(played)
    assert facts.kind == "friendly" and facts.limits["turn seconds"] == 600


def test_the_inspector_shows_the_actions_on_the_game(played):
    response = staff_client().get(f"/staff/games/{played.pk}/")
    assert response.status_code == 200
    assert "staff/_game_actions.html" in [template.name for template in response.templates]
    assert f'href="/staff/games/{played.pk}/abort/"' in response.content.decode()


# Search --------------------------------------------------------------------------------------


@pytest.fixture
def games():
    owner = make_user("owner")
    webhook = Bot.objects.create(owner=owner, name="Hooky", kind="webhook", status="active")
    cup = Competition.objects.create(name="Cup", slug="winter-cup", kind="league", variant=SHORT)
    return {
        "people": game_create(
            variant_spec=SHORT,
            seats=[SeatSpec(user=make_user("marguerite")), SeatSpec(bot="greedy")],
            seed=1,
        ),
        "bot": game_create(
            variant_spec=SHORT,
            seats=[SeatSpec(registered=webhook), SeatSpec(bot="random")],
            seed=2,
        ),
        "cup": game_create(
            variant_spec=SHORT,
            seats=[SeatSpec(bot="colour-control"), SeatSpec(bot="random")],
            seed=3,
            settings=GameSettings(kind="league", competition=cup.pk),
        ),
    }


def found(query: str) -> list[int]:
    return [result.game.pk for result in inspector.search(query)[0]]


def test_search_by_id_player_bot_and_competition(games):
    people, bot, cup = games["people"], games["bot"], games["cup"]
    # No name here holds a digit, so an id finds its game alone.
    assert found(str(cup.pk)) == [cup.pk]
    assert found(f"#{bot.pk}") == [bot.pk]
    assert found("marguerite") == [people.pk]
    assert found("MARG") == [people.pk]
    assert found("hooky") == [bot.pk]
    assert found("colour-control") == [cup.pk]
    assert found("random") == [cup.pk, bot.pk]
    assert found("winter") == [cup.pk]
    assert found("nobody-at-all") == []
    # An empty query lists the latest games.
    assert found("")[:3] == [cup.pk, bot.pk, people.pk]
    why = {r.game.pk: r.matched for r in inspector.search("winter-cup")[0]}
    assert why == {cup.pk: ["competition"]}
    assert [r.matched for r in inspector.search(str(people.pk))[0]] == [["id"]]
    assert [r.matched for r in inspector.search("random")[0]] == [["bot"], ["bot"]]


def test_search_by_a_competitions_or_tournaments_name(games):
    """A competition or a tournament is found by its name as well as by its address."""
    cup = make_tournament(name="Demo Cup", slug="demo-cup")
    now = timezone.now()
    played = Round.objects.create(tournament=cup, number=1, started_at=now, deadline=now)
    table = game_create(
        variant_spec=SHORT,
        seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random")],
        seed=4,
        settings=GameSettings(kind="tournament", tournament=cup.pk),
    )
    TournamentGame.objects.create(round=played, table=1, game=table, entries=[])
    Competition.objects.filter(slug="winter-cup").update(name="Winter Championship")

    assert found("Demo Cup") == found("demo cup") == found("demo-cup") == [table.pk]
    assert found("Winter Championship") == found("champ") == [games["cup"].pk]
    why = {r.game.pk: (r.matched, r.competition) for r in inspector.search("Demo Cup")[0]}
    assert why == {table.pk: (["competition"], "demo-cup")}
    page = staff_client().get("/staff/games/", {"q": "Demo Cup"}).content.decode()
    assert f'<a href="/staff/games/{table.pk}/">#{table.pk}</a>' in page
    assert "<code>demo-cup</code>" in page


def test_the_search_shows_older_games_a_page_at_a_time(monkeypatch):
    monkeypatch.setattr(inspector, "SEARCH_LIMIT", 2)
    ada = make_user("adalinde")
    games = [
        game_create(variant_spec=SHORT, seats=[SeatSpec(user=ada), SeatSpec(bot="greedy")], seed=n)
        for n in range(3)
    ]
    game_create(variant_spec=SHORT, seats=[SeatSpec(bot="random"), SeatSpec(bot="greedy")])
    client = staff_client()

    def shown(html: str) -> list[int]:
        return [int(pk) for pk in re.findall(r'<tr data-game="(\d+)">', html)]

    first = client.get("/staff/games/", {"q": "adalinde"}).content.decode()
    assert shown(first) == [games[2].pk, games[1].pk]
    older = re.search(r'href="\?q=adalinde&amp;before=(\d+)">Older games</a>', first)
    assert older and int(older[1]) == games[1].pk
    second = client.get("/staff/games/", {"q": "adalinde", "before": older[1]}).content.decode()
    assert shown(second) == [games[0].pk]
    assert "Older games" not in second and "The newest" not in second
    assert client.get("/staff/games/", {"q": "adalinde", "before": "x"}).status_code == 400


def test_a_search_matching_people_bots_and_competitions_pages_them_newest_first(monkeypatch):
    # Each kind of match is read apart (people's seats, bots' seats, a competition's games):
    # the pages are still the newest of them all, each game once.
    monkeypatch.setattr(inspector, "SEARCH_LIMIT", 2)
    person = make_user("zed-ann")
    bot = Bot.objects.create(owner=person, name="zed-bot", kind="webhook", status="active")
    cup = Competition.objects.create(name="Zed", slug="zed-cup", kind="league", variant=SHORT)
    made = [
        game_create(variant_spec=SHORT, seats=[SeatSpec(user=person), SeatSpec(bot="greedy")]),
        game_create(variant_spec=SHORT, seats=[SeatSpec(registered=bot), SeatSpec(bot="random")]),
        game_create(
            variant_spec=SHORT,
            seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random")],
            settings=GameSettings(kind="league", competition=cup.pk),
        ),
        game_create(variant_spec=SHORT, seats=[SeatSpec(user=person), SeatSpec(registered=bot)]),
        game_create(variant_spec=SHORT, seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random")]),
    ]
    pages, before = [], None
    while True:
        results, before = inspector.search("zed", before=before)
        pages.append([result.game.pk for result in results])
        if before is None:
            break
    wanted = [game.pk for game in reversed(made[:4])]
    assert pages == [wanted[:2], wanted[2:]]
    assert found("zed-ann") == [made[3].pk, made[0].pk]
    assert found("zed-bot") == [made[3].pk, made[1].pk]


def test_the_searchs_queries_do_not_grow_with_a_persons_games():
    ada = make_user("adalinde")
    client = staff_client()

    def counted() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/staff/games/", {"q": "adalinde"}).status_code == 200
        return len(queries)

    def play(count: int) -> None:
        for n in range(count):
            game_create(
                variant_spec=SHORT, seats=[SeatSpec(user=ada), SeatSpec(bot="greedy")], seed=n
            )

    play(2)
    few = counted()
    play(55)
    assert counted() <= few


def test_the_search_page_links_each_game_to_its_inspector(games):
    client = staff_client()
    page = client.get("/staff/games/", {"q": "winter-cup"}).content.decode()
    cup = games["cup"]
    assert f'<a href="/staff/games/{cup.pk}/">#{cup.pk}</a>' in page
    assert "winter-cup" in page and "league" in page
    assert f'href="/staff/games/{games["people"].pk}/"' not in page
    by_id = client.get("/staff/games/", {"q": str(games["bot"].pk)}).content.decode()
    assert f'<a href="/staff/games/{games["bot"].pk}/">' in by_id
    assert "Hooky (bot #" in by_id


def test_the_log_is_shown_a_window_at_a_time(played, monkeypatch):
    monkeypatch.setattr(inspector, "LOG_WINDOW", 2)
    client = staff_client()
    last = played.version
    assert last >= 5

    # By default the window around the state's event, the last: the log's last two events.
    page = client.get(f"/staff/games/{played.pk}/").content.decode()
    assert sorted(Page(page).rows) == [last - 1, last]
    assert f"events {last - 1} to {last} of {last}" in page
    assert f'href="?at={last}&amp;log={last - 3}#log">‹ earlier events</a>' in page
    assert "later events › · last »</span>" in page  # no later window: not a link

    # ?log= moves the window and keeps the state's event; every event is reachable.
    seen: list[int] = []
    first: int | None = 1
    while first is not None:
        shown = Page(client.get(f"/staff/games/{played.pk}/?at=2&log={first}").content.decode())
        assert json.loads(shown.pres["state-json"]) == json.loads(
            inspector.state_at(played, 2).state_json
        )
        seen += sorted(shown.rows)
        first = inspector.log_window(played, first).later
    assert seen == list(range(1, last + 1))
    # Each event's time since the one before, across the window's edge too.
    whole = {entry.version: entry.since_words for entry in inspector.game_log(played)}
    windowed = inspector.log_window(played, 3).events[0]
    assert windowed.since_words == whole[3] != ""

    for bad, status in (("0", 404), (str(last + 1), 404), ("x", 400)):
        assert client.get(f"/staff/games/{played.pk}/?log={bad}").status_code == status, bad


def test_a_search_longer_than_any_name_is_a_400_with_its_reason():
    """A `q` of 100,000 characters matched against every seat's names ran into the database's
    statement timeout (a 503); no name, slug or id is that long, so it is refused at once."""
    client = staff_client()
    answer = client.get("/staff/games/", {"q": "x" * 100_000})
    assert answer.status_code == 400
    assert "too-long" in answer.content.decode()
    # A person sees the console's page, the reason by the search box, not a bare error page.
    page = client.get("/staff/games/", {"q": "<b>" + "x" * 497}).content.decode()
    assert "Bad request" not in page and 'class="staff"' in page
    error = re.search(r'<p class="form-errors search-error" id="staff-q-error" data-code="too-long"'
                      r' role="alert">([^<]*)</p>', page)  # fmt: skip
    assert error is not None
    assert error[1] == (
        f"A search has at most {inspector.QUERY_LENGTH} characters; this one has 500. "
        "No name or address is longer: shorten it."
    )
    assert 'aria-describedby="staff-q-error"' in page and 'value="&lt;b&gt;xxx' in page
    assert "<b>x" not in page
    assert client.get("/staff/games/", {"q": "x" * inspector.QUERY_LENGTH}).status_code == 200
