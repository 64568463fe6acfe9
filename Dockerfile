# The TriPeaks Online image: web (Uvicorn, ASGI), Celery worker and beat all run from it.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    STATIC_ROOT=/app/staticfiles

WORKDIR /app

COPY . .

# collectstatic needs settings, and settings with DEBUG=0 need secrets: throwaway random ones.
RUN pip install . \
    && throwaway="$(python -c 'import secrets; print(secrets.token_urlsafe(64))')" \
    && DEBUG=0 SECRET_KEY="$throwaway" DEAL_SECRET="$throwaway" \
       python manage.py collectstatic --noinput \
    && useradd --system --uid 1000 tripeaks

USER tripeaks
EXPOSE 8000
CMD ["python", "-m", "tripeaks.stack.serve", "--host", "0.0.0.0", "--port", "8000"]
