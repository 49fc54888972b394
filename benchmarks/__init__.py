"""Benchmarks: run with ``aegis bench [suite]``; never part of the test suite."""
