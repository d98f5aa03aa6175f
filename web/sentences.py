"""A service's message as a sentence on a page. The services say why they refused in words that
read on after a code (`"a club keeps at least one admin"`, the API's `message`), lower case;
a page shows one as a sentence of its own, with a capital and a full stop. A message that opens
with a name (a username, a bot's, a club's: `"ada is not a member"`) keeps the name as it is
spelt, so only a message opening with one of the plain words the services begin with is
capitalised. And a small count in words ("the best two") and a place ("2nd"), as a sentence
says them."""

from __future__ import annotations

# A place in words ("2nd"), as the notices of the domain say it too: written once there.
from games.placings import ordinal as ordinal

# The first words of the services' messages that are not names (league/, games/, tournaments/,
# bots/, chat/, social/, analysis/: their errors' literal openings).
PLAIN_OPENINGS = frozenset(
    """a an the there you your only no not nothing nobody one too it this that cannot must
    after give say sign game seat bot season club ladder player entrant unknown invalid
    duplicate refused report reveal seed scopes kind hours days expected""".split()
)


def opening(message: str) -> str:
    """`message` capitalised when it opens with a plain word; otherwise as it is."""
    if message.split(" ", 1)[0] in PLAIN_OPENINGS:
        return message[:1].upper() + message[1:]
    return message


def sentence(message: str) -> str:
    """`message` as a sentence: capitalised when it opens with a plain word, one full stop."""
    return opening(message.strip().rstrip(".")) + "."


# Counts up to ten said in words on a page ("the best two"), larger ones in figures.
NUMBER_WORDS = "zero one two three four five six seven eight nine ten".split()


def number(count: int) -> str:
    """`count` in words up to ten ("one", "two"), in figures beyond."""
    return NUMBER_WORDS[count] if 0 <= count < len(NUMBER_WORDS) else str(count)
