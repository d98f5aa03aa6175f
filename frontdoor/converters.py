"""The path converter for ids (`<id:game_id>`), in every URL that names a row by its id: the
digits of a whole number the database's ids can hold (PostgreSQL's bigint: at most 2^63 - 1).
Django's own `int` takes any number of digits, and a larger one reached the database as an
overflow (a 500); here it matches no URL, so the caller gets the site's 404 (under /api/, the
JSON `not_found` with a hint: api/views.py)."""

from __future__ import annotations

from django.urls import register_converter

# The largest id a row can have (a bigint), and so the largest a URL names.
LARGEST_ID = 2**63 - 1


class IdConverter:
    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > LARGEST_ID:
            raise ValueError(f"{value} is past the largest id")  # no match: a 404
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
