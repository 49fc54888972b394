"""Access logs hold no token. Every route refuses a token in its URL (``?token=``, 400), but a server writes the
request line to its access log before the app answers: the token of a client that put one there would be kept in
the log. A filter on the access loggers of the servers ``aegis serve`` runs (uvicorn's, gunicorn's and Werkzeug's)
masks the value of every ``token`` (or ``access_token``, in any case) query parameter in what they log. A stream
ticket (``?ticket=``) is meant for URLs (short-lived, one seat's stream only) and stays."""

from __future__ import annotations

import logging
import re
from typing import Any

ACCESS_LOGGERS = ("uvicorn.access", "gunicorn.access", "werkzeug")
_TOKEN = re.compile(r"([?&](?:access_)?token=)[^&\s\"']*", re.IGNORECASE)  # ?token=, ?Token=, ?access_token=
MASK = "<hidden>"


def mask(text: str) -> str:
    """``text`` with the value of every ``token`` query parameter masked."""
    return _TOKEN.sub(r"\g<1>" + MASK, text) if "token=" in text.lower() else text


def _masked(value: Any) -> Any:
    return mask(value) if isinstance(value, str) else value


class TokenMask(logging.Filter):
    """Masks ``?token=`` values in a record's message and arguments (a tuple, or gunicorn's dict of atoms)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = mask(record.msg)
        if isinstance(record.args, dict):
            record.args = {k: _masked(v) for k, v in record.args.items()}
        elif isinstance(record.args, tuple):
            record.args = tuple(_masked(a) for a in record.args)
        return True


def install() -> None:
    """Put the mask on every access logger (once; a logger's filters outlive its handlers being configured)."""
    for name in ACCESS_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, TokenMask) for f in logger.filters):
            logger.addFilter(TokenMask())
