"""The tagger: what a position or a line *is*, apart from the generator that makes puzzles.

As lichess-puzzler keeps its tagger apart from its generator, this package
only describes: which theme a line uses (``detectors``, with the theme table
in ``themes``), the tempting wrong move beside the lesson (``distractors``),
how pupils' play fares on a position (``players``: random, greedy and
misconception players, and their win rates), whether a puzzle teaches
(``teaching``: the measures and criteria 1-2), and why a tempting move loses
(``refutation``).  The generator, the checker, the sheets and the benchmarks
call it; it never imports the generator or the renderers.
"""
