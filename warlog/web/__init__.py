"""The server-rendered pages: lobby, play, replay and audit (pages), what every page needs (pageutil),
the request hygiene before any route (boundary, limits), the live endpoint and the shareable replay."""
