"""The ``aegis`` command line."""
