"""The tables of this app (filled in by its models)."""

from __future__ import annotations
