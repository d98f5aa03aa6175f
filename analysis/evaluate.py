"""Evaluating a finished match's decisions and luck from each seat's information: pure Python.

Placeholder for the analysis core (issue 35): `analyse_match` is built here.
"""

from __future__ import annotations

from analysis.report import MatchAnalysis

__all__ = ["MatchAnalysis"]
