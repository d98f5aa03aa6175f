"""Signing in (`/accounts/login/`): Django's own view and form, and one addition for scripts. A
browser's refused sign-in gets the form again with its error (200), as ever; a caller that asks
for JSON (web/lockout.py `wants_json`: `Accept: application/json`) gets 400 `invalid-login` in
the API's error shape instead, so that `curl --fail-with-body` stops there rather than going on
with no session. A right password is the same 302 for both.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.http import HttpResponse, JsonResponse

from web.lockout import wants_json

# What a refused sign-in is told, on the page and in JSON: which of the two was wrong is not said.
REFUSED = "Your username and password did not match. Please try again."


class SignIn(LoginView):
    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "refused": REFUSED}

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        if wants_json(self.request):
            return JsonResponse({"code": "invalid-login", "message": REFUSED}, status=400)
        return super().form_invalid(form)
