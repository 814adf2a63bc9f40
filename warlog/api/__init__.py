"""The JSON API under /api/v1 (routes) and its OpenAPI document (openapi, openapi_games, openapi_ids)."""
