"""uth: Ultimate Texas Hold'em rules engine, tables and game math.

Layers, each importing only those before it: ``uth.cards`` and ``uth.evaluator``,
``uth.rules``, ``uth.engine``, ``uth.analysis``, ``uth.server``, ``uth.cli``.
"""

__version__ = "0.1.0"
