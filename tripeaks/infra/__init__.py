"""Machinery every app shares, none of it about the game: request and socket guards (addresses,
devices, NUL guard, CSP, gzip, JSON parsing, API errors, outages), rate limits, socket sessions,
Redis and row-lock helpers, and the health endpoint."""
