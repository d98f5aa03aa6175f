"""The lobby (/play/): a person's games, whose turn, the clock, the score, the filters."""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine
from django.contrib.auth.models import User
from django.utils import timezone

from games import lobby, projections
from games.creation import SeatSpec, game_create
from games.models import Bot, Game, GameSummary, MatchResult, Seat
from games.visibility import game_view
from tests.games.factories import SHORT, play_to_end

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def ada(client):
    user = User.objects.create_user("ada")
    client.force_login(user)
    return user


def person(name: str) -> User:
    return User.objects.create_user(name)


@pytest.fixture
def start(django_capture_on_commit_callbacks):
    """game_start, with what runs on commit (the bots' turns, the clocks) run too."""

    def start(creator: User, seats: list[dict], seed: int | None = 3, **kwargs) -> Game:
        with django_capture_on_commit_callbacks(execute=True):
            game = lobby.game_start(
                creator=creator, variant_spec=SHORT, seats=seats, seed=seed, **kwargs
            )
        game.refresh_from_db()
        return game

    return start


def bobs_turn(ada: User, bob: User) -> Game:
    """A game of bob and ada that ada started, waiting for bob (a fixed deal)."""
    seats = [SeatSpec(user=bob), SeatSpec(user=ada)]
    game = game_create(variant_spec=SHORT, seats=seats, seed=1, dealer=1, actor=ada)
    assert game.to_act == [0]
    return game


@pytest.fixture
def against_bots(start):
    """A game of a person and two bots; the bots move at once, so it waits for the person."""

    def against_bots(creator: User, **kwargs) -> Game:
        return start(creator, [{"user": "me"}, {"bot": "greedy"}, {"bot": "random"}], **kwargs)

    return against_bots


def cards(html: str) -> list[str]:
    """Each game's card in the lobby, in order."""
    return re.findall(r'<li class="game[^"]*">.*?</li>\s*(?=<li class="game|</ul>)', html, re.S)


def test_anonymous_people_are_sent_to_sign_in(client):
    for path in ("/play/", "/play/new/", "/play/?show=finished"):
        response = client.get(path)
        assert response.status_code == 302
        assert response.url.startswith("/accounts/login/?next=/play/")


def test_it_says_when_there_is_no_game_yet(client, ada):
    page = client.get("/play/")

    assert "You are in no game yet." in page.content.decode()
    assert 'href="/play/new/"' in page.content.decode()


def empty_line(html: str) -> str:
    """The tab's empty-state sentence, its tags dropped and its spaces squeezed."""
    found = re.search(r'<p class="empty">(.*?)</p>', html, re.S)
    assert found, "no empty-state line"
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split())


def test_after_finished_games_each_empty_tab_says_what_is_true(client, ada, against_bots):
    """A newcomer who played three games to the end is not "in no game yet": the Playing tab
    says no game is running and points to the three under Finished."""
    for _ in range(3):
        play_to_end(against_bots(ada).pk)

    playing = client.get("/play/").content.decode()
    assert "in no game yet" not in playing
    assert empty_line(playing) == (
        "You are in no running game. Your 3 finished games are under Finished. Start a new "
        "one: against bots, or with people you know; or join an open table below."
    )
    assert '<a href="?show=finished">Finished</a>' in playing
    assert empty_line(client.get("/play/?show=my-turn").content.decode()) == (
        "No game is waiting for you."
    )
    assert len(cards(client.get("/play/?show=finished").content.decode())) == 3


def test_one_finished_game_is_said_in_the_singular(client, ada, against_bots):
    play_to_end(against_bots(ada).pk)

    assert empty_line(client.get("/play/").content.decode()).startswith(
        "You are in no running game. Your 1 finished game is under Finished."
    )


def test_before_any_game_each_empty_tab_says_what_is_true(client, ada):
    assert empty_line(client.get("/play/").content.decode()).startswith(
        "You are in no game yet. Start one"
    )
    assert empty_line(client.get("/play/?show=my-turn").content.decode()) == (
        "No game is waiting for you."
    )
    assert empty_line(client.get("/play/?show=finished").content.decode()) == (
        "No finished games yet."
    )


