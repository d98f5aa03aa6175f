"""Turn clocks: people's deadlines and vacations, the overdue-turn sweep and the default
bot's fallback moves for a seat that did not move in time."""
