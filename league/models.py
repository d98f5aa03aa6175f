"""League models: Club, Season, Division, Fixture, Ladder, entries and read models.

No models yet; DESIGN.md ("Layout" and "Projections") describes what comes here.
"""

from __future__ import annotations
