"""Words between people: chat at a table (seats and spectators apart), club boards, mutes, and
the moderation of both (reports, hidden messages, chat restrictions)."""
