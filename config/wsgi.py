"""WSGI entry point (gunicorn config.wsgi).

Loading it also readies the process for Python's cyclic garbage collector. Django imports the
URL configuration, and with it every view, only on the first request; here it is imported at
once, and then everything loaded so far leaves the collector's generations (`gc.freeze`). A full
collection holds the interpreter, so every request of the process waits for it. It used to walk
the 125,000 objects of the code on every pass; now it walks only what requests made since. In
bench/api.py's gunicorn processes, its pauses went from 107-152 ms to 18-39 ms
(docs/performance.md, "API", "Fourth pass"). Objects freed by their reference counts are freed
as before; only a cycle already garbage at the freeze stays.
"""

from __future__ import annotations

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

get_resolver().url_patterns  # noqa: B018  (imports the URL configuration and every view)
gc.collect()
gc.freeze()
