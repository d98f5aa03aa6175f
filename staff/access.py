"""Who may see the staff console: staff only; everyone else gets a 404, as if it did not exist
(an operator's console is nobody else's business, not even its address)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse


def staff_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A view for active staff members; anyone else (signed out included) gets a 404."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user = request.user
        if not (user.is_authenticated and user.is_active and user.is_staff):
            raise Http404("no such page")
        return view(request, *args, **kwargs)

    return wrapper
