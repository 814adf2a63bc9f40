"""Running the server: health and readiness, metrics, logs, the database role and plain tables (dbrole,
sqldb), archiving old periods and bounded caches."""
