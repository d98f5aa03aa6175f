"""Open tables and challenges: a person opens a table (family, options, seats, turn length, rated
or casual), others join it from the lobby or the API, and the game starts when it is full. A
challenge is a table addressed to one person, who accepts or declines."""
