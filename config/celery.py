"""The Celery app; its settings are the CELERY_* names in config/settings.py."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds tasks.py in every installed app (games/tasks.py, league/tasks.py).
app.autodiscover_tasks()
