"""The JSON Schemas of what a bot reads and sends: the decision (`view`, `legal`), a command, the
command body of POST /api/bot/games/<id>/commands, and the webhook request and answer.

One place, built from the engine's own vocabulary (card codes, colours, command types and their
fields, the families), so the schemas cannot drift from the engine:
tests/api/test_decision_schemas.py validates real payloads of every family and sight mode against
them and checks that every command type and family the engine knows appears here. They are served
as JSON Schema 2020-12 documents at /api/schemas/<name>.json (api/published_schemas.py) and put
into the OpenAPI document as components (`BotView`, `BotCommand`, ...), with the webhook call as
an OpenAPI 3.1 `webhooks` entry. docs/bots-api.md, "Schemas", says what each is.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.cards import CARD_CODES, COLORS
from engine.commands import FIELDS, SYSTEM_COMMANDS

Schema = dict[str, Any]

DIALECT = "https://json-schema.org/draft/2020-12/schema"

# The decision kinds (a view's `pending.type`) each family can ask for; the precognitive
# modifier adds `precommit` to the family it modifies (official and basic-plus).
DECISION_KINDS: dict[str, tuple[str, ...]] = {
    "official": ("play", "drawn", "color", "challenge"),
    "basic-plus": ("play", "drawn", "color", "challenge"),
    "newno": ("play", "drawn", "color", "first-play", "second-play", "stack", "swap"),
    "censorship": ("play", "drawn", "color", "submit", "ruling", "resubmit"),
}
PRECOGNITIVE_KINDS = ("precommit",)
PRECOGNITIVE_FAMILIES = ("official", "basic-plus")

# Every field a pending decision may carry, with its meaning (docs/rules.md, "Pending").
_SEAT: Schema = {"type": "integer", "minimum": 0}
_PENDING_FIELDS: dict[str, Schema] = {
    "seat": {**_SEAT, "description": "The seat that must answer."},
    "seats": {
        "type": "array",
        "items": _SEAT,
        "description": "newno: the seats that may answer an open choice (first play, second "
        "play, stack); any one of them may, or none.",
    },
    "card": {
        "anyOf": [{"$ref": "#/$defs/card"}, {"type": "null"}],
        "description": "drawn/resubmit: the card just drawn; null for every other seat.",
    },
    "after": {
        "enum": ["play", "turn", "flip-draw4"],
        "description": "color: what the colour is chosen after.",
    },
    "offender": {**_SEAT, "description": "challenge: the seat that played the wild-draw4."},
    "count": {
        "type": "integer",
        "minimum": 1,
        "description": "precommit: cards to put in the lane.",
    },
    "next": {**_SEAT, "description": "precommit: the seat whose turn comes next."},
    "then": {
        "anyOf": [{"$ref": "#/$defs/pending"}, {"type": "null"}],
        "description": "precommit: the decision waiting after the precommit.",
    },
    "leeway": {"type": "boolean", "description": "newno: a drawn card may still be played."},
    "ctx": {"type": "object", "description": "newno: the play being resolved (opaque)."},
    "jump": {
        "type": "object",
        "description": "newno: the jump-in window open now (`card` on top, `by` who played it).",
    },
    "first": {**_SEAT, "description": "newno: the seat that made the first play."},
    "steps": {"type": "integer", "description": "newno: seats away the second play belongs to."},
    "kind": {"enum": ["draw2", "wild-draw4"], "description": "stack: the card being stacked."},
    "total": {"type": "integer", "minimum": 0, "description": "stack: cards the stack makes draw."},
    "submitter": {**_SEAT, "description": "ruling: the seat whose card the dealer rules on."},
    "jumper": {**_SEAT, "description": "newno: the seat that jumped in with a 7."},
    "jumper_target": {"anyOf": [_SEAT, {"type": "null"}], "description": "newno: its target."},
    "jumper_ctx": {"type": "object", "description": "newno: the jumper's play (opaque)."},
}
# The fields each decision kind always has besides `type`.
_PENDING_REQUIRED: dict[str, tuple[str, ...]] = {
    "play": ("seat",),
    "drawn": ("seat", "card"),
    "color": ("seat", "after"),
    "challenge": ("seat", "offender"),
    "precommit": ("seat", "count", "next"),
    "first-play": ("seats",),
    "second-play": ("first", "steps"),
    "stack": ("total", "kind"),
    "swap": ("seat",),
    "submit": ("seat",),
    "ruling": ("seat", "submitter"),
    "resubmit": ("seat", "card"),
}

# Each command field's schema (engine/commands.py FIELDS names them per type).
_COMMAND_FIELDS: dict[str, Schema] = {
    "seat": {**_SEAT, "description": "The acting seat: yours."},
    "card": {"$ref": "#/$defs/card"},
    "color": {
        "anyOf": [{"$ref": "#/$defs/color"}, {"type": "null"}],
        "description": "The colour a black card names.",
    },
    "uno": {"type": "boolean", "description": "Call uno with the play that leaves one card."},
    "target": {**_SEAT, "description": "The seat caught, or swapped with (newno 7)."},
    "other": {**_SEAT, "description": "newno: the second seat of a jumper's swap."},
    "cards": {
        "type": "array",
        "items": {"$ref": "#/$defs/card"},
        "description": "precommit: the lane's cards, in the order they will be played.",
    },
    "deck": {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/card"}}, {"type": "null"}]},
}


def all_decision_kinds() -> set[str]:
    return {kind for kinds in DECISION_KINDS.values() for kind in kinds} | set(PRECOGNITIVE_KINDS)


def _command(kind: str) -> Schema:
    required, allowed = FIELDS[kind]
    system = kind in SYSTEM_COMMANDS
    names = sorted(allowed - {"type"} - ({"seat"} if system else set()))
    return {
        "type": "object",
        "title": kind,
        "properties": {"type": {"const": kind}, **{n: _COMMAND_FIELDS[n] for n in names}},
        "required": ["type", *sorted(required | (set() if system else {"seat"}))],
        "additionalProperties": False,
    }


def _pending(kinds: tuple[str, ...] | list[str]) -> Schema:
    return {
        "type": "object",
        "properties": {"type": {"enum": list(kinds)}, **_PENDING_FIELDS},
        "required": ["type"],
        "additionalProperties": False,
        "allOf": [
            {
                "if": {"properties": {"type": {"const": kind}}},
                "then": {"required": list(_PENDING_REQUIRED[kind])},
            }
            for kind in kinds
        ],
    }


def _view(family: str, kinds: list[str]) -> Schema:
    nullable_int = {"type": ["integer", "null"]}
    ints = {"type": "array", "items": {"type": "integer"}}
    hidden = {"anyOf": [{"$ref": "#/$defs/card"}, {"type": "null"}]}
    properties: Schema = {
        "rules": {"const": family},
        "seat": {**nullable_int, "description": "The viewing seat; null: a spectator."},
        "seats": {"type": "integer", "minimum": 2},
        "hand": {"type": "array", "items": {"$ref": "#/$defs/card"}},
        "hand_sizes": ints,
        "lane": {
            "type": "array",
            "items": {"type": "array", "items": hidden},
            "description": "precognitive: each seat's lane, null where the sight rule hides "
            "a card; empty lanes otherwise.",
        },
        "top": {"anyOf": [{"$ref": "#/$defs/card"}, {"type": "null"}]},
        "color": {"anyOf": [{"$ref": "#/$defs/color"}, {"type": "null"}]},
        "direction": {"enum": ["clockwise", "counter-clockwise"]},
        "to_act": ints,
        "pending": {"anyOf": [_pending(kinds), {"type": "null"}]},
        "uncalled": {**ints, "description": "Seats holding one card without an uno call."},
        "draw_pile": {"type": "integer", "minimum": 0},
        "discard_pile": {"type": "integer", "minimum": 0},
        "hand_number": {"type": "integer", "minimum": 0},
        "dealer": nullable_int,
        "scores": ints,
        "hands_won": ints,
        "last_hand": {"type": ["object", "null"], "description": "The last hand's result."},
        "status": {"enum": ["playing", "hand-over", "match-over"]},
        "winner": nullable_int,
        "places": {"anyOf": [ints, {"type": "null"}]},
        # Added by the API (games/visibility.py): the version to send, the legal commands, and
        # every hand once the match is over and revealed.
        "version": {"type": "integer", "minimum": 0},
        "legal": {"type": "array", "items": {"$ref": "#/$defs/command"}},
        "hands": {"type": "array", "items": {"type": "array", "items": {"$ref": "#/$defs/card"}}},
    }
    required = [n for n in properties if n not in ("hand", "version", "legal", "hands")]
    if family == "censorship":
        properties["submission"] = {
            "anyOf": [
                {
                    "type": "object",
                    "properties": {"seat": _SEAT, "card": hidden, "color": properties["color"]},
                    "required": ["seat", "card", "color"],
                    "additionalProperties": False,
                },
                {"type": "null"},
            ],
            "description": "The card waiting for the dealer's ruling (seen by its submitter "
            "and the dealer).",
        }
        required.append("submission")
    return {
        "type": "object",
        "title": f"{family} view",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def definitions() -> dict[str, Schema]:
    """Every schema by name, each referring to the others as `#/$defs/<name>`."""
    kinds = sorted(FIELDS)
    defs: dict[str, Schema] = {
        "card": {
            "type": "string",
            "enum": sorted(CARD_CODES),
            "description": "A card code: `red-7`, `blue-skip`, `green-draw2`, `wild`, ...",
        },
        "color": {"enum": list(COLORS)},
        "command": {
            "description": "A command: `type` and the acting `seat`, plus the fields its type "
            "needs (docs/rules.md, Commands).",
            "oneOf": [{"$ref": f"#/$defs/command-{kind}"} for kind in kinds],
        },
        "pending": _pending(sorted(all_decision_kinds())),
    }
    for kind in kinds:
        defs[f"command-{kind}"] = _command(kind)
    for family, family_kinds in DECISION_KINDS.items():
        extra = PRECOGNITIVE_KINDS if family in PRECOGNITIVE_FAMILIES else ()
        defs[f"view-{family}"] = _view(family, [*family_kinds, *extra])
    defs["view"] = {
        "description": "A game as one seat sees it; null stands for a hidden card. `rules` "
        "names the family and decides the decision kinds `pending.type` may take.",
        "oneOf": [{"$ref": f"#/$defs/view-{family}"} for family in DECISION_KINDS],
    }
    decision_fields: Schema = {
        "game": {"type": "integer"},
        "variant": {"$ref": "#/$defs/variant"},
        "seat": _SEAT,
        "version": {"type": "integer", "minimum": 0, "description": "Send as expected_version."},
        "view": {"$ref": "#/$defs/view"},
        "legal": {
            "type": "array",
            "items": {"$ref": "#/$defs/command"},
            "description": "Every command the seat may send now.",
        },
        "deadline": {"type": "string", "format": "date-time"},
    }
    defs["variant"] = {
        "type": "object",
        "description": "The game's settings: its variant spec, normalised (the engine's "
        "Variant.spec, every option spelled out), as `variant` of GET /api/games/<id>. `rules` "
        "is the family (the view's `rules` too, a precognitive game's base); `options` its "
        'settings (target, uno_penalty, ...; docs/rules.md, "Options"); `precognitive` the '
        "modifier's (lane, sight, ...), in a precognitive game only.",
        "properties": {
            "rules": {"enum": list(DECISION_KINDS)},
            "options": {"type": "object"},
            "precognitive": {"type": ["object", "null"]},
        },
        "required": ["rules", "options"],
        "additionalProperties": False,
    }
    defs["decision"] = {
        "type": "object",
        "description": "One decision of GET /api/bot/decisions.",
        "properties": {**decision_fields, "optional": {"type": "boolean"}},
        "required": [*decision_fields, "optional"],
        "additionalProperties": False,
    }
    defs["decisions"] = {"type": "array", "items": {"$ref": "#/$defs/decision"}}
    defs["command-body"] = {
        "type": "object",
        "description": "The body of POST /api/bot/games/<id>/commands (and /api/games/<id>/"
        "commands).",
        "properties": {
            "command": {"$ref": "#/$defs/command"},
            "expected_version": {"type": "integer", "minimum": 0},
            "command_id": {"type": ["string", "null"], "minLength": 1, "maxLength": 100},
        },
        "required": ["command", "expected_version"],
        "additionalProperties": False,
    }
    defs["webhook-request"] = {
        "type": "object",
        "description": "What the server POSTs to a webhook bot's URL, signed in X-Uno-Signature.",
        "properties": {
            **decision_fields,
            "optional": {
                "const": True,
                "description": "Present on an out-of-turn window only: the bot may let it go "
                "(answer null).",
            },
        },
        "required": list(decision_fields),
        "additionalProperties": False,
    }
    defs["webhook-answer"] = {
        "description": "A webhook bot's 200 answer: one command, for the seat it was asked for; "
        "on an optional window also `null` (or `{}`), letting it go.",
        "anyOf": [
            {"$ref": "#/$defs/command"},
            {"type": "null"},
            {"type": "object", "maxProperties": 0},
        ],
    }
    return defs


# The documents served at /api/schemas/<name>.json.
PUBLISHED = (
    "decision",
    "decisions",
    "view",
    "command",
    "command-body",
    "webhook-request",
    "webhook-answer",
)


def document(name: str) -> Schema:
    """`name`'s schema as a standalone JSON Schema document (KeyError for an unknown name)."""
    defs = definitions()
    top = defs[name]
    if name not in PUBLISHED:
        raise KeyError(name)
    return {
        "$schema": DIALECT,
        "$id": f"/api/schemas/{name}.json",
        "title": name,
        **top,
        "$defs": defs,
    }


def _component_name(name: str) -> str:
    return "Bot" + "".join(part.capitalize() for part in name.split("-"))


def _rewrite(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: (
                "#/components/schemas/" + _component_name(v.removeprefix("#/$defs/"))
                if k == "$ref" and isinstance(v, str)
                else _rewrite(v)
            )
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_rewrite(v) for v in value]
    return value


def components() -> dict[str, Schema]:
    """Every schema as an OpenAPI 3.1 component, `BotView`, `BotCommand`, ... ."""
    return {_component_name(n): _rewrite(copy.deepcopy(s)) for n, s in definitions().items()}


def ref(name: str) -> Schema:
    return {"$ref": "#/components/schemas/" + _component_name(name)}
