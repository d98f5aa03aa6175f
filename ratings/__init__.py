"""People's ratings: an openskill rating per family, moved by rated games, a projection of the
log that a rebuild gives again figure for figure (league/ratings.py is the model)."""
