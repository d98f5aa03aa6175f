"""Registered bots that play from elsewhere: tokens, stats and strikes, webhook turns, pull
turns, validation. A registered built-in bot plays in-process like any built-in seat;
docs/workers.md describes the protocols."""
