"""The puzzle library, installed as the package ``agnes_teach.puzzles`` (see pyproject.toml).

It holds no code: the scenario files under it are read with ``importlib.resources``, so an
editable install and a wheel find the same files.
"""
