"""The JSON API (Django REST Framework): one view per operation, with an OpenAPI schema."""
