"""Fixtures the site's tests share."""

from __future__ import annotations

import pytest

from clocks import presence


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks, settings):
    """Run work with the append listeners (the dispatcher, the bots, the notices, the emails)
    on commit, links made on SITE_URL."""
    settings.SITE_URL = "https://uno.example.org"
    # An absent person's turns are played by the default bot at each deadline: never forfeited.
    settings.GAMES_TIMEOUTS_TO_FORFEIT = 10_000
    presence.forget_writes()

    def run(work, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return work(*args, **kwargs)

    return run
