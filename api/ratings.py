"""People's ratings over the API: the pools and a pool's leaderboard of people, paged. Reads are
public; ratings/reads.py does the reading. A person's own ratings are in
`GET /api/players/<username>` (api/leagues.py). docs/api.md, "Ratings"; docs/ratings.md, the
model.
"""

from __future__ import annotations

import math
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import error_responses
from api.leagues import KIND, PERSON_RATING_HELP, public
from ratings import reads
from ratings.pools import POOLS, pool_name

# Lines a leaderboard page holds.
PAGE_SIZE = 50


class PoolOutput(serializers.Serializer[Any]):
    family = serializers.CharField(help_text="The pool: a family, or one under precognitive.")
    name = serializers.CharField()
    people = serializers.IntegerField(help_text="People on its board (rated in the last days).")


class BoardLineOutput(serializers.Serializer[Any]):
    rank = serializers.IntegerField(
        allow_null=True, help_text="Ties share a rank; null: provisional, not ranked yet."
    )
    kind = serializers.ChoiceField(choices=KIND, help_text="Always person: no bot is rated here.")
    username = serializers.CharField()
    user_id = serializers.IntegerField()
    mu = serializers.FloatField(source="rating.mu", help_text=PERSON_RATING_HELP)
    sigma = serializers.FloatField(source="rating.sigma", help_text=PERSON_RATING_HELP)
    rating = serializers.FloatField(
        source="rating.rating",
        help_text="The displayed figure and the board's order: mu - 3 sigma.",
    )
    games = serializers.IntegerField(source="rating.games")
    provisional = serializers.BooleanField(source="rating.provisional")
    rated_at = serializers.DateTimeField(source="rating.rated_at")


class BoardQuery(serializers.Serializer[dict[str, Any]]):
    page = serializers.IntegerField(min_value=1, required=False, help_text="From 1.")


class BoardOutput(serializers.Serializer[dict[str, Any]]):
    family = serializers.CharField()
    name = serializers.CharField()
    count = serializers.IntegerField(help_text="Lines on the board, every page.")
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    lines = BoardLineOutput(
        many=True, help_text="The ranked people best first, then the provisional ones."
    )


@extend_schema(responses={200: PoolOutput(many=True), **error_responses(403)})
@public
def pools(request: Request) -> Response:
    """Every rating pool, with how many people are on its board."""
    counts = reads.board_counts()
    rows = [{"family": pool, "name": pool_name(pool), "people": counts[pool]} for pool in POOLS]
    return Response(PoolOutput(rows, many=True).data)


@extend_schema(
    parameters=[BoardQuery], responses={200: BoardOutput, **error_responses(400, 403, 404)}
)
@public
def board(request: Request, family: str) -> Response:
    """A pool's leaderboard of people, PAGE_SIZE lines a page (`?page=N`): the ranked (rated
    in the last BOARD_DAYS, no longer provisional) best first, then the provisional ones."""
    query = BoardQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    found = reads.leaderboard(family)
    lines = [*found.ranked, *found.provisional]
    page = query.validated_data.get("page", 1)
    shown = lines[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    body = {
        "family": found.family,
        "name": found.name,
        "count": len(lines),
        "page": page,
        "pages": max(1, math.ceil(len(lines) / PAGE_SIZE)),
        "lines": shown,
    }
    return Response(BoardOutput(body).data)
