"""config/wsgi.py: a web process imports its views at once and freezes what it loaded, so the
collector's full passes walk only what requests made since (docs/performance.md, "API")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Whether the views' module namespaces are still in the collector's generations (the frozen
# ones are not), and how many objects are frozen.
LOAD = (
    "import gc, sys; import config.wsgi, api.views, web.views; "
    "tracked = {id(o) for o in gc.get_objects()}; "
    "print(gc.get_freeze_count(), id(vars(api.views)) in tracked, id(vars(web.views)) in tracked, "
    "callable(config.wsgi.application))"
)


def test_loading_the_wsgi_application_imports_the_views_and_freezes_them():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "1"}
    done = subprocess.run(
        [sys.executable, "-c", LOAD], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    frozen, api_views, web_views, application = done.stdout.split()
    # The code's objects (about 120,000 here) are out of the collector's generations, the views
    # (imported by the URL configuration before the freeze) among them.
    assert int(frozen) > 50_000
    assert (api_views, web_views, application) == ("False", "False", "True")
