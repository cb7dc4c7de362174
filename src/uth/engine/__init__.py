"""uth.engine."""
