"""Admin pages for games (none until the models exist)."""

from __future__ import annotations
