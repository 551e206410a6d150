"""The HTTP routes, one module per concern; the app concatenates their ROUTES."""
