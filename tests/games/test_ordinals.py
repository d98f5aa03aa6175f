"""A place in words, as the season tables and the notices of a match's end say it."""

from __future__ import annotations

import pytest

from games.placings import ordinal


@pytest.mark.parametrize(
    ("place", "said"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"),
     (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th"), (112, "112th")],
)  # fmt: skip
def test_a_place_takes_its_english_ending(place, said):
    assert ordinal(place) == said
