"""WSGI entry point (gunicorn config.wsgi).

Loading it also readies the process for Python's cyclic garbage collector. Django imports the
URL configuration, and with it every view, only on the first request; here it is imported at
once, collected, and then everything loaded so far leaves the collector's generations
(`gc.freeze`). A full collection holds the interpreter, so every request of the process waits
for it; it used to walk the 125,000 objects of the code on every full pass, and now walks only
what requests made since. In bench/api.py's gunicorn processes its pauses went from 107-152 ms
to 18-39 ms (docs/performance.md, "API", "What made the difference"). Frozen objects are never
scanned again: a reference cycle among them that becomes garbage later (a cache of the code's
cleared, say) stays, where one freed by its reference counts is freed as before. Only the
servers import this module (gunicorn, and runserver through WSGI_APPLICATION); `manage.py arena`
builds Django's handler itself, so as not to freeze its process.
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
