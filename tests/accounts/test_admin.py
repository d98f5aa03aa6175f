"""accounts admin: profiles edited (the birth date), personal tokens listed by their prefix and
revoked by deleting them, their hash never shown."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from accounts.models import PersonalToken, Profile
from accounts.services import token_issue

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, django_user_model):
    user = django_user_model.objects.create_superuser("admin", password="pw")
    client.force_login(user)
    return client


def test_a_profiles_birth_date_is_edited_and_its_person_kept(staff, django_user_model):
    ana = django_user_model.objects.create_user("ana")
    profile = Profile.objects.create(user=ana)
    other = django_user_model.objects.create_user("bea")

    response = staff.post(
        reverse("admin:accounts_profile_change", args=[profile.pk]),
        {"birth_date": "2001-02-03", "user": other.pk},
    )

    assert response.status_code == 302
    profile.refresh_from_db()
    assert (profile.user, profile.birth_date) == (ana, datetime.date(2001, 2, 3))


def test_a_personal_token_shows_its_prefix_never_its_hash(staff, django_user_model):
    ana = django_user_model.objects.create_user("ana")
    key = token_issue(user=ana)
    token = PersonalToken.objects.get()

    pages = [
        staff.get(reverse("admin:accounts_personaltoken_changelist")),
        staff.get(reverse("admin:accounts_personaltoken_change", args=[token.pk])),
    ]
    by_hash = staff.get(reverse("admin:accounts_personaltoken_changelist"), {"q": token.key_hash})

    for page in pages:
        html = page.content.decode()
        assert token.prefix in html
        assert token.key_hash not in html
        assert key not in html
    assert by_hash.context["cl"].result_count == 0
    assert staff.get(reverse("admin:accounts_personaltoken_add")).status_code == 403
    staff.post(reverse("admin:accounts_personaltoken_delete", args=[token.pk]), {"post": "yes"})
    assert not PersonalToken.objects.exists()
