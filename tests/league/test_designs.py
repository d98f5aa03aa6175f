"""league.designs: in every design each round seats each member once at full tables, and no
pair meets twice; in a resolvable one every pair meets exactly once."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from league.designs import affine_plane, circle, packing, resolvable

SIZES = [(n, k) for k in range(2, 11) for n in range(k, 41)]


def meetings(design: list[list[list[int]]], members: int, table_size: int) -> Counter:
    met: Counter = Counter()
    for tables in design:
        seated = [m for table in tables for m in table]
        assert all(len(table) == table_size for table in tables)
        assert len(seated) == len(set(seated))
        assert set(seated) <= set(range(members))
        # Everyone plays, but for the circle method's odd numbers: one sits out.
        assert len(seated) == members - (members % 2 if table_size == 2 else 0)
        for table in tables:
            met.update(combinations(sorted(table), 2))
    return met


@pytest.mark.parametrize(("members", "table_size"), SIZES)
def test_a_resolvable_design_meets_every_pair_exactly_once(members, table_size):
    design = resolvable(members, table_size)
    if design is None:
        return
    met = meetings(design, members, table_size)
    assert set(met.values()) == {1}
    assert len(met) == members * (members - 1) // 2


@pytest.mark.parametrize(("members", "table_size"), SIZES)
def test_a_packing_meets_no_pair_twice(members, table_size):
    design = packing(members, table_size)
    if design is None:
        return
    assert table_size > 2
    assert set(meetings(design, members, table_size).values()) == {1}


@pytest.mark.parametrize(
    ("members", "table_size", "rounds"),
    [(9, 3, 4), (15, 3, 7), (21, 3, 10), (27, 3, 13), (33, 3, 16), (39, 3, 19)]
    + [(16, 4, 5), (28, 4, 9), (25, 5, 6), (10, 2, 9), (11, 2, 11), (6, 6, 1)],
)
def test_these_numbers_have_a_resolvable_design(members, table_size, rounds):
    design = resolvable(members, table_size)
    assert design is not None
    assert len(design) == rounds


@pytest.mark.parametrize(
    ("members", "table_size", "rounds"),
    [(24, 4, 7), (12, 3, 4), (20, 4, 5), (24, 3, 8), (32, 4, 8), (35, 5, 7), (40, 5, 8)],
)
def test_these_numbers_have_a_packing(members, table_size, rounds):
    design = packing(members, table_size)
    assert design is not None
    assert len(design) == rounds


@pytest.mark.parametrize("order", [3, 4, 5, 7, 8, 9, 11, 13])
def test_the_affine_planes_of_each_field_meet_every_pair_once(order):
    """The field tables are right, or some pair would meet twice."""
    met = meetings(affine_plane(order), order * order, order)
    assert set(met.values()) == {1}
    assert len(met) == order * order * (order * order - 1) // 2


def test_the_circle_method_seats_the_member_who_meets_the_phantom_out():
    assert circle(3) == [[[1, 2]], [[2, 0]], [[0, 1]]]
