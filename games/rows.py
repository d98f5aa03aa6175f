"""Hot reads in plain SQL, built into model instances as the ORM builds them.

Every command and view reads a few rows by key (the token's person or bot, the game and its
seats). The ORM compiles each queryset's SQL again on every call, and for these small reads the
compiling costs more than the query (issue 16's profile of gunicorn: a third of a request's
Python). Here the SQL is written once per query, from the models' own columns, and the rows are
turned into instances with the same converters and `Model.from_db` the ORM's iterator uses, with
the joined rows cached on them as `select_related` caches them; the instances are the ORM's
own, and everything read from them later behaves as usual.

Only the front doors' hottest reads come here; everything else stays on the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar, cast

from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

from games import prepared

Converter = Callable[[Any, Any, Any], Any]
_M = TypeVar("_M", bound=Model)


@dataclass(frozen=True, slots=True)
class Table:
    """A model's concrete columns under an alias in one SELECT."""

    model: type[Model]
    alias: str

    def columns(self) -> str:
        """The SELECT list of the model's columns, in field order."""
        quote = connection.ops.quote_name
        return ", ".join(
            f"{self.alias}.{quote(field.column)}" for field in self.model._meta.concrete_fields
        )

    def width(self) -> int:
        return len(self.model._meta.concrete_fields)


class Part(NamedTuple):
    """One table's part of a row."""

    model: type[Model]
    attnames: list[str]
    width: int
    # The columns that have converters: (index, converters, the column expression they are
    # called with).
    converted: list[tuple[int, list[Converter], Any]]
    # The index of its primary key among its columns.
    pk: int


class Select(Generic[_M]):
    """One SELECT of one or more tables' columns (Table.columns, in the order given), whose
    rows `fetch` builds into instances of the first table's model, each later table's instance
    cached on the first under its name in `relations`, as select_related caches it (seat.game,
    seat.user). A LEFT JOIN that found no row (its primary key NULL) is cached as None, and a
    joined row that several rows share is built once: the game of every seat a fetch reads is
    one Game instance, its JSON decoded once. `_M` is the first table's model (declared where
    a Select is made: `_SEATS_OF: rows.Select[Seat] = rows.Select(...)`)."""

    def __init__(self, sql: str, tables: Sequence[Table], relations: Sequence[str] = ()) -> None:
        if len(relations) != len(tables) - 1:
            raise ValueError("one relation name for each joined table")
        self.tables = tuple(tables)
        self.relations = tuple(relations)
        self._template = sql
        # Per database vendor: the SQL and each table's part (the converters differ: JSON
        # fields, booleans and dates on SQLite), as the ORM's compiler would find them.
        self._built: dict[str, tuple[str, list[Part]]] = {}

    def _build(self, db: BaseDatabaseWrapper) -> tuple[str, list[Part]]:
        found = self._built.get(db.vendor)
        if found is None:
            parts: list[Part] = []
            for table in self.tables:
                fields = table.model._meta.concrete_fields
                converted = []
                for index, field in enumerate(fields):
                    field = cast(Any, field)
                    col = field.get_col(table.alias)
                    functions = db.ops.get_db_converters(col)
                    functions += field.get_db_converters(db)
                    if functions:
                        converted.append((index, functions, col))
                attnames = [field.attname for field in fields]
                pk = fields.index(table.model._meta.pk)
                parts.append(Part(table.model, attnames, len(fields), converted, pk))
            columns = {f"{table.alias}_columns": table.columns() for table in self.tables}
            found = (self._template.format(**columns), parts)
            self._built[db.vendor] = found
        return found

    def fetch(self, params: Sequence[Any]) -> list[_M]:
        """Every row's instance (the first table's model, the joined ones cached on it)."""
        # The wrapper itself, not Django's proxy of it, which looks it up again at every use.
        db = prepared.default_db()
        sql, parts = self._build(db)
        # Parsed and planned once per connection on PostgreSQL (games/prepared.py).
        rows = prepared.fetch(db, sql, params)
        joined: dict[tuple[int, Any], Model] = {}
        return [self._instance(row, parts, db, joined) for row in rows]

    def first(self, params: Sequence[Any]) -> _M | None:
        """The first row's instance, or None."""
        found = self.fetch(params)
        return found[0] if found else None

    def _instance(
        self,
        row: Sequence[Any],
        parts: list[Part],
        db: BaseDatabaseWrapper,
        joined: dict[tuple[int, Any], Model],
    ) -> _M:
        """The row's instance of the first table, with each joined table's cached on it: the
        instance already built for the same joined row in this fetch (`joined`, by table and
        primary key), or None where a LEFT JOIN found no row."""
        first = cast(_M, _model(row, 0, parts[0], db))
        start = parts[0].width
        for number, (name, part) in enumerate(zip(self.relations, parts[1:], strict=True), 1):
            pk = row[start + part.pk]
            related = None
            if pk is not None:
                related = joined.get((number, pk))
                if related is None:
                    related = joined[number, pk] = _model(row, start, part, db)
            # Where select_related leaves a joined row (Django's private _state.fields_cache,
            # where `seat.game` looks first). The public `setattr(first, name, related)` goes
            # through the descriptor's checks: 1.13 µs a relation against 0.05 µs, six a game
            # read (docs/performance.md, "Django's private attributes"). tests/games/test_rows.py
            # pins that the joined rows answer from here, without a query.
            first._state.fields_cache[name] = related
            start += part.width
        return first


def _model(row: Sequence[Any], start: int, part: Part, db: BaseDatabaseWrapper) -> Model:
    """One table's instance from its columns of `row`, from `start` on, as the ORM builds it."""
    model, attnames, width, converted, _ = part
    values = list(row[start : start + width])
    for index, functions, col in converted:
        value = values[index]
        for function in functions:
            value = function(value, col, db)
        values[index] = value
    return model.from_db(db.alias, attnames, values)
