"""The WSGI entry point: the Flask app alone, on a threaded server (``aegis serve --server wsgi``, or
``gunicorn -w 4 --threads 8 'aegis.api.wsgi:app'``), where every open event stream holds a thread. ``aegis serve`` runs
``api.asgi:app`` instead, which serves streams without a thread each.

Each worker builds its own app from the environment (see the README for the variables).
"""

from aegis.api import create_app, log_masking

app = create_app()
log_masking.install()  # gunicorn's access log (when it writes one) masks a token in a URL
