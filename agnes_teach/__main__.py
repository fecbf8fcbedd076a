"""``python -m agnes_teach``: the same command line as ``agnes-teach``."""

from .cli import main

if __name__ == "__main__":
    main()
