"""The home page on a phone (360 x 740), the first screen a newcomer sees (docs/web.md, "The home
page"): a way to sign up (or, signed in, to play) is on it without scrolling, not only behind
"Menu"; and signing in from the sign-in page lands on the lobby."""

from __future__ import annotations

import pytest

from tests.games.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def in_view(page, locator) -> bool:
    """Whether the element is shown and wholly inside the first screen, the page unscrolled."""
    box = locator.bounding_box()
    return (
        locator.is_visible()
        and box is not None
        and box["y"] >= 0
        and box["x"] >= 0
        and box["y"] + box["height"] <= PHONE["height"]
        and box["x"] + box["width"] <= PHONE["width"]
    )


def test_a_newcomer_sees_sign_up_on_the_first_screen_and_it_leads_to_the_form(open_page):
    page = open_page(None, "/", **PHONE)
    calls = page.get_by_role("main").get_by_role("link", name="Sign up")
    assert calls.count() == 1
    assert in_view(page, calls), calls.bounding_box()
    # And "Sign in" beside it, for whoever has an account already.
    assert in_view(page, page.get_by_role("main").get_by_role("link", name="Sign in"))
    calls.click()
    page.wait_for_url("**/accounts/signup/")
    assert page.get_by_role("heading", level=1).inner_text().strip() != ""


def test_a_person_signed_in_sees_play_on_the_first_screen(open_page):
    page = open_page(make_user("home-phone"), "/", **PHONE)
    play = page.get_by_role("main").get_by_role("link", name="Play")
    assert play.count() == 1
    assert in_view(page, play), play.bounding_box()
    assert page.get_by_role("main").get_by_role("link", name="Sign up").count() == 0
    play.click()
    page.wait_for_url("**/play/")


def test_signing_in_lands_on_the_lobby(open_page):
    person = make_user("home-signin")
    person.set_password("a-long-password-1")
    person.save()
    page = open_page(None, "/accounts/login/", **PHONE)
    page.get_by_label("Username").fill("home-signin")
    page.get_by_label("Password").fill("a-long-password-1")
    page.get_by_role("main").get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/play/")
    assert page.url.endswith("/play/")
