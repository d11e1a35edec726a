"""Tablelog's composition root: configuration and the `tablelog` command line.

The only package that knows domain, projections and dashboard together.
"""
