"""Django's PostgreSQL backend, its pool checking connections by their sockets (`base`)."""
