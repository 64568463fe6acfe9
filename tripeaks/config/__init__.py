"""How the service is put together: settings, URL and socket routing, the ASGI/WSGI entry points,
the Celery app and the log format. Nothing here is game logic or shared machinery."""
