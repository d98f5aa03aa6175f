"""Admin pages for leagues (none until the models exist)."""

from __future__ import annotations
