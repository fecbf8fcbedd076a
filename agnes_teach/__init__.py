"""agnes-teach: teach the rules of the patience game Agnes Bernauer."""

__version__ = "0.1.0"
