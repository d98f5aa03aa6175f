"""Designs: rounds of tables in which no pair of members shares a table twice.

Pure Python, no Django. A design is a list of parallel classes, each a round: tables that seat
every member once (all but one, for the circle method's odd numbers). `resolvable` gives the
designs in which every pair meets exactly once, `packing` some in which pairs meet at most
once, in fewer rounds. league/scheduling.py draws from them where the numbers have one and
searches otherwise (league/fixture_search.py); docs/leagues.md, "Fixtures".
"""

from __future__ import annotations

from math import comb

Design = list[list[list[int]]]  # parallel classes of tables of members


def resolvable(members: int, table_size: int) -> Design | None:
    """A design in which every pair meets exactly once, if one of those below fits."""
    if table_size == 2:
        return circle(members)
    if members == table_size:
        return [[list(range(members))]]
    if members == table_size**2 and table_size in _FIELDS:
        return affine_plane(table_size)
    if (members, table_size) in _CYCLIC:
        design = cyclic(members, table_size)
        if len(design) * len(design[0]) * comb(table_size, 2) == comb(members, 2):
            return design
    return None


def packing(members: int, table_size: int) -> Design | None:
    """Rounds in which no pair meets twice, though not every pair meets, for numbers that
    `resolvable` has nothing for: a cyclic design, or a transversal design."""
    if resolvable(members, table_size) is not None:
        return None
    if (members, table_size) in _CYCLIC:
        return cyclic(members, table_size)
    return transversal(members, table_size)


