"""What connects people outside a game: the notification centre (the bell) and follows."""
