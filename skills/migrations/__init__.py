"""Alembic migration scripts for the business tables (run through :mod:`skills.migrate`)."""