def circle(members: int) -> Design:
    """A round robin by the circle method: one member stays put, the others move one place a
    round; an odd number gets a phantom member, and whoever meets it sits out. n-1 rounds for
    an even n, n for an odd n."""
    n = members + members % 2
    phantom = n - 1
    classes = []
    for r in range(n - 1):
        ring = [(r + i) % (n - 1) for i in range(n - 1)]
        pairs = [[ring[0], phantom]] + [[ring[i], ring[n - 1 - i]] for i in range(1, n // 2)]
        classes.append([pair for pair in pairs if members % 2 == 0 or phantom not in pair])
    return classes


def affine_plane(q: int) -> Design:
    """The affine plane of order q (a prime power): q*q members, the points (x, y) of the
    field's plane as member x*q + y; a parallel class per slope s (the lines y = s*x + c) and
    one of the vertical lines. q+1 rounds."""
    add, mul = _FIELDS[q]
    classes = [[[x * q + add[mul[s][x]][c] for x in range(q)] for c in range(q)] for s in range(q)]
    classes.append([[x * q + y for y in range(q)] for x in range(q)])
    return classes


def transversal(members: int, table_size: int) -> Design | None:
    """A resolvable transversal design: for members = table_size * q, q a prime power of at
    least table_size, the affine plane of order q on table_size of its vertical lines (member
    x*q + y). q rounds; members of different lines meet once, of one line never."""
    q, rest = divmod(members, table_size)
    if rest or q < table_size or q not in _FIELDS:
        return None
    add, mul = _FIELDS[q]
    return [
        [[x * q + add[mul[s][x]][c] for x in range(table_size)] for c in range(q)] for s in range(q)
    ]


# Cyclic designs. A point `x_l` is x in Z_m on level l, member l*m + x; `oo0`, `oo1`, ... are
# members that every translate keeps, numbered after the levels. The base class gives m
# rounds, its translates by 0..m-1; each orbit table gives one more, the m translates of the
# table. 15, 21, 27, 33, 39 members at tables of 3 are Kirkman triple systems ((n-1)/2 rounds
# from 21 on); 28 at tables of 4 a resolvable design (9 rounds); 24 at tables of 4 a packing
# of 7 rounds. The bases were found by backtracking over their differences;
# tests/league/test_designs.py checks every pair meets at most once, and exactly once in a
# resolvable one.
_CYCLIC: dict[tuple[int, int], tuple[int, str, str]] = {
    (15, 3): (7, "oo0,0_0,0_1 1_0,2_0,4_0 3_0,1_1,5_1 5_0,4_1,6_1 6_0,2_1,3_1", ""),
    (21, 3): (
        7,
        "0_0,5_1,3_2 1_0,4_1,5_2 2_0,4_0,5_0 3_0,3_1,2_2 6_0,1_1,1_2 0_1,2_1,6_1 0_2,4_2,6_2",
        "0_0,6_1,1_2 0_0,4_1,0_2 0_0,1_1,5_2",
    ),
    (27, 3): (
        9,
        "0_0,6_0,8_0 1_0,5_1,7_1 2_0,2_1,4_2 3_0,7_0,1_1 4_0,2_2,3_2 5_0,1_2,6_2 0_1,3_1,4_1"
        " 6_1,0_2,7_2 8_1,5_2,8_2",
        "0_0,2_1,6_2 0_0,5_1,3_2 0_0,1_1,0_2 0_0,8_1,4_2",
    ),
    (33, 3): (
        11,
        "0_0,2_0,5_1 1_0,5_0,0_2 3_0,4_2,5_2 4_0,10_0,8_2 6_0,9_0,10_1 7_0,8_0,3_1 0_1,1_1,9_2"
        " 2_1,6_1,6_2 4_1,7_1,9_1 8_1,2_2,10_2 1_2,3_2,7_2",
        "0_0,8_1,7_2 0_0,9_1,5_2 0_0,2_1,8_2 0_0,0_1,3_2 0_0,10_1,0_2",
    ),
    (39, 3): (
        13,
        "0_0,2_1,10_2 1_0,1_1,4_2 2_0,4_0,10_1 3_0,11_0,11_2 5_0,8_0,12_0 6_0,7_0,0_2"
        " 9_0,3_1,8_1 10_0,11_1,8_2 0_1,9_1,9_2 4_1,5_1,7_1 6_1,12_1,5_2 1_2,7_2,12_2"
        " 2_2,3_2,6_2",
        "0_0,9_1,1_2 0_0,10_1,12_2 0_0,5_1,9_2 0_0,11_1,5_2 0_0,3_1,4_2 0_0,4_1,2_2",
    ),
    (24, 4): (
        7,
        "oo0,6_0,6_1,1_2 oo1,0_0,1_1,0_2 oo2,1_0,4_1,4_2 2_0,3_0,5_0,0_1 4_0,2_2,3_2,5_2"
        " 2_1,3_1,5_1,6_2",
        "",
    ),
    (28, 4): (
        9,
        "oo0,8_0,8_1,7_2 0_0,7_0,2_1,5_1 1_0,6_0,0_1,7_1 2_0,5_0,2_2,3_2 3_0,4_0,6_2,8_2"
        " 1_1,6_1,1_2,4_2 3_1,4_1,0_2,5_2",
        "",
    ),
}


def cyclic(members: int, table_size: int) -> Design:
    """The cyclic design of `members` at tables of `table_size` (those of _CYCLIC)."""
    m, base, orbits = _CYCLIC[members, table_size]
    fixed = members % m

    def table(points: str, shift: int) -> list[int]:
        seats = []
        for point in points.split(","):
            if point.startswith("oo"):
                seats.append(members - fixed + int(point[2:]))
            else:
                x, level = point.split("_")
                seats.append(int(level) * m + (int(x) + shift) % m)
        return seats

    classes = [[table(points, x) for points in base.split()] for x in range(m)]
    classes += [[table(points, x) for x in range(m)] for points in orbits.split()]
    return classes


def _field(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of the field of order q: integers modulo q for a
    prime, else polynomials over GF(p) modulo _MODULI's polynomial, each element written as
    the integer whose base-p digits are its coefficients (lowest first)."""
    p, low = _MODULI.get(q, (q, []))
    degree = max(1, len(low))

    def digits(a: int) -> list[int]:
        return [a // p**i % p for i in range(degree)]

    def number(coefficients: list[int]) -> int:
        return sum(c * p**i for i, c in enumerate(coefficients))

    def times(a: int, b: int) -> int:
        product = [0] * (2 * degree - 1)
        for i, x in enumerate(digits(a)):
            for j, y in enumerate(digits(b)):
                product[i + j] = (product[i + j] + x * y) % p
        # x^degree = -(low[0] + low[1] x + ...): fold the high powers down.
        for i in range(2 * degree - 2, degree - 1, -1):
            c, product[i] = product[i], 0
            for j, coefficient in enumerate(low):
                product[i - degree + j] = (product[i - degree + j] - c * coefficient) % p
        return number(product[:degree])

    def plus(a: int, b: int) -> int:
        return number([(x + y) % p for x, y in zip(digits(a), digits(b), strict=True)])

    return (
        [[plus(a, b) for b in range(q)] for a in range(q)],
        [[times(a, b) for b in range(q)] for a in range(q)],
    )


# The lower coefficients of monic irreducible polynomials: x^2+x+1, x^3+x+1, x^2+1.
_MODULI = {4: (2, [1, 1]), 8: (2, [1, 1, 0]), 9: (3, [1, 0])}
_FIELDS = {q: _field(q) for q in (2, 3, 4, 5, 7, 8, 9, 11, 13)}
