"""The Celery app; its settings are the CELERY_* names in config/settings.py."""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import worker_init
from django.conf import settings

from games import metrics

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds tasks.py in every installed app (games/tasks.py, league/tasks.py).
app.autodiscover_tasks()


@worker_init.connect
def serve_metrics(**_: object) -> None:
    """A worker's own metrics (its webhook calls, its appends) on METRICS_WORKER_PORT, served by
    the main process from a thread; with the prefork pool the children's counts reach it only
    through PROMETHEUS_MULTIPROC_DIR (docs/operations.md)."""
    if settings.METRICS_WORKER_PORT:
        metrics.serve(settings.METRICS_WORKER_PORT)
