"""Running the service: `python -m tripeaks.stack.run` (make run: embedded PostgreSQL and Redis, the
server, a worker and beat) and `python -m tripeaks.stack.serve` (the ASGI server alone)."""
