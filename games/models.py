"""Game streams: Game (the stream row), GameEvent (append-only), Seat and checkpoints.

No models yet; DESIGN.md ("The event store") describes what comes here.
"""

from __future__ import annotations
