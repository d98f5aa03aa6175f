"""What the front doors (api/, web/, staff/ and the admins) share, so that none imports another:
the input boundary, the rate limits, a service error's HTTP status, the variant form and its
words, and chart scales."""
