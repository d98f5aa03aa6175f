"""Project configuration: settings, URLs, the Celery app, WSGI and ASGI entry points."""

from __future__ import annotations

# Loaded with Django so that `@shared_task` binds to this app (Celery's Django recipe).
from config.celery import app as celery_app

__all__ = ["celery_app"]
