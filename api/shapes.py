"""The game's shapes in the OpenAPI schema: a command, a view, an event.

The engine builds these as plain dicts (engine/view.py, commands.py, events.py); these
serializers only describe them, for the schema and for clients generated from it. docs/rules.md
says what each field means.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engine import COLORS
from engine.commands import FIELDS
from engine.events import EVOLVE

CARD_HELP = "A card code, e.g. `red-7`, `blue-skip`, `green-draw2`, `wild`, `wild-draw4`."


class Shape(serializers.Serializer[dict[str, Any]]):
    """Describes an engine dict in the schema and hands it out unchanged: the engine decides
    every field (a family's extra ones included), and redaction happened before."""

    def to_representation(self, instance: Any) -> Any:
        return instance


class CommandShape(Shape):
    """A command: `type` and the seat acting, plus the fields its type needs (docs/rules.md)."""

    type = serializers.ChoiceField(choices=sorted(FIELDS))
    seat = serializers.IntegerField(
        min_value=0, required=False, help_text="The acting seat (system commands have none)."
    )
    card = serializers.CharField(required=False, help_text=CARD_HELP)
    color = serializers.ChoiceField(
        choices=list(COLORS), required=False, help_text="A black card's colour."
    )
    uno = serializers.BooleanField(
        required=False, help_text="Call uno with the play that leaves one card."
    )
    target = serializers.IntegerField(
        min_value=0, required=False, help_text="The seat caught, or swapped with (newno 7)."
    )
    other = serializers.IntegerField(
        min_value=0, required=False, help_text="newno: the second seat of a jumper's swap."
    )
    cards = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="precommit: the lane's cards, in the order they will be played.",
    )


class PendingShape(Shape):
    """What the game waits for (docs/rules.md lists every type and its fields)."""

    type = serializers.CharField(
        help_text="`play`, `drawn`, `color`, `challenge`, `precommit`, `next-hand`, "
        "`first-play`, `second-play`, `stack`, `swap`, `submit`, `resubmit` or `ruling`."
    )
    seat = serializers.IntegerField(required=False, allow_null=True)
    seats = serializers.ListField(child=serializers.IntegerField(), required=False)
    card = serializers.CharField(
        required=False, allow_null=True, help_text="drawn/resubmit: null for other seats."
    )


class SubmissionShape(Shape):
    """censorship: the card waiting for the dealer's ruling (seen by submitter and dealer)."""

    seat = serializers.IntegerField()
    card = serializers.CharField(allow_null=True)
    color = serializers.CharField(allow_null=True)


class ViewShape(Shape):
    """A game as one seat (or a spectator) may see it; null stands for a hidden card."""

    rules = serializers.CharField(help_text="The family: official, basic-plus, newno, censorship.")
    seat = serializers.IntegerField(allow_null=True, help_text="The viewing seat; null: spectator.")
    seats = serializers.IntegerField(help_text="How many seats the table has.")
    hand = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="The viewer's own cards."
    )
    hand_sizes = serializers.ListField(child=serializers.IntegerField())
    lane = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(allow_null=True)),
        help_text="precognitive: each seat's lane, null where the sight rule hides a card.",
    )
    top = serializers.CharField(allow_null=True, help_text="The discard pile's top card.")
    color = serializers.CharField(allow_null=True, help_text="The colour to match.")
    direction = serializers.ChoiceField(choices=["clockwise", "counter-clockwise"])
    to_act = serializers.ListField(child=serializers.IntegerField())
    pending = PendingShape(allow_null=True)
    uncalled = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats holding one card without a call."
    )
    draw_pile = serializers.IntegerField(help_text="Cards left to draw (their order is hidden).")
    discard_pile = serializers.IntegerField()
    hand_number = serializers.IntegerField()
    dealer = serializers.IntegerField(allow_null=True)
    scores = serializers.ListField(child=serializers.IntegerField())
    hands_won = serializers.ListField(child=serializers.IntegerField())
    last_hand = serializers.DictField(allow_null=True, help_text="The last hand's result.")
    status = serializers.ChoiceField(choices=["playing", "hand-over", "match-over"])
    winner = serializers.IntegerField(allow_null=True)
    places = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    submission = SubmissionShape(required=False, allow_null=True, help_text="censorship only.")
    hands = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Every seat's hand: only once the match is over and revealed.",
    )


# Every event type the engine and the service write: those the fold knows.
EVENT_TYPES = sorted(EVOLVE)


class EventShape(Shape):
    """One fact of the game; its fields depend on `type` (docs/rules.md, "Events")."""

    type = serializers.ChoiceField(choices=EVENT_TYPES)


class VersionedEvent(Shape):
    version = serializers.IntegerField(help_text="The event's place in the game, from 1.")
    event = EventShape()
