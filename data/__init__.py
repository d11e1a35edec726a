"""Tablelog's package data: component manifests, example match records, the solved Topitop table.

Installed as `tablelog.data`; read it with `importlib.resources.files("tablelog.data")`, never by
a path relative to a source file, so a wheel, an sdist and an editable install all find it.
"""
