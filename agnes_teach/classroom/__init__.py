"""The classroom server: a teacher's class plays assigned puzzles in the browser, the server judges.

A front-layer package, beside ``cli/``: it may import everything below it and
nothing below imports it. Its parts:

* ``db``: the one SQLite file a teacher keeps (WAL, schema migrations, checks);
* ``tokens``: random tokens and class codes, stored only as hashes;
* ``puzzle_library``: the puzzle library, by scenario id and by theme;
* ``judge``: an attempt replayed on the engine (the server's verdict only);
* ``glicko``: Glicko-2 ratings of pupils and puzzles from first attempts;
* ``report``: the per-pupil, per-rule, per-puzzle report and its CSV;
* ``throttle``: rate limits per client and per token;
* ``app``: the Starlette application (routes, status codes, headers);
* ``server``: running it under uvicorn, stopping cleanly.

The contract is docs/classroom.md.
"""
