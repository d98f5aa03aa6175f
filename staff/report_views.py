"""The staff console's reports queue (/staff/reports/): every open report of a table message or
a board post, with its text (a hidden one's too), where it was said, who reported it and why;
and the answers, each a POST with a reason (staff/moderation.py audits them): Hide, Dismiss,
Restrict the author for some hours. Staff only: anyone else gets a 404."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from chat import moderation as chat_moderation
from frontdoor.errors import status_for
from games.errors import GameError
from staff import moderation
from staff.access import staff_only
from staff.actions import REASON_LENGTH
from staff.models import AuditEntry

# The newest moderation entries shown under the queue.
HISTORY = 20


class AnswerForm(forms.Form):
    reason = forms.CharField(max_length=REASON_LENGTH, required=False)
    hours = forms.IntegerField(
        min_value=1, max_value=chat_moderation.MAX_RESTRICTION_HOURS, required=False
    )


@staff_only
@require_GET
def queue(request: HttpRequest) -> HttpResponse:
    return _page(request)


def _page(request: HttpRequest, status: int = 200) -> HttpResponse:
    rows = []
    for found in chat_moderation.open_reports():
        item = found.message or found.post
        readable = moderation.readable(found, request.user)
        if found.message is not None:
            where = f"game {found.message.game_id}, the {found.message.channel}' channel"
            link = reverse("staff:game", args=[found.message.game_id])
        else:
            assert found.post is not None
            where = f"the board of {found.post.club.name}"
            link = f"/clubs/{found.post.club.slug}/"
        rows.append(
            {
                "report": found,
                "item": item,
                "text": item.text if readable and item is not None else None,
                "readable": readable,
                "where": where,
                "link": link,
            }
        )
    history = AuditEntry.objects.filter(
        action__in=[moderation.HIDE_MESSAGE, moderation.DISMISS_REPORT, moderation.RESTRICT_CHAT]
    ).select_related("actor")[:HISTORY]
    context = {"rows": rows, "history": history}
    return render(request, "staff/reports.html", context, status=status)


@staff_only
@require_POST
def answer(request: HttpRequest, report_id: int, action: str) -> HttpResponse:
    """Hide, dismiss or restrict (`action`), then back to the queue with what was done."""
    if action not in ("hide", "dismiss", "restrict"):
        raise Http404(f"no action {action!r}")
    form = AnswerForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Hours from 1 to 2160, a reason of at most 500 characters.")
        return _page(request, status=400)
    reason = form.cleaned_data["reason"] or ""
    try:
        if action == "hide":
            moderation.hide(report_id=report_id, user=request.user, reason=reason)
            done = f"Report {report_id}: the message is hidden."
        elif action == "dismiss":
            moderation.dismiss(report_id=report_id, user=request.user, reason=reason)
            done = f"Report {report_id} dismissed."
        else:
            hours = form.cleaned_data["hours"] or 24
            entry = moderation.restrict(
                report_id=report_id, user=request.user, hours=hours, reason=reason
            )
            done = f"{entry.details['author']} may not chat for {hours} h."
    except GameError as error:
        messages.error(request, f"{error.message} ({error.code})")
        return _page(request, status=status_for(error))
    messages.success(request, done)
    return redirect("staff:reports")
