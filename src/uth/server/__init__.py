"""uth.server."""
