"""Hand scores, match end and final placement (docs/rules.md "Scoring and placement")."""

from __future__ import annotations

from collections.abc import Collection

from engine.cards import points
from engine.events import HAND_ENDED, MATCH_ENDED, Event
from engine.state import MATCH_OVER, State

SCORINGS = ("winner-takes", "running-total", "single-hand")


def hand_events(state: State, winner: int, scoring: str, target: int) -> list[Event]:
    """The facts that close a hand won by `winner`: the hand's result and maybe the match's."""
    seats = range(state.seats)
    # Cards in a precognitive lane count as cards in hand.
    left = [state.hands[s] + state.lanes[s] for s in seats]
    pts = [points(cards) for cards in left]
    if scoring == "running-total":
        gained = pts
    else:
        gained = [sum(pts) if s == winner else 0 for s in seats]
    scores = [a + b for a, b in zip(state.scores, gained, strict=True)]
    hands_won = list(state.hands_won)
    hands_won[winner] += 1
    events: list[Event] = [
        {
            "type": HAND_ENDED,
            "hand": state.hand_number,
            "winner": winner,
            "cards_left": left,
            "points": pts,
            "gained": gained,
            "scores": scores,
            "hands_won": hands_won,
        }
    ]
    if scoring == "single-hand" or max(scores) >= target:
        places = placement(scores, hands_won, scoring, winner, pts)
        firsts = [s for s in seats if places[s] == 1]
        events.append(
            {
                "type": MATCH_ENDED,
                "winner": firsts[0] if len(firsts) == 1 else None,
                "places": places,
                "scores": scores,
            }
        )
    return events


def placement(
    scores: list[int], hands_won: list[int], scoring: str, winner: int, left: list[int]
) -> list[int]:
    """Each seat's place (1 = first); tied seats share a place and the next place is skipped."""
    # Two keys per seat, three for single-hand (who went out first, then the points left).
    keys: list[tuple[int, ...]]
    if scoring == "winner-takes":
        keys = [(-scores[s], -hands_won[s]) for s in range(len(scores))]
    elif scoring == "running-total":
        keys = [(scores[s], -hands_won[s]) for s in range(len(scores))]
    else:
        keys = [(0 if s == winner else 1, left[s], -hands_won[s]) for s in range(len(scores))]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def forfeit_end(state: State, forfeited: Collection[int]) -> list[Event]:
    """The match-ended that the forfeits end the match with, where it stands: when at most one
    seat is not forfeited (docs/rules.md "What the service adds"), that seat wins (places 1)
    and the forfeited seats share the place after it; no seat left, they all share first place
    and nobody wins. The scores are the match's so far. Empty while two seats or more play on,
    and once the match is over."""
    if state.status == MATCH_OVER:
        return []
    kept = [seat for seat in range(state.seats) if seat not in forfeited]
    if len(kept) > 1:
        return []
    places = [1 if seat in kept else len(kept) + 1 for seat in range(state.seats)]
    return [
        {
            "type": MATCH_ENDED,
            "winner": kept[0] if kept else None,
            "places": places,
            "scores": list(state.scores),
        }
    ]
