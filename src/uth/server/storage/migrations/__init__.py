"""Alembic migrations of the live table's database, run by :mod:`uth.server.storage.migrate`."""
