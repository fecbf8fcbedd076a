"""Rendering: SVG position diagrams, PDF worksheets and the HTML rules guide."""
