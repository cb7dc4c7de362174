"""Alembic revision scripts (a package only so that setuptools ships them)."""
