"""The tagger: what a position or a line *is*, apart from the generator that makes puzzles.

As lichess-puzzler keeps its tagger apart from its generator, this package
only describes: what every theme's detector and tempting move share
(``detectors``, ``distractors``; each theme's own are in its module,
``agnes_teach.themes``), a misconception as data (``misconception``), how
pupils' play fares on a position (``players``: random, greedy and
misconception players, and their win rates), whether a puzzle teaches
(``teaching``: the measures and criteria 1-2), and why a tempting move loses
(``refutation``).  It finds a theme through the registry
(``agnes_teach.themes``), never by name.  The generator, the checker, the
sheets and the benchmarks call it; it never imports the generator or the
renderers.
"""
