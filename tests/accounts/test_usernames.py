"""Look-alike usernames (accounts/usernames.py): a name whose TR39 skeleton is a taken name's is
refused however the User is saved (the admin's forms, a save in code, two sign-ups at once),
and people who already held look-alike names keep them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts import services
from accounts.models import UsernameSkeleton
from accounts.usernames import LookAlikeUsername, folded_skeleton, username_skeleton

pytestmark = pytest.mark.django_db

CYRILLIC_ALICE = "\u0430lice"


def test_the_skeleton_is_icus_tr39_skeleton():
    assert username_skeleton(CYRILLIC_ALICE) == username_skeleton("alice") == "alice"
    assert username_skeleton("martin") == username_skeleton("rnartin")
    assert username_skeleton("bob1") == username_skeleton("bobl") == username_skeleton("bobI")
    assert username_skeleton("alice") != username_skeleton("alicia")


def test_a_look_alike_saved_in_code_is_refused_and_writes_nothing():
    alice = User.objects.create_user("alice")
    assert UsernameSkeleton.objects.get(user=alice).skeleton == "alice"

    with pytest.raises(LookAlikeUsername) as refused, transaction.atomic():
        User.objects.create_user(CYRILLIC_ALICE)
    assert refused.value.code == "username-look-alike"
    with pytest.raises(LookAlikeUsername), transaction.atomic():
        services.sign_up(
            username=CYRILLIC_ALICE, email="a@example.org", password="x", birth_date=None
        )
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


def test_a_rename_keeps_the_skeleton_and_frees_the_old_one():
    bob = User.objects.create_user("bob")
    bob.username = "robert"
    bob.save()

    assert UsernameSkeleton.objects.get(user=bob).skeleton == "robert"
    User.objects.create_user("b\u043eb")  # Cyrillic о: "bob" is free again
    with pytest.raises(LookAlikeUsername), transaction.atomic():
        User.objects.create_user("r\u043ebert")


def test_the_unique_index_refuses_a_look_alike_the_check_did_not_see():
    # As if another request had inserted "alice" between this one's check and its insert.
    User.objects.create_user("alice")
    UsernameSkeleton.objects.all().delete()
    other = User.objects.create_user("zed")
    UsernameSkeleton.objects.filter(user=other).update(skeleton="alice")

    with pytest.raises(LookAlikeUsername) as refused, transaction.atomic():
        User.objects.create_user(CYRILLIC_ALICE)
    assert refused.value.taken == "zed"
    assert not User.objects.filter(username=CYRILLIC_ALICE).exists()


def test_people_who_held_look_alike_names_before_keep_them():
    alice = User.objects.create_user("alice")
    UsernameSkeleton.objects.all().delete()
    older = User.objects.create_user(CYRILLIC_ALICE)
    alice.set_password("new-password-2026")
    alice.save()
    alice.save(update_fields=["last_login"])

    assert UsernameSkeleton.objects.get().user == older


@pytest.fixture
def admin_client(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    return client


def test_the_admin_refuses_a_look_alike_new_name_or_rename(admin_client):
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")

    added = admin_client.post(
        reverse("admin:auth_user_add"),
        {"username": CYRILLIC_ALICE, "usable_password": "false"},
    )
    renamed = admin_client.post(
        reverse("admin:auth_user_change", args=[bob.pk]),
        {"username": "aIice", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"},
    )

    for page in (added, renamed):
        assert page.status_code == 200
        assert "looks the same as the existing username “alice”" in page.content.decode()
    assert set(User.objects.values_list("username", flat=True)) == {"alice", "bob", "root"}
    assert UsernameSkeleton.objects.get(user=alice).skeleton == "alice"


def test_a_look_alike_once_case_is_ignored_is_refused_by_the_check_and_by_the_index():
    # Names are unique whatever their case ("ALICE" is refused beside "alice"), so a look-alike of
    # another case is one too (issue 28's review: "АLICE", a Cyrillic А, was accepted).
    User.objects.create_user("alice")
    with pytest.raises(LookAlikeUsername):
        User.objects.create_user("\u0410LICE")
    assert folded_skeleton("\u0410LICE") == folded_skeleton("alice")
    bob = User.objects.create_user("bob")
    row = UsernameSkeleton.objects.get(user=bob)
    row.folded = folded_skeleton("ALICE")
    with pytest.raises(IntegrityError), transaction.atomic():
        row.save()
    assert list(User.objects.order_by("pk").values_list("username", flat=True)) == ["alice", "bob"]
