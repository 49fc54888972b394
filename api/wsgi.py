"""The WSGI entry point for production servers: ``gunicorn -w 4 --threads 8 'api.wsgi:app'``.

Each worker builds its own app from the environment (see the README for the variables).
"""

from api import create_app

app = create_app()
