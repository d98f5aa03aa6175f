"""The server-rendered pages for people; templates live in templates/."""
