"""Monte Carlo simulation of whole rounds at scale (issue 12).

:mod:`~uth.analysis.sim.kernel` plays and settles rounds in numba exactly as
:func:`uth.engine.settle` does; :mod:`~uth.analysis.sim.strategies` holds the
strategies; :mod:`~uth.analysis.sim.run` splits the rounds into blocks with their
own random streams and sums the figures; :mod:`~uth.analysis.sim.sessions` plays
sessions against a bankroll; :mod:`~uth.analysis.sim.cluster` runs the blocks on
Ray (``uth[cluster]``).
"""
