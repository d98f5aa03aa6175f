"""Games' seeds that nobody outside the site can compute: keyed with SECRET_KEY."""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings


def keyed_seed(label: str) -> str:
    """A game's seed derived from `label` ("validation:12:3:0") and the site's SECRET_KEY:
    the same for the same label (a task run twice deals the same game), but nobody who knows
    the label (a bot's owner, a season's public draw seed) can compute the cards. The seed is
    published with the log after the match (docs/verifying-deals.md)."""
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, label.encode(), hashlib.sha256).hexdigest()[:16]
