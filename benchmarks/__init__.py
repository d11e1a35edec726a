"""Tablelog's performance suite: every figure beside a baseline measured in the same run."""
