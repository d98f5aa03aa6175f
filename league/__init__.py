"""Leagues: clubs, seasons, divisions, fixtures, ladders, standings and ratings."""
