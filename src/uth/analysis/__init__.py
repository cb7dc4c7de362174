"""uth.analysis."""
