"""The ASGI entry point that ``aegis serve`` runs: ``gunicorn -w 4 -k aegis.api.workers.Worker 'aegis.api.asgi:app'`` (or
``uvicorn api.asgi:app``). Event streams are served asynchronously, every other route by the Flask app on a pool
of threads (``api/serving.py``). Each worker builds its own app from the environment (see the README)."""

from aegis.api.serving import create_asgi_app

app = create_asgi_app()
