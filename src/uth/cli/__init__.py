"""uth.cli."""
