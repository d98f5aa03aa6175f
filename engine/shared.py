"""Read-only dicts and lists: the commands a listing hands out and the events a quick step emits
are made once and shared by every game of the process (docs/engine.md, "Shared commands and
events").

A usual listed command or event (a seat's play of a card, its draw, the turn given to a seat) is
the same value every time it comes. Copying a template for each game cost about a tenth of a
bench game's instructions (the copy and, a step later, its deallocation); sharing one costs
nothing, and a shared value that anybody changed would change it in every game. So a shared
value refuses to be changed: `ReadOnlyDict` and `ReadOnlyList` are a `dict` and a `list` (JSON,
`==`, `isinstance`, `dict(x)`, `x.copy()` and `{**x}` as ever; a copy is a plain, changeable
`dict` or `list`), whose every changing method raises `TypeError`. Pickling or deep-copying one
gives a plain dict or list.

This module is not compiled (tools/build_engine.py): mypyc makes no native subclass of `dict`;
the compiled modules make these once, at import or the first time a card comes.
"""

from __future__ import annotations

import copy
from typing import Any, NoReturn

REFUSAL = (
    "a listed command or an event is shared by every game (engine/shared.py): "
    "change a copy of it (dict(x), list(x)), not the value itself"
)


def _refuse(self: object, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(REFUSAL)


class ReadOnlyDict(dict[str, Any]):
    """A dict that refuses every change (a shared command or event)."""

    __slots__ = ()

    __setitem__ = _refuse
    __delitem__ = _refuse
    __ior__ = _refuse
    clear = _refuse
    pop = _refuse
    popitem = _refuse
    setdefault = _refuse
    update = _refuse

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[dict[str, Any]]]:
        return (dict, (dict(self),))

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {key: copy.deepcopy(value, memo) for key, value in self.items()}


class ReadOnlyList(list[Any]):
    """A list that refuses every change (a shared event's seats or cards)."""

    __slots__ = ()

    __setitem__ = _refuse
    __delitem__ = _refuse
    __iadd__ = _refuse
    __imul__ = _refuse
    append = _refuse
    extend = _refuse
    insert = _refuse
    pop = _refuse
    remove = _refuse
    clear = _refuse
    sort = _refuse
    reverse = _refuse

    def __reduce__(self) -> tuple[type[list[Any]], tuple[list[Any]]]:
        return (list, (list(self),))

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return [copy.deepcopy(value, memo) for value in self]