def test_a_game_waiting_for_me_says_your_turn_with_the_clock(client, ada, against_bots):
    game = against_bots(ada, turn_seconds=3 * 3600)
    assert game.to_act == [0]
    deadline = Seat.objects.get(game=game, number=0).deadline_at

    with time_machine.travel(deadline - datetime.timedelta(hours=2, minutes=13, seconds=30)):
        html = client.get("/play/").content.decode()

    (card,) = cards(html)
    assert 'class="game my-turn"' in card
    assert '<strong class="your-turn">Your turn</strong>' in card
    assert "2 h 13 min left</span> for this turn" in card
    assert f'<time datetime="{deadline.isoformat(timespec="seconds")}">' in card
    assert f'href="/games/{game.pk}/"' in card
    assert "Official" in card and "winner takes all to 50 · 7 cards · uno penalty 2" in card
    assert "ada (you)" in card and "greedy" in card and "random" in card
    assert "invited by" not in card


def test_a_game_waiting_for_someone_else_names_them(client, ada, start):
    bob = person("bob")
    game = start(ada, [{"user": "me"}, {"user": "bob"}], seed=None)
    turn_of, other = (ada, bob) if game.to_act == [0] else (bob, ada)

    client.force_login(other)
    waiting = cards(client.get("/play/").content.decode())[0]
    client.force_login(turn_of)
    mine = cards(client.get("/play/").content.decode())[0]

    assert f"Waiting for {turn_of.username}" in waiting and "Your turn" not in waiting
    assert "Your turn" in mine


def test_games_waiting_for_me_come_first(client, ada, against_bots):
    bob = person("bob")
    waiting_for_me = against_bots(ada)
    with time_machine.travel(timezone.now() + datetime.timedelta(minutes=5)):
        # Newer, so listed first if turns did not count: a game where it is bob's turn.
        bobs_turn(ada, bob)

    html = client.get("/play/").content.decode()

    assert [f"Game {waiting_for_me.pk} " in c for c in cards(html)] == [True, False]
    assert bob.username in cards(html)[1]


def test_of_the_games_waiting_for_me_the_turn_that_ends_soonest_comes_first(
    client, ada, against_bots
):
    hour = against_bots(ada, turn_seconds=3600)
    with time_machine.travel(timezone.now() + datetime.timedelta(minutes=5)):
        # Newer, so listed first if the clocks did not count: a turn of a day.
        day = against_bots(ada, turn_seconds=86400)
    bob = person("bob")
    bobs_turn(ada, bob)

    listed = cards(client.get("/play/").content.decode())

    assert [
        f"Game {game.pk} " in card for card, game in zip(listed, [hour, day], strict=False)
    ] == [
        True,
        True,
    ]
    assert len(listed) == 3 and "Waiting for bob" in listed[2]


def test_the_tabs_filter_playing_my_turn_and_finished(client, ada, against_bots):
    mine = against_bots(ada)
    theirs = bobs_turn(ada, person("bob"))
    finished = against_bots(ada)
    play_to_end(finished.pk)

    def listed(tab: str) -> set[int]:
        html = client.get(f"/play/?show={tab}").content.decode()
        return {int(n) for n in re.findall(r'<a class="game-link" href="/games/(\d+)/"', html)}

    my_turn = {mine.pk}
    assert listed("playing") == {mine.pk, theirs.pk}
    assert listed("my-turn") == my_turn
    assert listed("finished") == {finished.pk}
    assert listed("nonsense") == {mine.pk, theirs.pk}
    page = client.get("/play/?show=finished").content.decode()
    assert 'href="?show=finished" aria-current="page"' in page
    assert f'My turn <span class="count">{len(my_turn)}</span>' in page
    assert "Finished" in cards(page)[0] and "winner" in cards(page)[0]


def test_another_persons_invitation_appears(client, ada, start):
    bob = person("bob")
    game = start(bob, [{"user": "me"}, {"user": "ada"}, {"bot": "greedy"}], seed=None)

    (card,) = cards(client.get("/play/").content.decode())

    assert f"Game {game.pk} " in card
    assert '<span class="badge">invited by bob</span>' in card
    client.force_login(bob)
    assert "invited by" not in client.get("/play/").content.decode()


def scores_in(card: str) -> list[int]:
    return [int(s) for s in re.findall(r'<span class="score">(\d+)</span>', card)]


