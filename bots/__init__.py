"""Bots: the built-in strategies (pure), the driver that plays them, registered bots
(webhook and pull), their validation and the runs of bot turns the workers play."""