def test_scores_come_from_the_read_models_when_they_are_current(client, ada, against_bots):
    game = against_bots(ada)
    finished = against_bots(ada)
    play_to_end(finished.pk)
    projections.run("game-summaries")
    projections.run("game-results")
    # Marked, so the page shows where its numbers came from.
    GameSummary.objects.filter(game=game).update(scores=[7, 8, 9])
    MatchResult.objects.filter(game=finished).update(scores=[1, 2, 3], winner=2)

    (playing,) = cards(client.get("/play/").content.decode())
    (done,) = cards(client.get("/play/?show=finished").content.decode())

    assert scores_in(playing) == [7, 8, 9]
    assert scores_in(done) == [1, 2, 3]
    assert re.search(r"random <span class=\"muted\">bot</span> <span class=\"badge\">winner", done)


def test_a_stale_summary_gives_way_to_the_game_itself(client, ada, against_bots):
    game = against_bots(ada)
    projections.run("game-summaries")
    GameSummary.objects.filter(game=game).update(scores=[7, 8, 9], version=game.version - 1)

    (card,) = cards(client.get("/play/").content.decode())

    assert scores_in(card) == game_view(game_id=game.pk, viewer=ada)["scores"]


def test_bots_of_one_name_are_told_apart_as_on_the_play_page(client, ada, start):
    game = start(ada, [{"user": "me"}, {"bot": "greedy"}, {"bot": "greedy"}, {"bot": "greedy"}])
    assert game.to_act == [0]

    (card,) = cards(client.get("/play/").content.decode())

    # As the play page names them (web/names.py): each greedy with its seat, counted from 1
    # (the log's seats 1 to 3 are the table's second to fourth).
    for number in (2, 3, 4):
        assert f'greedy (seat {number}) <span class="muted">bot</span>' in card
    assert card.count("greedy") == 3


def text_of(html: str) -> str:
    """A card's words, its tags dropped and its spaces squeezed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_practice_matches_i_watch_are_listed_after_my_games_with_a_link_to_watch(
    client, ada, against_bots, start
):
    """A practice match (games/lobby.py game_start: bots alone, ada in no seat) is found again
    in her lobby's Playing tab, said to be one of her bots, with a Watch link; one that is over,
    and someone else's, are not listed there."""
    mine = Bot.objects.create(
        owner=ada, name="annabot", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
    )
    other = Bot.objects.create(
        owner=ada, name="bobbot", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
    )
    played = against_bots(ada)
    # Her pull bots have not answered: the matches wait for them.
    one = start(ada, [{"bot_id": mine.pk}, {"bot": "greedy"}], seed=None)
    two = start(ada, [{"bot": "greedy"}, {"bot_id": mine.pk}, {"bot_id": other.pk}], seed=None)
    over = start(ada, [{"bot_id": mine.pk}, {"bot": "greedy"}], seed=None)
    Game.objects.filter(pk=over.pk).update(status=Game.Status.MATCH_OVER)
    ben = person("ben")
    bens = Bot.objects.create(owner=ben, name="benbot", kind=Bot.Kind.PULL, status="active")
    start(ben, [{"bot_id": bens.pk}, {"bot": "greedy"}], seed=None)

    found = cards(client.get("/play/").content.decode())

    assert [re.search(r"Game (\d+)", card).group(1) for card in found] == [
        str(played.pk),
        str(two.pk),
        str(one.pk),
    ]
    assert "Practice match" not in found[0]
    assert (
        "Practice match of your bots annabot and bobbot: you watch them play from no seat. "
        "Nobody’s rating moves and it counts for no record."
    ) in text_of(found[1])
    assert ("Practice match of your bot annabot: you watch it play from no seat.") in text_of(
        found[2]
    )
    assert f'href="/games/{one.pk}/" aria-label="Watch game {one.pk}">Watch</a>' in found[2]
    assert "(you)" not in found[2] and "Waiting for annabot" in text_of(found[2])
    # Not on the tab of the games waiting for her: she has no turn in them.
    assert len(cards(client.get("/play/?show=my-turn").content.decode())) == 1


def test_practice_matches_alone_are_no_empty_playing_tab(client, ada, start):
    mine = Bot.objects.create(
        owner=ada, name="annabot", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
    )
    game = start(ada, [{"bot_id": mine.pk}, {"bot": "greedy"}], seed=None)

    html = client.get("/play/").content.decode()

    assert "You are in no" not in html
    (card,) = cards(html)
    assert f"Game {game.pk}" in card and "Practice match" in card
